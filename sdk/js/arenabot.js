// arenabot.js: the arena's JavaScript bot SDK (protocol version 1).
//
// One file, no dependencies, Node 18 or later. Keep it next to your bot:
//
//   // bot.js (CommonJS)                 // bot.mjs (ES module)
//   const arenabot = require('./arenabot.js');   import { run } from './arenabot.js';
//   arenabot.run((view, legal, ctx) => ctx.randomInt(legal.length));
//
// A bot is one function act(view, legal, ctx) that returns an index into
// legal, or an action object equal to one of legal (or a Promise of
// either); or an object { act, start(ctx), end(result, ctx) } whose hooks
// are optional. run(bot) does the rest of the protocol (docs/protocol.md):
// the hello/ready handshake, the version check, turn ids, seeding, keep-
// alive across games, end, bye and end of input, unknown fields and message
// types, flushing, and a legal fallback move (with a stderr message) when
// act throws or answers something that is not legal. Typed helpers read
// each game's view: arenabot.banqi, arenabot.uno (also arenabot.bounce) and
// arenabot.boon. The reference is docs/sdk-js.md.
//
// If your package.json says "type": "module", rename this file to
// arenabot.cjs (and import from './arenabot.cjs').
'use strict';

const { performance } = require('perf_hooks');

/** The major protocol version this SDK speaks. */
const PROTOCOL = 1;
/** The SDK's own version, sent in ready unless the bot names one. */
const VERSION = '1.0.0';

// ---------------------------------------------------------------------------
// Random numbers

const MASK64 = (1n << 64n) - 1n;

function splitmix64(state) {
  state = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return [state, z ^ (z >> 31n)];
}

function rotl(x, k) {
  return (x << k) | (x >>> (32 - k));
}

/**
 * A small seeded generator (xoshiro128**, seeded by splitmix64 from
 * seed * 31 + stream, exact for integer seeds below 2^53 and for BigInt
 * seeds). ctx.random() of a game is new Random(hello.seed, hello.seat), so
 * a bot's choices replay when the match is run with the same --seed.
 */
class Random {
  /**
   * @param {number|bigint} [seed] an integer (a Number below 2^53, or a BigInt)
   * @param {number|bigint} [stream] a second integer, e.g. the seat
   */
  constructor(seed = 0, stream = 0) {
    let s = BigInt.asUintN(64, toBigInt(seed) * 31n + toBigInt(stream));
    let a, b;
    [s, a] = splitmix64(s);
    [s, b] = splitmix64(s);
    /** @private */
    this.s = [Number(a & 0xffffffffn) | 0, Number(a >> 32n) | 0, Number(b & 0xffffffffn) | 0, Number(b >> 32n) | 0];
    if ((this.s[0] | this.s[1] | this.s[2] | this.s[3]) === 0) this.s[0] = 1;
  }

  /** @returns {number} the next 32 random bits, as an integer 0 .. 2^32-1 */
  uint32() {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }

