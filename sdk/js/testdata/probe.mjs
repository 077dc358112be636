// probe.mjs: the SDK loaded from an ES module, default and named imports.
import arenabot, { run, banqi, uno, boon, Random } from './arenabot.js';

if (arenabot.run !== run || arenabot.banqi !== banqi || typeof uno.table !== 'function' || typeof boon.table !== 'function' || typeof Random !== 'function') {
  throw new Error('named and default imports differ');
}
run(
  (view, legal, ctx) => {
    const b = banqi.board(view);
    ctx.log('ESM ' + JSON.stringify({ faceDown: b.faceDown().length, random: ctx.random() }));
    return b.actions(legal)[legal.length - 1];
  },
  { name: 'probe-esm' }
);
