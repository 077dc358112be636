// A Boon starter bot for the arena, on the JavaScript SDK (arenabot.js,
// beside this file; docs/sdk-js.md). Edit act() and make it smarter.
//
// Run:   arena check --game boon 'node mybot/bot.js'
//        arena match --game boon --bot me='node mybot/bot.js' --bot random='arena bot random' --bot random2='arena bot random' --games 20
'use strict';
const arenabot = require('./arenabot.js');
const { boon } = arenabot;

// act is called on every decision: view is what we see, legal the actions
// we may take; return an index into legal (or one of its actions).
function act(view, legal, ctx) {
  const table = boon.table(view); // table.hand, table.trick, table.picker, table.team ...
  const actions = table.actionsOf(legal); // each with .type and .card (suit, rank, points, trump)

  switch (table.decision) {
    case 'take_or_pass': {
      // Take the Boon with a hand of many Golds (the trump suit).
      const golds = table.hand.filter((c) => c.trump).length;
      return actions.find((a) => a.type === (golds * 2 >= table.hand.length ? 'take' : 'pass'));
    }
    case 'bury': {
      // Bury the plain card worth most points: buried points count for us.
      const plain = actions.filter((a) => !a.card.trump);
      const pool = plain.length > 0 ? plain : actions;
      return pool.reduce((a, b) => (b.card.points > a.card.points ? b : a));
    }
    default: {
      // Win the trick with the cheapest card that wins it, if the points
      // are worth it (or we lead); otherwise throw the cheapest card.
      const cheapest = (list) => list.reduce((a, b) => (b.card.points < a.card.points || (b.card.points === a.card.points && b.card.rank < a.card.rank) ? b : a));
      const winners = actions.filter((a) => table.wouldWin(a.card));
      const partnerWinning = table.partners().includes(table.trick.winner);
      if (winners.length > 0 && !partnerWinning && table.mode !== 'least') return cheapest(winners);
      return cheapest(actions);
    }
  }
}

arenabot.run({ act, games: ['boon'] });