  /** @returns {number} a float in [0, 1) with 53 random bits, like Math.random() */
  random() {
    const hi = this.uint32() >>> 5;
    const lo = this.uint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /**
   * @param {number} n a positive integer
   * @returns {number} an integer in 0 .. n-1
   */
  randomInt(n) {
    return Math.floor(this.random() * n);
  }

  /**
   * @template T
   * @param {T[]} items a non-empty array
   * @returns {T} one element, uniformly
   */
  choice(items) {
    return items[this.randomInt(items.length)];
  }

  /**
   * Shuffles items in place (Fisher-Yates) and returns it.
   * @template T
   * @param {T[]} items
   * @returns {T[]}
   */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.randomInt(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}

function toBigInt(x) {
  if (typeof x === 'bigint') return x;
  if (typeof x === 'number' && Number.isFinite(x)) return BigInt(Math.trunc(x));
  return 0n;
}

// ---------------------------------------------------------------------------
// Actions: equality with the legal list

function sameJSON(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJSON(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !sameJSON(a[k], b[k])) return false;
  return true;
}

/**
 * The index in legal of choice: choice itself if it is an integer in
 * range, else the position of the legal action equal to it (the same
 * object, or the same JSON, whatever the key order). Throws an Error that
 * says what is wrong otherwise.
 * @param {number|object} choice
 * @param {object[]} legal
 * @returns {number}
 */
function indexOf(choice, legal) {
  if (typeof choice === 'number') {
    if (Number.isInteger(choice) && choice >= 0 && choice < legal.length) return choice;
    throw new Error(`act returned index ${choice}, outside 0..${legal.length - 1} (${legal.length} legal actions)`);
  }
  if (choice !== null && typeof choice === 'object') {
    let i = legal.indexOf(choice);
    if (i >= 0) return i;
    // An action read by a helper (arenabot.banqi.board(view).actions(legal)...).
    if (choice.raw && typeof choice.raw === 'object') i = legal.indexOf(choice.raw);
    if (i >= 0) return i;
    for (i = 0; i < legal.length; i++) if (sameJSON(choice, legal[i])) return i;
    throw new Error(`act returned ${short(choice)}, which is not one of the ${legal.length} legal actions`);
  }
  throw new Error(`act returned ${choice === undefined ? 'undefined' : short(choice)}: return an index into legal (0..${legal.length - 1}) or one of its actions`);
}

function short(x) {
  let s;
  try {
    s = JSON.stringify(x);
  } catch (e) {
    s = String(x);
  }
  if (s === undefined) s = String(x);
  return s.length > 200 ? s.slice(0, 200) + '...' : s;
}

// ---------------------------------------------------------------------------
// The context

/**
 * @typedef {object} Clock
 * @property {number} [startup_ms]
 * @property {number} [move_ms]
 * @property {number} [base_ms]
 * @property {number} [inc_ms]
 * @property {number} [margin_ms]
 * @property {number} [bank_ms] in a turn's clock only
 */

/**
 * What a bot knows about the game besides the view: built from hello on
 * every game (a new Context per game), updated on every turn.
 */
class Context {
  /** @param {object} hello the raw hello message */
  constructor(hello, log) {
    /** @type {object} the raw hello message */
    this.hello = hello;
    /** @type {string} e.g. "banqi" */
    this.game = typeof hello.game === 'string' ? hello.game : '';
    /** @type {number} your seat, from 0 */
    this.seat = Number.isInteger(hello.seat) ? hello.seat : 0;
    /** @type {number} the number of seats */
    this.seats = Number.isInteger(hello.seats) ? hello.seats : 0;
    /** @type {string[]} the bot names by seat; players[seat] is you */
    this.players = Array.isArray(hello.players) ? hello.players : [];
    /** @type {Object<string, string>} the game's options as sent (values are strings) */
    this.options = hello.options && typeof hello.options === 'object' ? hello.options : {};
    /** @type {string} the match id */
    this.match = typeof hello.match === 'string' ? hello.match : '';
    /** @type {string} this game's id (also the name of its stderr log) */
    this.gameId = typeof hello.game_id === 'string' ? hello.game_id : '';
    /** @type {number} hello.seed (exact below 2^53) */
    this.seed = typeof hello.seed === 'number' ? hello.seed : 0;
    /** @type {Clock} the game's time limits (hello.clock) */
    this.clock = hello.clock && typeof hello.clock === 'object' ? hello.clock : {};
    /** @type {number} the id of the turn being answered (0 before the first) */
    this.turnId = 0;
    /** @type {object|null} the raw turn message being answered */
    this.turn = null;
    /** @type {Clock} the turn's clock (move_ms, bank_ms) */
    this.turnClock = {};
    /** @type {number} performance.now() when the turn line was read */
    this.received = 0;
    /** @type {number} performance.now() by which the move is due (margin excluded); Infinity without a limit */
    this.deadline = Infinity;
    /** @type {Random} the game's generator; ctx.random() and friends draw from it */
    this.rng = new Random(this.seed, this.seat);
    /** A place for your per-game state: a fresh object every game. */
    this.data = {};
    this._log = log;
    this._seen = []; // this game's turn views, as JSON text, for sample()
    this._observer = null; // a Promise of the game's Observer
    this._observerEngine = null;
    this._fed = 0;
  }

  /** @returns {number} a float in [0, 1) from the game's seeded generator */
  random() {
    return this.rng.random();
  }

  /**
   * @param {number} n
   * @returns {number} an integer in 0 .. n-1 from the game's seeded generator
   */
  randomInt(n) {
    return this.rng.randomInt(n);
  }

  /**
   * @template T
   * @param {T[]} items
   * @returns {T}
   */
  choice(items) {
    return this.rng.choice(items);
  }

  /**
   * @template T
   * @param {T[]} items
   * @returns {T[]} items, shuffled in place
   */
  shuffle(items) {
    return this.rng.shuffle(items);
  }

  /**
   * Milliseconds left for this move: the turn's move_ms (or bank_ms)
   * counted from the moment its line was read, margin excluded; Infinity
   * without a limit. Aim to answer by about 80-90% of it.
   * @returns {number}
   */
  timeLeft() {
    return Math.max(0, this.deadline - performance.now());
  }

  /** Writes its arguments to stderr, as console.error does (never stdout). */
  log(...args) {
    this._log(...args);
  }

  /** @returns {Engine} the bot process's rules engine (Engine.shared()): started on first use, kept across games; its CPU time is the bot's */
  engine() {
    return Engine.shared();
  }

  /** @returns {Game} a Game of this game's rules: its name, seats and options */
  gameRules() {
    return new Game(this.game, this.seats, this.options, this.engine());
  }

  /**
   * A State of this game consistent with every view this bot has been sent
   * in it, the hidden cards dealt at random among those that fit. The first
   * call of a game starts the engine if need be and an observer fed every
   * view so far; later calls feed only the new views, in the same line as
   * the sample. Make act async and await it.
   * @param {number|bigint} [seed] default: from the game's generator
   * @returns {Promise<State>}
   */
  sample(seed = undefined) {
    if (seed === undefined) seed = this.rng.uint32() * 2097152 + (this.rng.uint32() >>> 11);
    return sampleFor(this, seed);
  }

  _startTurn(msg, received) {
    this._seen.push(JSON.stringify(msg.view === undefined ? null : msg.view));
    this.turn = msg;
    this.turnId = msg.id;
    this.turnClock = msg.clock && typeof msg.clock === 'object' ? msg.clock : {};
    this.received = received;
    let ms = this.turnClock.move_ms;
    if (typeof ms !== 'number') ms = this.turnClock.bank_ms;
    if (typeof ms !== 'number') ms = this.clock.move_ms;
    this.deadline = typeof ms === 'number' ? received + ms : Infinity;
  }
}

// ---------------------------------------------------------------------------
// The protocol loop

class Refusal extends Error {}

/**
 * Throw the result of refuse(message) from start(ctx) to decline a game:
 * the SDK answers hello with {"type":"error","message":message} and exits,
 * as the protocol asks (the game is a forfeit).
 * @param {string} message
 * @returns {Error}
 */
function refuse(message) {
  return new Refusal(message);
}

function errText(e) {
  if (e instanceof Error) return e.stack || String(e);
  return 'non-Error value thrown: ' + short(e);
}

/**
 * @typedef {object} Result what end(result, ctx) is given
 * @property {string} gameId
 * @property {number[]} ranks per seat, 1 is best, equal ranks tie
 * @property {number[]} scores per seat, in the game's own units
 * @property {number} rank your rank (ranks[seat])
 * @property {number} score your score (scores[seat])
 * @property {string} reason why the game ended
 * @property {string[]} forfeits "seat N: reason" per forfeit ([] if none)
 * @property {object|null} view your view of the final position
 * @property {object} raw the end message
 */

/**
 * @callback ActFn
 * @param {object} view the turn's view (the game's own JSON)
 * @param {object[]} legal the legal actions (never empty)
 * @param {Context} ctx
 * @returns {number|object|Array|Promise<number|object|Array>} an index into legal, or one of its actions; or [that, note] to say something with the move (a string or an object, docs/protocol.md)
 */

/**
 * @typedef {object} Bot
 * @property {ActFn} act
 * @property {(ctx: Context) => (void|Promise<void>)} [start] called on every hello, before ready; throw refuse(msg) to decline the game
 * @property {(result: Result, ctx: Context) => (void|Promise<void>)} [end] called on every end
 * @property {string} [name] sent in ready
 * @property {string} [version] sent in ready
 * @property {string[]} [games] the games the bot plays; any other is refused
 */

/**
 * @typedef {object} RunOptions
 * @property {string} [name] sent in ready (default: bot.name, or the script's name)
 * @property {string} [version] sent in ready
 * @property {string[]} [games] the games the bot plays; a hello for another is refused
 * @property {boolean} [keepConsole] leave console.log on stdout (by default run() sends console.log, info and debug to stderr, since stdout carries protocol lines only)
 * @property {NodeJS.ReadableStream} [input] default process.stdin
 * @property {NodeJS.WritableStream} [output] default process.stdout
 */

/**
 * Runs a bot until bye or end of input, then exits the process (status 0;
 * 1 after refusing a game).
 * @param {ActFn|Bot} bot
 * @param {RunOptions} [options]
 */
function run(bot, options = {}) {
  if (typeof bot === 'function') bot = { act: bot };
  if (!bot || typeof bot.act !== 'function') throw new TypeError('arenabot.run: give a function act(view, legal, ctx) or an object with an act method');
  const input = options.input || process.stdin;
  const output = options.output || process.stdout;
  const errOut = process.stderr;
  const write = output.write.bind(output);
  const log = (...args) => {
    const text = args.map((a) => (typeof a === 'string' ? a : require('util').inspect(a, { depth: 6 }))).join(' ');
    errOut.write(text + '\n');
  };
  if (!options.keepConsole && output === process.stdout) {
    // stdout carries protocol lines only: a stray console.log would be read
    // as the bot's answer (bad_message).
    console.log = console.error;
    console.info = console.error;
    console.debug = console.error;
  }
  const name = options.name || bot.name || scriptName();
  const version = options.version || bot.version || VERSION;
  const games = options.games || bot.games || null;

  let ctx = null;
  let fallbackRng = new Random(0, 0x66616c6c);
  let exiting = false;
  const queue = [];
  let busy = false;
  let eof = false;

  const send = (msg) => {
    if (!exiting) write(JSON.stringify(msg) + '\n');
  };
  const exit = (code) => {
    if (exiting) return;
    exiting = true;
    // An empty write's callback runs once everything before it is flushed.
    const done = () => process.exit(code);
    try {
      output.write('', done);
    } catch (e) {
      done();
    }
    setTimeout(done, 500).unref();
  };
  if (output.on) output.on('error', () => process.exit(0));

  const fallback = (why, legal, extra) => {
    const k = legal.length > 0 ? fallbackRng.randomInt(legal.length) : 0;
    const where = ctx && ctx.gameId ? `game ${ctx.gameId} ` : '';
    errOut.write(`arenabot: ${where}turn id ${ctx ? ctx.turnId : '?'}: ${why}\n` + (extra ? extra + '\n' : '') + `arenabot: playing the fallback legal[${k}] ${short(legal[k])} instead\n`);
    return k;
  };

  // noteOk: whether act's note (return [action, note]) can go with the
  // move: a string or an object that JSON.stringify encodes as one. The
  // referee keeps at most 1 KiB of its JSON and records why it drops one
  // (docs/protocol.md); a note that cannot be sent at all is left out
  // here, with a line on stderr.
  const noteOk = (note, id) => {
    if (note === undefined || note === null) return false;
    let why = null;
    if (typeof note !== 'string' && (typeof note !== 'object' || Array.isArray(note))) {
      why = `a note is a string or an object, not ${Array.isArray(note) ? 'an array' : typeof note}`;
    } else {
      try {
        const s = JSON.stringify(note);
        if (typeof s !== 'string' || (s[0] !== '"' && s[0] !== '{')) why = 'it does not encode as a JSON string or object';
      } catch (e) {
        why = `it does not encode as JSON (${e.message})`;
      }
    }
    if (why) errOut.write(`arenabot: ${ctx && ctx.gameId ? `game ${ctx.gameId} ` : ''}turn id ${id}: note not sent: ${why}\n`);
    return why === null;
  };

  function onHello(msg) {
    if (msg.protocol !== PROTOCOL) {
      send({ type: 'error', message: `unsupported protocol version ${short(msg.protocol)} (this bot speaks ${PROTOCOL})` });
      exit(1);
      return undefined;
    }
    if (games && !games.includes(msg.game)) {
      send({ type: 'error', message: `this bot only plays ${games.join(', ')}, not ${short(msg.game)}` });
      exit(1);
      return undefined;
    }
    ctx = new Context(msg, log);
    fallbackRng = new Random(ctx.seed, 0x66616c6c + ctx.seat);
    const ready = () => send({ type: 'ready', name, version });
    const failed = (e) => {
      if (e instanceof Refusal) {
        send({ type: 'error', message: e.message });
        exit(1);
        return;
      }
      errOut.write(`arenabot: game ${ctx.gameId}: start threw (the game goes on):\n${errText(e)}\n`);
      ready();
    };
    if (typeof bot.start !== 'function') return ready();
    let r;
    try {
      r = bot.start(ctx);
    } catch (e) {
      return failed(e);
    }
    if (r && typeof r.then === 'function') return r.then(ready, failed);
    return ready();
  }

  function onTurn(msg, received) {
    if (!ctx) ctx = new Context({}, log);
    ctx._startTurn(msg, received);
    const legal = Array.isArray(msg.legal) ? msg.legal : [];
    const id = msg.id;
    const answer = (k, note) => send(noteOk(note, id) ? { type: 'action', id, index: k, note } : { type: 'action', id, index: k });
    const settle = (choice) => {
      let k, note;
      if (Array.isArray(choice) && choice.length === 2) [choice, note] = choice; // return [action, note]
      try {
        k = indexOf(choice, legal);
      } catch (e) {
        k = fallback(e.message, legal);
      }
      answer(k, note);
    };
    let r;
    try {
      r = bot.act(msg.view, legal, ctx);
    } catch (e) {
      return answer(fallback('act threw:', legal, errText(e)));
    }
    if (!r || typeof r.then !== 'function') return settle(r);
    // A promise: answer when it settles, or with a fallback just before
    // the deadline if it has not by then.
    const turnCtx = ctx;
    return new Promise((resolve) => {
      let done = false;
      let timer = null;
      const finish = (fn) => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        fn();
        resolve();
      };
      const left = turnCtx.timeLeft();
      if (left <= 2147483647) {
        const guard = Math.max(0, left - Math.min(50, Math.max(5, left * 0.1)));
        timer = setTimeout(() => finish(() => answer(fallback(`act's promise did not settle within ${Math.round(guard)} ms of the turn's ${Math.round(left)}`, legal))), guard);
      }
      r.then(
        (v) => finish(() => settle(v)),
        (e) => finish(() => answer(fallback('act rejected:', legal, errText(e))))
      );
    });
  }

  function onEnd(msg) {
    if (!ctx || typeof bot.end !== 'function') return undefined;
    const ranks = Array.isArray(msg.ranks) ? msg.ranks : [];
    const scores = Array.isArray(msg.scores) ? msg.scores : [];
    const result = {
      gameId: typeof msg.game_id === 'string' ? msg.game_id : ctx.gameId,
      ranks,
      scores,
      rank: ranks[ctx.seat],
      score: scores[ctx.seat],
      reason: typeof msg.reason === 'string' ? msg.reason : '',
      forfeits: Array.isArray(msg.forfeits) ? msg.forfeits : [],
      view: msg.view === undefined ? null : msg.view,
      raw: msg,
    };
    const failed = (e) => errOut.write(`arenabot: game ${ctx.gameId}: end threw:\n${errText(e)}\n`);
    try {
      const r = bot.end(result, ctx);
      if (r && typeof r.then === 'function') return r.then(undefined, failed);
    } catch (e) {
      failed(e);
    }
    return undefined;
  }

  function handle(line, received) {
    if (line.trim() === '') return undefined;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      errOut.write(`arenabot: ignoring a line that is not JSON: ${short(line)}\n`);
      return undefined;
    }
    if (!msg || typeof msg !== 'object') return undefined;
    switch (msg.type) {
      case 'hello':
        return onHello(msg);
      case 'turn':
        return onTurn(msg, received);
      case 'end':
        return onEnd(msg);
      case 'bye':
        exit(0);
        return undefined;
      default:
        return undefined; // unknown message types are ignored
    }
  }

