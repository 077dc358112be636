// notes.js: the bot of TestActReturnsANote: legal[1] on every turn, with
// the note the view's cmd names (return [action, note]).
'use strict';
const arenabot = require('./arenabot.js');

arenabot.run((view, legal) => {
  const cycle = {};
  cycle.self = cycle;
  const notes = {
    str: '3 candidates, best +0.4 <b>',
    object: { best: legal[1], scores: [0.5, 0.25] },
    number: 42,
    array: ['a'],
    bigint: { n: 1n },
    cycle,
  };
  switch (view.cmd) {
    case 'plain':
      return 1;
    case 'none':
      return [1, undefined];
    case 'typed':
      return [legal[1], 'an object of legal'];
    case 'async':
      return Promise.resolve([1, 'after a promise']);
    default:
      return [1, notes[view.cmd]];
  }
});
