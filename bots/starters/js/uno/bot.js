// An Uno starter bot for the arena, on the JavaScript SDK (arenabot.js,
// beside this file; docs/sdk-js.md). Edit act() and make it smarter.
//
// Run:   arena check --game uno 'node mybot/bot.js'
//        arena match --game uno --bot me='node mybot/bot.js' --bot random='arena bot random' --games 20
'use strict';
const arenabot = require('./arenabot.js');
const { uno } = arenabot;

// act is called on every decision: view is what we see, legal the actions
// we may take; return an index into legal (or one of its actions).
function act(view, legal, ctx) {
  const table = uno.table(view); // table.hand, table.top, table.colour, table.others ...
  const actions = table.actionsOf(legal); // each with .type, .card, .colour, .uno

  // Catch a player who forgot to call, when the rules let us.
  const catchIt = actions.find((a) => a.type === 'catch');
  if (catchIt) return catchIt;

  // The colour we hold most of: the one to name with a wild.
  const best = uno.COLOURS.reduce((a, b) => (table.cardsOf(b).length > table.cardsOf(a).length ? b : a));

  // Play a card if we can: never forget the call, keep wilds for last,
  // shed the cards worth most points first.
  const plays = actions.filter((a) => a.type === 'play' || a.type === 'jump');
  const callOffered = plays.some((a) => a.uno);
  const candidates = plays.filter((a) => a.uno === callOffered && (!a.card.wild || a.colour === best));
  if (candidates.length > 0) {
    candidates.sort((a, b) => (a.card.wild - b.card.wild) || (b.card.points - a.card.points));
    return candidates[0];
  }
  // A starting Wild: name our colour.
  const colour = actions.find((a) => a.type === 'colour' && a.colour === best);
  if (colour) return colour;
  // Otherwise the decision's closing action: draw, keep, pass or accept
  // (the last entry of the list; see docs/games/uno.md, Legal order).
  return legal.length - 1;
}

arenabot.run({ act, games: ['uno', 'bounce'] });