  function pump() {
    while (!busy && !exiting && queue.length > 0) {
      const [line, received] = queue.shift();
      const r = handle(line, received);
      if (r && typeof r.then === 'function') {
        busy = true;
        r.then(
          () => {
            busy = false;
            pump();
          },
          (e) => {
            errOut.write(`arenabot: internal error: ${errText(e)}\n`);
            busy = false;
            pump();
          }
        );
      }
    }
    if (eof && !busy && queue.length === 0) exit(0);
  }

  let pending = '';
  if (input.setEncoding) input.setEncoding('utf8');
  input.on('data', (chunk) => {
    const received = performance.now();
    pending += chunk;
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      let line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      queue.push([line, received]);
    }
    pump();
  });
  input.on('end', () => {
    if (pending !== '') queue.push([pending, performance.now()]);
    pending = '';
    eof = true;
    pump();
  });
  input.on('error', () => {
    eof = true;
    pump();
  });
}

// The name sent in ready by default: the script's, or its directory's for
// a kit's bot.js (mybot/bot.js is "mybot").
function scriptName() {
  const path = require('path');
  const main = require.main && require.main.filename ? require.main.filename : process.argv[1] || 'bot';
  const base = path.basename(main).replace(/\.[cm]?js$/, '');
  if (base === 'bot' || base === 'index' || base === 'main') return path.basename(path.dirname(main)) || base;
  return base || 'bot';
}

// ---------------------------------------------------------------------------
// Banqi

/**
 * @typedef {'king'|'guard'|'minister'|'rook'|'knight'|'cannon'|'pawn'} BanqiKind
 * @typedef {'red'|'black'} BanqiColour
 */

/**
 * The seven kinds, strongest first, with the board letter (red upper case,
 * black lower case), the English name, the count per side and the rank
 * under each rule set (7 high).
 */
const BANQI_KINDS = [
  { letter: 'K', kind: 'king', name: 'King', count: 1, taiwan: 7, hk: 7 },
  { letter: 'G', kind: 'guard', name: 'Guard', count: 2, taiwan: 6, hk: 3 },
  { letter: 'M', kind: 'minister', name: 'Minister', count: 2, taiwan: 5, hk: 2 },
  { letter: 'R', kind: 'rook', name: 'Rook', count: 2, taiwan: 4, hk: 6 },
  { letter: 'N', kind: 'knight', name: 'Knight', count: 2, taiwan: 3, hk: 5 },
  { letter: 'C', kind: 'cannon', name: 'Cannon', count: 2, taiwan: 2, hk: 4 },
  { letter: 'P', kind: 'pawn', name: 'Pawn', count: 5, taiwan: 1, hk: 1 },
];
const BANQI_BY_LETTER = {};
const BANQI_BY_KIND = {};
for (const k of BANQI_KINDS) {
  BANQI_BY_LETTER[k.letter] = k;
  BANQI_BY_KIND[k.kind] = k;
}

/** Square names in index order: a8 b8 c8 d8 a7 ... d1 (index (8-row)*4 + col). */
const BANQI_SQUARES = [];
for (let i = 0; i < 32; i++) BANQI_SQUARES.push('abcd'[i % 4] + String(8 - Math.floor(i / 4)));

/**
 * @param {string|number} sq a square name ("b3") or index (0..31)
 * @returns {number} its index, or -1 for no square
 */
function banqiIndex(sq) {
  if (typeof sq === 'number') return Number.isInteger(sq) && sq >= 0 && sq < 32 ? sq : -1;
  if (typeof sq !== 'string' || sq.length !== 2) return -1;
  const c = 'abcd'.indexOf(sq[0]);
  const r = '12345678'.indexOf(sq[1]);
  return c < 0 || r < 0 ? -1 : (7 - r) * 4 + c;
}

/**
 * @typedef {object} BanqiPiece what a square holds
 * @property {string} square its name, "a1".."d8" ('' for a piece off the board)
 * @property {number} index its index, 0 (a8) .. 31 (d1); -1 off the board
 * @property {string} file "a".."d"
 * @property {number} row 1..8
 * @property {string} letter K G M R N C P (red), k g m r n c p (black), X face down, - empty
 * @property {boolean} empty
 * @property {boolean} faceDown
 * @property {boolean} up a face-up piece
 * @property {BanqiColour|null} colour of a face-up piece
 * @property {BanqiKind|null} kind of a face-up piece
 * @property {string|null} name "King", "Guard", ... of a face-up piece
 */

