// A bot that checks ctx.sample() in a real match: every turn it samples
// twice and asserts that the sampled state gives its seat exactly the
// view and legal list it was sent; then it plays a random move. A failed
// assertion is reported by the SDK on stderr ("act threw").
'use strict';
const assert = require('assert');
const arenabot = require('./arenabot.js');

arenabot.run({
  name: 'samplebot',
  async act(view, legal, ctx) {
    for (let i = 0; i < 2; i++) {
      const s = await ctx.sample();
      assert.deepStrictEqual(await s.view(ctx.seat), view, 'sampled view differs');
      assert.deepStrictEqual(await s.legal(), legal, 'sampled legal list differs');
      assert.strictEqual(s.toMove(), ctx.seat);
    }
    ctx.data.sampled = (ctx.data.sampled || 0) + 2;
    return ctx.randomInt(legal.length);
  },
  end(result, ctx) {
    ctx.log(`samplebot: game ${ctx.gameId} sampled ${ctx.data.sampled || 0}`);
  },
});
