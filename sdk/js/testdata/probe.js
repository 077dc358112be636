// probe.js: the bot TestProtocol* referee: it logs what its context says
// and behaves as argv[2] asks (first, throw, reject, async, object,
// badindex, notlegal, never, refuse, startthrow, banqionly).
'use strict';
const arenabot = require('./arenabot.js');

const mode = process.argv[2] || 'first';
const bot = {
  start(ctx) {
    const { game, seat, seats, players, options, gameId, match, seed, clock } = ctx;
    ctx.log('START ' + JSON.stringify({ game, seat, seats, players, options, gameId, match, seed, clock, future: ctx.hello.x_future !== undefined }));
    ctx.data.turns = 0;
    if (mode === 'refuse') throw arenabot.refuse('no thanks, not ' + game);
    if (mode === 'startthrow') throw new Error('deliberate failure in start');
  },
  act(view, legal, ctx) {
    ctx.data.turns++;
    const info = { turnId: ctx.turnId, timeLeft: ctx.timeLeft(), deadline: ctx.deadline - ctx.received, r: ctx.random(), n: legal.length, turns: ctx.data.turns };
    ctx.log('TURN ' + JSON.stringify(info));
    console.log('console.log goes to stderr, not stdout');
    switch (mode) {
      case 'throw':
        if (ctx.turnId === 2) throw new Error('deliberate failure in act');
        return 0;
      case 'reject':
        return Promise.reject(new Error('deliberate rejection'));
      case 'async':
        return new Promise((resolve) => setTimeout(() => resolve(legal.length - 1), 5));
      case 'object': {
        // The last legal action, as a new object with its keys reversed.
        const a = legal[legal.length - 1];
        const o = {};
        for (const k of Object.keys(a).reverse()) o[k] = a[k];
        return o;
      }
      case 'badindex':
        return legal.length;
      case 'notlegal':
        return { type: 'nonsense' };
      case 'never':
        return new Promise(() => {});
      default:
        return 0;
    }
  },
  end(result, ctx) {
    const { rank, score, reason, ranks, gameId, forfeits } = result;
    ctx.log('END ' + JSON.stringify({ rank, score, reason, ranks, gameId, forfeits, view: result.view !== null }));
  },
};
arenabot.run(bot, { name: 'probe', version: '7', games: mode === 'banqionly' ? ['banqi'] : undefined });