function banqiPiece(letter, index) {
  const square = index >= 0 ? BANQI_SQUARES[index] : '';
  const info = BANQI_BY_LETTER[letter.toUpperCase()];
  const up = letter !== 'X' && letter !== '-' && info !== undefined;
  return Object.freeze({
    square,
    index,
    file: square ? square[0] : '',
    row: square ? Number(square[1]) : 0,
    letter,
    empty: letter === '-',
    faceDown: letter === 'X',
    up,
    colour: up ? (letter === info.letter ? 'red' : 'black') : null,
    kind: up ? info.kind : null,
    name: up ? info.name : null,
  });
}

/**
 * May a piece of kind attacker capture an enemy of kind target under
 * ranks ("taiwan" or "hk"), given the geometry (adjacent; a Taiwanese
 * cannon only by jumping one screen)?
 * @param {BanqiKind} attacker
 * @param {BanqiKind} target
 * @param {string} [ranks]
 * @returns {boolean}
 */
function banqiCanTake(attacker, target, ranks = 'taiwan') {
  const a = BANQI_BY_KIND[attacker];
  const t = BANQI_BY_KIND[target];
  if (!a || !t) return false;
  if (a.kind === 'king' && t.kind === 'pawn') return false;
  if (a.kind === 'pawn' && t.kind === 'king') return true;
  if (ranks !== 'hk' && a.kind === 'cannon') return true;
  const key = ranks === 'hk' ? 'hk' : 'taiwan';
  return a[key] >= t[key];
}

/**
 * The orthogonal neighbours of a square (up, left, right, down, those on
 * the board).
 * @param {string|number} sq
 * @returns {string[]}
 */
function banqiNeighbours(sq) {
  const i = banqiIndex(sq);
  if (i < 0) return [];
  const out = [];
  const r = Math.floor(i / 4);
  const c = i % 4;
  if (r > 0) out.push(BANQI_SQUARES[i - 4]);
  if (c > 0) out.push(BANQI_SQUARES[i - 1]);
  if (c < 3) out.push(BANQI_SQUARES[i + 1]);
  if (r < 7) out.push(BANQI_SQUARES[i + 4]);
  return out;
}

function lettersToPieces(s) {
  return typeof s === 'string' ? Array.from(s, (l) => banqiPiece(l, -1)) : [];
}

/**
 * @typedef {object} BanqiAction a legal action with the pieces it concerns
 * @property {'flip'|'move'|'capture'|'stop'} type
 * @property {string|null} square the flipped square (flip)
 * @property {string|null} from
 * @property {string|null} to
 * @property {BanqiPiece|null} piece the piece on from (move, capture) or the flipped face-down square
 * @property {BanqiPiece|null} target the piece on to (capture: the victim; move: the empty square)
 * @property {number} index its position in legal (-1 if not from a list)
 * @property {object} raw the action object itself
 */

/** A Banqi view, read: see arenabot.banqi.board(view). */
class BanqiBoard {
  /** @param {object} view a Banqi turn or end view */
  constructor(view) {
    const rows = Array.isArray(view.board) ? view.board : [];
    /** @type {BanqiPiece[]} the 32 squares in index order, a8 b8 c8 d8 a7 ... d1 */
    this.squares = [];
    for (let i = 0; i < 32; i++) {
      const row = rows[Math.floor(i / 4)];
      const l = typeof row === 'string' && row.length > i % 4 ? row[i % 4] : '-';
      this.squares.push(banqiPiece(l, i));
    }
    /** @type {object} the raw view */
    this.view = view;
    const you = view.you && typeof view.you === 'object' ? view.you : null;
    /** @type {number} your seat (-1 in a spectator view) */
    this.seat = you && Number.isInteger(you.seat) ? you.seat : -1;
    /** @type {BanqiColour|null} your colour, null before the first flip */
    this.myColour = you && you.colour ? you.colour : null;
    /** @type {(BanqiColour|null)[]} colour per seat */
    this.colours = Array.isArray(view.colours) ? view.colours : [null, null];
    /** @type {number} the seat to act */
    this.toMove = Number.isInteger(view.to_move) ? view.to_move : 0;
    /** @type {BanqiColour|null} the colour to act (null before the first flip) */
    this.sideToMove = this.colours[this.toMove] || null;
    /** @type {BanqiColour|null} the other colour than yours */
    this.theirColour = this.myColour === 'red' ? 'black' : this.myColour === 'black' ? 'red' : null;
    /** @type {string|null} the square of the piece that must capture again or stop */
    this.chain = typeof view.chain === 'string' ? view.chain : null;
    /** @type {{red: BanqiPiece[], black: BanqiPiece[]}} captured pieces per colour (off the board) */
    this.captured = { red: lettersToPieces(view.captured && view.captured.red), black: lettersToPieces(view.captured && view.captured.black) };
    /** @type {{red: BanqiPiece[], black: BanqiPiece[]}} the pieces still face down per colour (which square holds which is unknown) */
    this.hidden = { red: lettersToPieces(view.facedown && view.facedown.red), black: lettersToPieces(view.facedown && view.facedown.black) };
    /** @type {number} */
    this.ply = view.ply | 0;
    /** @type {number} */
    this.pliesSinceProgress = view.plies_since_progress | 0;
    /** @type {number} */
    this.repeats = view.repeats | 0;
    /** @type {string|null} the last action with what it revealed ("b3(K)", "b3-b4") */
    this.last = typeof view.last === 'string' ? view.last : null;
    /** @type {'taiwan'|'hk'} */
    this.ranks = view.ranks === 'hk' ? 'hk' : 'taiwan';
  }

  /**
   * @param {string|number} sq "b3" or 0..31
   * @returns {BanqiPiece|null} what the square holds (null for no square)
   */
  pieceAt(sq) {
    const i = banqiIndex(sq);
    return i < 0 ? null : this.squares[i];
  }

  /** Same as pieceAt. */
  at(sq) {
    return this.pieceAt(sq);
  }

  /**
   * The face-up pieces, optionally only those of a colour and/or kind.
   * @param {{colour?: BanqiColour|null, kind?: BanqiKind}} [filter]
   * @returns {BanqiPiece[]}
   */
  pieces(filter = {}) {
    return this.squares.filter((p) => p.up && (filter.colour === undefined || p.colour === filter.colour) && (filter.kind === undefined || p.kind === filter.kind));
  }

  /** @returns {BanqiPiece[]} your face-up pieces ([] before the first flip) */
  mine() {
    return this.myColour ? this.pieces({ colour: this.myColour }) : [];
  }

  /** @returns {BanqiPiece[]} the opponent's face-up pieces */
  theirs() {
    return this.theirColour ? this.pieces({ colour: this.theirColour }) : [];
  }

  /** @returns {BanqiPiece[]} the face-down squares */
  faceDown() {
    return this.squares.filter((p) => p.faceDown);
  }

  /** @returns {BanqiPiece[]} the empty squares */
  empty() {
    return this.squares.filter((p) => p.empty);
  }

  /**
   * @param {string|number} sq
   * @returns {BanqiPiece[]} the squares next to sq
   */
  neighbours(sq) {
    return banqiNeighbours(sq).map((n) => this.pieceAt(n));
  }

  /**
   * Reads a legal action with the pieces it concerns.
   * @param {object} action one of legal
   * @param {number} [index]
   * @returns {BanqiAction}
   */
  describe(action, index = -1) {
    const a = action || {};
    const type = a.type;
    const square = type === 'flip' ? a.square : null;
    const from = type === 'move' || type === 'capture' ? a.from : null;
    const to = type === 'move' || type === 'capture' ? a.to : null;
    return {
      type,
      square: square || null,
      from: from || null,
      to: to || null,
      piece: square ? this.pieceAt(square) : from ? this.pieceAt(from) : null,
      target: to ? this.pieceAt(to) : null,
      index,
      raw: action,
    };
  }

  /**
   * @param {object[]} legal
   * @returns {BanqiAction[]} every legal action, read (index = its position)
   */
  actions(legal) {
    return legal.map((a, i) => this.describe(a, i));
  }

