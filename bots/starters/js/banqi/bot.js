// A Banqi starter bot for the arena, on the JavaScript SDK (arenabot.js,
// beside this file; docs/sdk-js.md). Edit act() and make it smarter.
//
// Run:   arena check --game banqi 'node mybot/bot.js'
//        arena match --game banqi --bot me='node mybot/bot.js' --bot random='arena bot random' --games 20
'use strict';
const arenabot = require('./arenabot.js');
const { banqi } = arenabot;

// How much a piece is worth to us: its rank (7 King .. 1 Pawn).
function value(piece, ranks) {
  const kind = banqi.KINDS.find((k) => k.kind === piece.kind);
  return kind ? kind[ranks] : 0;
}

// act is called on every turn: view is what we see, legal the actions we
// may take; return an index into legal (or one of its actions).
function act(view, legal, ctx) {
  const board = banqi.board(view); // pieces by square: board.pieceAt('b3')
  const actions = board.actions(legal); // each with .type, .from, .to, .piece, .target

  // 1. Capture the most valuable enemy piece we can.
  const captures = actions.filter((a) => a.type === 'capture' && a.target.up);
  if (captures.length > 0) {
    captures.sort((a, b) => value(b.target, board.ranks) - value(a.target, board.ranks));
    return captures[0];
  }
  // 2. Otherwise flip a piece, now and then: it may reveal something to take.
  const flips = actions.filter((a) => a.type === 'flip');
  const moves = actions.filter((a) => a.type === 'move');
  if (flips.length > 0 && (moves.length === 0 || ctx.random() < 0.5)) return ctx.choice(flips);
  // 3. Otherwise any legal action (a move, or stop in a capture chain).
  return ctx.randomInt(legal.length);
}

arenabot.run({
  act,
  games: ['banqi'],
  // end runs when a game is over; ctx.log writes to stderr, never stdout.
  end(result, ctx) {
    ctx.log(`game ${result.gameId}: rank ${result.rank} (${result.reason})`);
  },
});
