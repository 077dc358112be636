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

  _startTurn(msg, received) {
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
exports.PROTOCOL = PROTOCOL;
exports.VERSION = VERSION;