  /** @returns {string} the board as text, row 8 at the top */
  toString() {
    let s = '    a b c d\n';
    for (let r = 0; r < 8; r++) s += `${8 - r}   ` + this.squares.slice(r * 4, r * 4 + 4).map((p) => p.letter).join(' ') + `   ${8 - r}\n`;
    return s + '    a b c d';
  }
}

const banqi = {
  KINDS: BANQI_KINDS,
  SQUARES: BANQI_SQUARES,
  /**
   * Reads a Banqi view.
   * @param {object} view
   * @returns {BanqiBoard}
   */
  board: (view) => new BanqiBoard(view),
  /**
   * The kind, name and colour of a board letter.
   * @param {string} letter
   * @returns {BanqiPiece}
   */
  piece: (letter) => banqiPiece(letter, -1),
  index: banqiIndex,
  /**
   * @param {number} index 0..31
   * @returns {string} "a8".."d1"
   */
  square: (index) => BANQI_SQUARES[index] || '',
  neighbours: banqiNeighbours,
  canTake: banqiCanTake,
  Board: BanqiBoard,
};

// ---------------------------------------------------------------------------
// Uno and Bounce

/**
 * @typedef {'red'|'yellow'|'green'|'blue'} UnoColour
 * @typedef {'number'|'skip'|'reverse'|'draw_two'|'wild'|'wild_draw_four'} UnoKind
 * @typedef {object} UnoCard
 * @property {string} code "R7", "GS", "BR", "YD2", "W", "WD4"
 * @property {UnoColour|null} colour null for wilds
 * @property {UnoKind} kind
 * @property {number|null} value 0-9 for numbers, else null
 * @property {string} face "0".."9", "S", "R", "D2", "W", "WD4"
 * @property {boolean} wild
 * @property {number} points the card's scoring value: face value, 20 for Skip/Reverse/Draw Two, 50 for wilds
 */

const UNO_COLOURS = ['red', 'yellow', 'green', 'blue'];
const UNO_LETTERS = { R: 'red', Y: 'yellow', G: 'green', B: 'blue' };
const unoCache = new Map();

/**
 * Reads an Uno card code.
 * @param {string} code
 * @returns {UnoCard|null} null for no card
 */
function unoCard(code) {
  if (typeof code !== 'string') return null;
  let c = unoCache.get(code);
  if (c) return c;
  let colour = null;
  let kind;
  let value = null;
  let face;
  let points;
  if (code === 'W' || code === 'WD4') {
    kind = code === 'W' ? 'wild' : 'wild_draw_four';
    face = code;
    points = 50;
  } else {
    colour = UNO_LETTERS[code[0]];
    face = code.slice(1);
    if (!colour) return null;
    if (/^[0-9]$/.test(face)) {
      kind = 'number';
      value = Number(face);
      points = value;
    } else if (face === 'S' || face === 'R' || face === 'D2') {
      kind = face === 'S' ? 'skip' : face === 'R' ? 'reverse' : 'draw_two';
      points = 20;
    } else {
      return null;
    }
  }
  c = Object.freeze({ code, colour, kind, value, face, wild: colour === null, points });
  unoCache.set(code, c);
  return c;
}

/**
 * @typedef {object} UnoAction a legal action, read
 * @property {'play'|'draw'|'keep'|'pass'|'challenge'|'accept'|'jump'|'catch'|'colour'} type
 * @property {UnoCard|null} card the card played (play, jump)
 * @property {UnoColour|null} colour the colour a wild names, or the colour action's
 * @property {number|null} target seven_zero: the seat a 7 swaps hands with
 * @property {boolean} uno the play carries the one-card call
 * @property {number} index its position in legal (-1 if not from a list)
 * @property {object} raw the action object itself
 */

/**
 * @param {object} action
 * @param {number} [index]
 * @returns {UnoAction}
 */
function unoAction(action, index = -1) {
  const a = action || {};
  return {
    type: a.type,
    card: a.card !== undefined ? unoCard(a.card) : null,
    colour: typeof a.colour === 'string' ? a.colour : null,
    target: Number.isInteger(a.target) ? a.target : null,
    uno: a.uno === true,
    index,
    raw: action,
  };
}

/** An Uno or Bounce view, read: see arenabot.uno.table(view). */
class UnoTable {
  /** @param {object} view an Uno or Bounce view */
  constructor(view) {
    /** @type {object} the raw view */
    this.view = view;
    /** @type {number} your seat (-1 for a spectator) */
    this.seat = Number.isInteger(view.you) ? view.you : -1;
    /** @type {UnoCard[]} your cards, in card order */
    this.hand = (Array.isArray(view.hand) ? view.hand : []).map(unoCard);
    /** @type {UnoCard|null} the top card of the discard pile */
    this.top = unoCard(view.top);
    /** @type {UnoColour|null} the active colour (null until a starting Wild's colour is named) */
    this.colour = typeof view.colour === 'string' ? view.colour : null;
    /** @type {1|-1} 1 clockwise (seat+1 plays next), -1 counter-clockwise */
    this.direction = view.direction === -1 ? -1 : 1;
    /** @type {number} */
    this.dealer = view.dealer | 0;
    /** @type {number} the hand's number, from 1 */
    this.handNo = view.hand_no | 0;
    /** @type {number} the seat deciding now */
    this.toMove = view.to_move | 0;
    /** @type {number[]} every seat's number of cards */
    this.counts = Array.isArray(view.counts) ? view.counts : [];
    /** @type {{seat: number, count: number}[]} the other seats' hand sizes, in seat order */
    this.others = this.counts.map((count, seat) => ({ seat, count })).filter((o) => o.seat !== this.seat);
    /** @type {number[]} every seat's total score */
    this.scores = Array.isArray(view.scores) ? view.scores : [];
    /** @type {number[]} seats out of this hand, in order */
    this.finished = Array.isArray(view.finished) ? view.finished : [];
    /** @type {number} cards in the draw pile */
    this.drawPile = view.draw_pile | 0;
    /** @type {UnoCard[]} the discard pile, bottom first, since the last reshuffle */
    this.discard = (Array.isArray(view.discard) ? view.discard : []).map(unoCard);
    /** @type {object[]} what happened since your previous decision (the game's JSON) */
    this.events = Array.isArray(view.events) ? view.events : [];
    const d = view.decision && typeof view.decision === 'object' ? view.decision : null;
    /**
     * What you are asked now, or null.
     * @type {{kind: string, card: UnoCard|null, pending: number, challenge: boolean, from: number|null, prevColour: string|null, catch: number|null}|null}
     */
    this.decision = d
      ? {
          kind: d.kind,
          card: d.card !== undefined ? unoCard(d.card) : null,
          pending: d.pending | 0,
          challenge: d.challenge === true,
          from: Number.isInteger(d.from) ? d.from : null,
          prevColour: typeof d.prev_colour === 'string' ? d.prev_colour : null,
          catch: Number.isInteger(d.catch) ? d.catch : null,
        }
      : null;
    /** @type {object[]} the finished hands */
    this.hands = Array.isArray(view.hands) ? view.hands : [];
    /** @type {number} actions every seat has seen so far */
    this.actions = view.actions | 0;
    /** @type {boolean} */
    this.over = view.over === true;
    /** @type {object} every resolved option, typed (booleans and numbers) */
    this.rules = view.rules && typeof view.rules === 'object' ? view.rules : {};
  }

  /** @returns {number} the seat that plays after the seat to move, by the direction (ignores skips and seats out) */
  nextSeat() {
    const n = this.counts.length || 1;
    return (((this.toMove + this.direction) % n) + n) % n;
  }

  /**
   * Your cards of a colour.
   * @param {UnoColour} colour
   * @returns {UnoCard[]}
   */
  cardsOf(colour) {
    return this.hand.filter((c) => c.colour === colour);
  }

  /**
   * @param {object[]} legal
   * @returns {UnoAction[]} every legal action, read (index = its position)
   */
  actionsOf(legal) {
    return legal.map(unoAction);
  }
}

const uno = {
  COLOURS: UNO_COLOURS,
  card: unoCard,
  action: unoAction,
  /**
   * Reads an Uno or Bounce view.
   * @param {object} view
   * @returns {UnoTable}
   */
  table: (view) => new UnoTable(view),
  /**
   * @param {object[]} legal
   * @returns {UnoAction[]}
   */
  actions: (legal) => legal.map(unoAction),
  Table: UnoTable,
};

// ---------------------------------------------------------------------------
// Boon

/**
 * @typedef {'blue'|'green'|'red'|'gold'} BoonSuit
 * @typedef {object} BoonCard
 * @property {string} code "B5", "G1", "R6", "Au14"
 * @property {BoonSuit} suit
 * @property {'B'|'G'|'R'|'Au'} suitCode
 * @property {number} rank 1-6 (Gold 1-14)
 * @property {number} points the card's points (the deck holds 120)
 * @property {boolean} trump a Gold
 */

const BOON_SUITS = { B: 'blue', G: 'green', R: 'red', Au: 'gold' };
const BOON_POINTS = [0, 0, 0, 0, 4, 10, 11, 2, 2, 2, 2, 3, 3, 3, 3];
const boonCache = new Map();

/**
 * Reads a Boon card code.
 * @param {string} code
 * @returns {BoonCard|null}
 */
function boonCard(code) {
  if (typeof code !== 'string') return null;
  let c = boonCache.get(code);
  if (c) return c;
  const suitCode = code.startsWith('Au') ? 'Au' : code[0];
  const suit = BOON_SUITS[suitCode];
  const rank = Number(code.slice(suitCode.length));
  if (!suit || !Number.isInteger(rank) || rank < 1 || rank > (suit === 'gold' ? 14 : 6)) return null;
  c = Object.freeze({ code, suit, suitCode, rank, points: BOON_POINTS[rank], trump: suit === 'gold' });
  boonCache.set(code, c);
  return c;
}

/**
 * Does card beat best, the card winning the trick so far? (A Gold beats
 * any plain card and a lower Gold; a plain card beats only a lower card of
 * its own suit.)
 * @param {BoonCard|string} card
 * @param {BoonCard|string|null} best
 * @returns {boolean}
 */
function boonBeats(card, best) {
  const c = typeof card === 'string' ? boonCard(card) : card;
  const b = typeof best === 'string' ? boonCard(best) : best;
  if (!b) return true;
  if (c.trump !== b.trump) return c.trump;
  return c.suit === b.suit && c.rank > b.rank;
}

/**
 * @param {(BoonCard|string)[]} cards
 * @returns {number} their points
 */
function boonPoints(cards) {
  let n = 0;
  for (const x of cards) n += (typeof x === 'string' ? boonCard(x) : x).points;
  return n;
}

/**
 * @typedef {object} BoonTrick
 * @property {number} leader
 * @property {''|'B'|'G'|'R'|'Au'} led the suit code of the first card
 * @property {BoonSuit|null} ledSuit
 * @property {{seat: number, card: BoonCard}[]} cards in play order from the leader
 * @property {number} winner the seat winning (or that won), -1 if empty
 * @property {BoonCard|null} winningCard
 * @property {number} points
 */

function boonTrick(t, seats) {
  const raw = t && typeof t === 'object' ? t : {};
  const leader = raw.leader | 0;
  const cards = (Array.isArray(raw.cards) ? raw.cards : []).map((code, i) => ({ seat: seats > 0 ? (leader + i) % seats : i, card: boonCard(code) }));
  const winner = Number.isInteger(raw.winner) ? raw.winner : -1;
  const w = cards.find((c) => c.seat === winner);
  return {
    leader,
    led: typeof raw.led === 'string' ? raw.led : '',
    ledSuit: BOON_SUITS[raw.led] || null,
    cards,
    winner,
    winningCard: w ? w.card : null,
    points: raw.points | 0,
  };
}

/**
 * @typedef {object} BoonAction
 * @property {'take'|'pass'|'bury'|'play'} type
 * @property {BoonCard|null} card (bury, play)
 * @property {number} index its position in legal (-1 if not from a list)
 * @property {object} raw
 */

/**
 * @param {object} action
 * @param {number} [index]
 * @returns {BoonAction}
 */
function boonAction(action, index = -1) {
  const a = action || {};
  return { type: a.type, card: a.card !== undefined ? boonCard(a.card) : null, index, raw: action };
}

/** A Boon view, read: see arenabot.boon.table(view). */
class BoonTable {
  /** @param {object} view a Boon view */
  constructor(view) {
    const ints = (x) => (Array.isArray(x) ? x : []);
    const cards = (x) => (Array.isArray(x) ? x.map(boonCard) : null);
    /** @type {object} the raw view */
    this.view = view;
    /** @type {number} your seat (-1 for a spectator) */
    this.seat = Number.isInteger(view.seat) ? view.seat : -1;
    /** @type {number} */
    this.seats = view.seats | 0;
    /** @type {number} the deal's number, from 1 */
    this.round = view.round | 0;
    /** @type {number} */
    this.dealer = view.dealer | 0;
    /** @type {number[]} victory cards per seat */
    this.vc = ints(view.vc);
    /** @type {'pick'|'bury'|'play'|'over'} */
    this.phase = view.phase;
    /** @type {number} the seat deciding now, -1 once over */
    this.toMove = Number.isInteger(view.to_move) ? view.to_move : -1;
    /** @type {'take_or_pass'|'bury'|'play'|'wait'|'none'} what you are asked */
    this.decision = view.decision;
    /** @type {'pick'|'picker'|'least'|'redeal'} */
    this.mode = view.mode;
    /** @type {number} the picker's seat, -1 if none */
    this.picker = Number.isInteger(view.picker) ? view.picker : -1;
    /** @type {'undecided'|'picker'|'defender'|'self'|'none'} your side */
    this.team = view.team;
    /** @type {boolean} you are the picker */
    this.isPicker = this.picker >= 0 && this.picker === this.seat;
    /** @type {number[]} seats that passed this round, in order */
    this.passed = ints(view.passed);
    /** @type {BoonCard[]} your cards in sort order */
    this.hand = cards(view.hand) || [];
    /** @type {number[]} cards in each seat's hand */
    this.handSizes = ints(view.hand_sizes);
    /** @type {number} cards in the Boon */
    this.boonSize = view.boon_size | 0;
    /** @type {BoonCard[]|null} the Boon's cards (the picker's own view only) */
    this.boon = cards(view.boon);
    /** @type {BoonCard[]|null} the cards you buried (the picker's own view only) */
    this.buried = cards(view.buried);
    /** @type {number} cards the picker still has to bury */
    this.buryLeft = view.bury_left | 0;
    /** @type {number} */
    this.tricksPerRound = view.tricks_per_round | 0;
    /** @type {number} the current trick's number, from 1 */
    this.trickNo = view.trick_no | 0;
    /** @type {BoonTrick} the current trick */
    this.trick = boonTrick(view.trick, this.seats);
    /** @type {BoonTrick[]} this round's completed tricks */
    this.tricks = (Array.isArray(view.tricks) ? view.tricks : []).map((t) => boonTrick(t, this.seats));
    /** @type {number[]} points each seat took in tricks this round */
    this.trickPoints = ints(view.trick_points);
    /** @type {number[]} tricks each seat took this round */
    this.tricksWon = ints(view.tricks_won);
    /** @type {object[]} public events since your last decision (the game's JSON) */
    this.events = ints(view.events);
    /** @type {object|null} the last scored round (the game's JSON) */
    this.lastRound = view.last_round && typeof view.last_round === 'object' ? view.last_round : null;
  }

  /** @returns {boolean} you are to move */
  myTurn() {
    return this.seat >= 0 && this.toMove === this.seat;
  }

  /**
   * Would card win the current trick as it stands?
   * @param {BoonCard|string} card
   * @returns {boolean}
   */
  wouldWin(card) {
    return boonBeats(card, this.trick.winningCard);
  }

  /**
   * Your partners: the other defenders when you defend, [] otherwise.
   * @returns {number[]}
   */
  partners() {
    if (this.team !== 'defender') return [];
    const out = [];
    for (let s = 0; s < this.seats; s++) if (s !== this.seat && s !== this.picker) out.push(s);
    return out;
  }

  /**
   * @param {object[]} legal
   * @returns {BoonAction[]} every legal action, read (index = its position)
   */
  actionsOf(legal) {
    return legal.map(boonAction);
  }
}

const boon = {
  SUITS: BOON_SUITS,
  card: boonCard,
  beats: boonBeats,
  points: boonPoints,
  action: boonAction,
  /**
   * Reads a Boon view.
   * @param {object} view
   * @returns {BoonTable}
   */
  table: (view) => new BoonTable(view),
  /**
   * @param {object[]} legal
   * @returns {BoonAction[]}
   */
  actions: (legal) => legal.map(boonAction),
  Table: BoonTable,
};

// ---------------------------------------------------------------------------
// The rules engine: Game and State over `arena engine` (docs/engine.md)
//
// Every call is asynchronous (a Promise): the server is a child process
// whose answers arrive as 'data' events, and act may return a Promise, so
// a searching bot writes `async act(view, legal, ctx)` and awaits. (Node
// has no portable synchronous read of a child's pipe; a synchronous design
// would need fs.readSync on an undocumented file descriptor.)

/** The environment variable naming the arena executable (the referee's launcher sets it). */
const ENGINE_ENV = 'ARENA_ENGINE';
// Handles of garbage states wait until this many are due, then are freed
// in the same line as the next request.
const FREE_BATCH = 64;

/**
 * An error of the rules engine. code is the server's ("bad_request",
 * "unknown_game", "bad_options", "bad_seats", "no_handle", "illegal",
 * "game_over", "no_decision", "inconsistent", "no_sampler", "limit",
 * "internal") or the SDK's own "no_engine" (no arena executable) and
 * "engine_exited". Branch on code, never on message.
 */
class EngineError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {string} [op] the request's op
   */
  constructor(code, message, op) {
    super(`${code}: ${message}`);
    this.name = 'EngineError';
    /** @type {string} */
    this.code = code;
    /** @type {string} what was wrong and what to do */
    this.detail = message;
    /** @type {string|undefined} */
    this.op = op;
  }
}

function engineCommand() {
  let exe = process.env[ENGINE_ENV];
  if (!exe) {
    const path = require('path');
    const fs = require('fs');
    for (const dir of (process.env.PATH || '').split(path.delimiter)) {
      if (!dir) continue;
      const p = path.join(dir, 'arena');
      try {
        fs.accessSync(p, fs.constants.X_OK);
        if (!fs.statSync(p).isFile()) continue;
        exe = p;
        break;
      } catch (e) {
        // not here
      }
    }
  }
  if (!exe) throw new EngineError('no_engine', `no arena executable to run the rules engine: set ${ENGINE_ENV} to its path (the referee does for the bots it starts), or put arena on PATH`);
  return [exe, 'engine'];
}

// JSON with BigInt seeds written as plain integers.
function encodeLine(x) {
  return JSON.stringify(x, (k, v) => (typeof v === 'bigint' ? `\u0000big${v}` : v)).replace(/"\\u0000big(-?\d+)"/g, '$1');
}

function checkResult(res, op) {
  if (!res || typeof res !== 'object' || Array.isArray(res)) throw new EngineError('bad_request', `the engine answered ${short(res)}`, op);
  if (res.error) throw new EngineError(String(res.error.code || 'internal'), String(res.error.message || ''), op);
  delete res.id;
  return res;
}

const handleRegistry = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(({ engine, handle }) => engine._garbage.push(handle)) : null;

/**
 * One `arena engine` server process. Its CPU time is yours: inside a bot
 * it is the bot's child process, under the bot's clock and sandbox. It
 * does not keep node running: an idle engine lets the process exit.
 */
class Engine {
  /**
   * @param {{command?: string[], maxStates?: number}} [options] command
   *   defaults to [$ARENA_ENGINE, "engine"], else arena from PATH
   */
  constructor(options = {}) {
    const cmd = options.command ? options.command.slice() : engineCommand();
    if (options.maxStates !== undefined) cmd.push('--max-states', String(options.maxStates));
    this.command = cmd;
    this._pending = []; // [resolve, reject, op] per line sent, in order
    this._buf = '';
    this._garbage = [];
    this._dead = null;
    this._hello = null;
    const { spawn } = require('child_process');
    this._child = spawn(cmd[0], cmd.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
    this._child.stdout.setEncoding('utf8');
    this._child.stdout.on('data', (chunk) => this._data(chunk));
    const gone = (why) => {
      if (!this._dead) this._dead = why;
      for (const [, reject, op] of this._pending.splice(0)) reject(new EngineError(this._dead.code, this._dead.detail, op));
    };
    this._child.on('error', (e) => gone(new EngineError('no_engine', `cannot start ${cmd.join(' ')} (${e.message}): set ${ENGINE_ENV} to the arena executable's path`)));
    this._child.on('exit', () => gone(new EngineError('engine_exited', `the arena engine process (${cmd.join(' ')}) is gone: see its messages on stderr`)));
    this._child.stdin.on('error', () => {}); // reported by 'exit'
    this._idle();
  }

  /** @returns {Engine} the process's engine, started on first use and kept (bots reuse it across games) */
  static shared() {
    if (!Engine._shared || Engine._shared._dead) Engine._shared = new Engine();
    return Engine._shared;
  }

  _idle() {
    this._child.unref();
    this._child.stdout.unref();
    if (this._child.stdin.unref) this._child.stdin.unref();
  }

  _data(chunk) {
    this._buf += chunk;
    let nl;
    while ((nl = this._buf.indexOf('\n')) >= 0) {
      const line = this._buf.slice(0, nl);
      this._buf = this._buf.slice(nl + 1);
      const p = this._pending.shift();
      if (!p) continue;
      try {
        p[0](JSON.parse(line));
      } catch (e) {
        p[1](new EngineError('internal', `unreadable answer from the engine: ${short(line)}`, p[2]));
      }
    }
    if (this._pending.length === 0) this._idle();
  }

  /** Sends one line (JSON text); resolves to its decoded answer. */
  _send(line, op) {
    if (this._dead) return Promise.reject(new EngineError(this._dead.code, this._dead.detail, op));
    return new Promise((resolve, reject) => {
      this._pending.push([resolve, reject, op]);
      this._child.stdout.ref();
      this._child.stdin.write(line + '\n');
    });
  }

  _takeGarbage() {
    if (this._garbage.length < FREE_BATCH) return null;
    return { op: 'free', handles: this._garbage.splice(0) };
  }

  /** Sends encoded requests (JSON texts) in one line, after a free of the handles due if any; resolves to their results. */
  async _lines(parts, op) {
    const free = this._takeGarbage();
    const res = await this._send(`[${(free ? [encodeLine(free), ...parts] : parts).join(',')}]`, op);
    return free ? res.slice(1) : res;
  }

  /**
   * One request.
   * @param {string} op
   * @param {object} [args]
   * @returns {Promise<object>} its result; rejects with an EngineError
   */
  async call(op, args = {}) {
    const req = Object.assign({ op }, args);
    const free = this._takeGarbage();
    if (!free) return checkResult(await this._send(encodeLine(req), op), op);
    const res = await this._send(encodeLine([free, req]), op);
    return checkResult(res[1], op);
  }

  /**
   * Many requests in one line (one round trip), run in order: a later one
   * may use a handle an earlier one made. Each succeeds or fails on its
   * own; with check (the default) the first failure rejects, else its
   * EngineError stands in its place in the array.
   * @param {object[]} requests objects with op
   * @param {{check?: boolean}} [options]
   * @returns {Promise<Array<object|EngineError>>}
   */
  async batch(requests, options = {}) {
    if (requests.length === 0) return [];
    const check = options.check !== false;
    const res = await this._lines(requests.map(encodeLine), 'batch');
    return requests.map((req, i) => {
      try {
        return checkResult(res[i], req.op);
      } catch (e) {
        if (check) throw e;
        return e;
      }
    });
  }

  /** @param {number[]} handles freed now @returns {Promise<number>} */
  async free(handles) {
    return (await this.call('free', { handles })).freed;
  }

  /** @returns {Promise<object>} the server's hello: protocol, version, games */
  async hello() {
    if (!this._hello) this._hello = await this.call('hello');
    return this._hello;
  }

  /** @returns {Game} */
  game(name, seats = 2, options = {}) {
    return new Game(name, seats, options, this);
  }

  /** @param {number} handle a state handle of your own batch @returns {State} freed when garbage */
  state(handle) {
    return new State(this, handle);
  }

  /** Ends the server (end of its input). @returns {Promise<void>} */
  close() {
    if (Engine._shared === this) Engine._shared = null;
    if (this._dead) return Promise.resolve();
    return new Promise((resolve) => {
      this._child.once('exit', () => resolve());
      this._child.ref();
      this._child.stdin.end();
    });
  }
}
Engine._shared = null;

function optionStrings(options) {
  const out = {};
  for (const [k, v] of Object.entries(options || {})) out[k] = String(v);
  return out;
}

/** A game's rules on the engine: new Game(name, seats, options, engine = Engine.shared()). */
class Game {
  /**
   * @param {string} name e.g. "uno"
   * @param {number} [seats]
   * @param {Object<string, string|number|boolean>} [options] sent as strings
   * @param {Engine} [engine]
   */
  constructor(name, seats = 2, options = {}, engine = undefined) {
    this.name = String(name);
    this.seats = seats;
    this.options = optionStrings(options);
    this.engine = engine || Engine.shared();
  }

  /** @param {number|bigint} [seed] @returns {Promise<State>} a new game dealt from seed */
  async newState(seed = 0) {
    const r = await this.engine.call('create', { game: this.name, seats: this.seats, seed, options: this.options });
    return new State(this.engine, r.state, this, r.to_move, r.over === true);
  }

  /** The same as newState. */
  state(seed = 0) {
    return this.newState(seed);
  }

  /** @param {number} seat @returns {Promise<Observer>} follows seat's views (EngineError no_sampler without hidden information) */
  async observer(seat) {
    const r = await this.engine.call('observer', { game: this.name, seat, seats: this.seats, options: this.options });
    return new Observer(this, r.observer);
  }
}

/** A server handle: freed by free(), or when its object is garbage (FinalizationRegistry, with a later request). */
class Handle {
  constructor(engine, handle) {
    this.engine = engine;
    this.handle = handle;
    this._freed = false;
    if (handleRegistry) handleRegistry.register(this, { engine, handle }, this);
  }

  /** Frees the handle now (idempotent). @returns {Promise<void>} */
  async free() {
    if (this._freed) return;
    this._freed = true;
    if (handleRegistry) handleRegistry.unregister(this);
    await this.engine.call('free', { handles: [this.handle] });
  }
}

function actionRequest(state, action) {
  const req = { op: 'apply', state };
  if (typeof action === 'number') req.index = action;
  else if (action && typeof action === 'object' && action.raw && typeof action.raw === 'object') req.action = action.raw;
  else req.action = action;
  return req;
}

/**
 * A game state held by the engine. toMove() and isOver() answer at once
 * (the SDK keeps them from the last answer); the rest are Promises.
 */
class State extends Handle {
  constructor(engine, handle, game = null, toMove = null, over = null) {
    super(engine, handle);
    this.game = game;
    this._toMove = toMove;
    this._over = over;
    this._legal = null;
    this._outcome = null;
  }

  /** @returns {number|null} the seat to decide (null for a state made by engine.state(handle) until legal()) */
  toMove() {
    return this._toMove;
  }

  /** @returns {boolean|null} */
  isOver() {
    return this._over;
  }

  /** @returns {Promise<object[]>} the legal actions, in the referee's order ([] once over) */
  async legal() {
    if (this._legal) return this._legal;
    if (this._over) return [];
    const r = await this.engine.call('legal', { state: this.handle });
    this._legal = r.legal;
    this._toMove = r.to_move;
    return this._legal;
  }

  /**
   * Plays action: an index into legal(), an action object or a helper's
   * typed action. The new legal list comes back in the same line.
   * @returns {Promise<State>} this
   */
  async apply(action) {
    const [applied, listed] = await this.engine.batch([actionRequest(this.handle, action), { op: 'legal', state: this.handle }], { check: false });
    if (applied instanceof EngineError) throw applied;
    this._toMove = applied.to_move;
    this._over = applied.over === true;
    this._outcome = null;
    this._legal = listed instanceof EngineError ? null : listed.legal;
    return this;
  }

  /** @returns {Promise<State>} an independent copy */
  async clone() {
    const r = await this.engine.call('clone', { state: this.handle });
    const c = new State(this.engine, r.state, this.game, this._toMove, this._over);
    c._legal = this._legal;
    c._outcome = this._outcome;
    return c;
  }

  /** @param {number} seat (-1: a spectator) @returns {Promise<object>} the view the referee would send seat now */
  async view(seat) {
    return (await this.engine.call('view', { state: this.handle, seat })).view;
  }

  /** @returns {Promise<{over: boolean, ranks?: number[], scores?: number[], returns?: number[]}>} */
  async outcome() {
    if (!this._outcome) {
      this._outcome = await this.engine.call('outcome', { state: this.handle });
      this._over = this._outcome.over === true;
    }
    return this._outcome;
  }

  /** @returns {Promise<number[]|null>} per seat in [-1, 1] once over, null before */
  async returns() {
    const o = await this.outcome();
    return o.returns || null;
  }

  /**
   * n playouts from copies of this state, in Go. policy: who plays every
   * seat, 'random' (the default) or 'greedy' (as the bundled greedy bot).
   * @returns {Promise<{n: number, returns: number[], wins: number[], plies: number}>}
   */
  playout(n = 1, seed = 0, maxPlies = undefined, policy = undefined) {
    const args = { state: this.handle, n, seed };
    if (maxPlies !== undefined) args.max_plies = maxPlies;
    if (policy !== undefined) args.policy = policy;
    return this.engine.call('playout', args);
  }

  /** Plays one uniformly random legal action. @returns {Promise<object>} the action */
  async stepRandom(seed = 0) {
    const r = await this.engine.call('step_random', { state: this.handle, seed });
    this._toMove = r.to_move;
    this._over = r.over === true;
    this._legal = null;
    this._outcome = null;
    return r.action;
  }
}

/** One seat's memory of a game: observe(view) each view in order, then sample(seed). ctx.sample() keeps one for you. */
class Observer extends Handle {
  constructor(game, handle) {
    super(game.engine, handle);
    this.game = game;
  }

  /** @param {object|string} view the next view (or its JSON text) @returns {Promise<void>} */
  async observe(view) {
    const text = typeof view === 'string' ? view : JSON.stringify(view);
    const res = await this.engine._send(`{"op":"observe","observer":${this.handle},"view":${text}}`, 'observe');
    checkResult(res, 'observe');
  }

  /** @returns {Promise<State>} a full state consistent with every view observed */
  async sample(seed = 0) {
    const r = await this.engine.call('sample', { observer: this.handle, seed });
    return new State(this.engine, r.state, this.game, r.to_move, false);
  }
}

// ctx.sample(): feeds the views not fed yet, and samples, in one line.
// The views are kept as the JSON text received, so a bot that changes its
// view objects cannot change what the observer is told.
async function sampleFor(ctx, seed) {
  const engine = ctx.engine(); // a new one if the last is gone: then a new observer too
  if (!ctx._observer || ctx._observerEngine !== engine) {
    ctx._observerEngine = engine;
    ctx._observer = ctx.gameRules().observer(ctx.seat);
    ctx._fed = 0;
  }
  const obs = await ctx._observer;
  const parts = ctx._seen.slice(ctx._fed).map((v) => `{"op":"observe","observer":${obs.handle},"view":${v}}`);
  ctx._fed = ctx._seen.length; // now, so that a concurrent sample does not send them again
  parts.push(encodeLine({ op: 'sample', observer: obs.handle, seed }));
  const res = await obs.engine._lines(parts, 'sample');
  for (const r of res.slice(0, -1)) {
    if (r && r.error) {
      ctx._observer = null; // it missed a view: the next sample starts afresh
      obs.free().catch(() => {});
      checkResult(r, 'observe');
    }
  }
  const r = checkResult(res[res.length - 1], 'sample');
  return new State(obs.engine, r.state, obs.game, r.to_move, false);
}

// ---------------------------------------------------------------------------
// Exports (plain exports.x assignments, so that ES modules can import them
// by name: import { run, banqi } from './arenabot.js')

exports.run = run;
exports.refuse = refuse;
exports.indexOf = indexOf;
exports.Random = Random;
exports.Context = Context;
exports.banqi = banqi;
exports.uno = uno;
exports.bounce = uno;
exports.boon = boon;
exports.Engine = Engine;
exports.EngineError = EngineError;
exports.Game = Game;
exports.State = State;
exports.Observer = Observer;
exports.ENGINE_ENV = ENGINE_ENV;
exports.PROTOCOL = PROTOCOL;
exports.VERSION = VERSION;
