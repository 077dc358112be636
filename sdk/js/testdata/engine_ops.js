// Game/State ops of arenabot.js against the real `arena engine` named by
// ARENA_ENGINE: run by engine_test.go. Prints "ok N" (N checks) or exits 1
// with the failed check.
'use strict';
const path = require('path');
const a = require(path.resolve(process.argv[2], 'arenabot.js'));

let checks = 0;
function check(cond, what) {
  if (!cond) {
    console.error('FAIL: ' + what);
    process.exit(1);
  }
  checks++;
}
async function codeOf(fn) {
  try {
    await fn();
  } catch (e) {
    return e instanceof a.EngineError ? e.code : 'not an EngineError: ' + e;
  }
  return null;
}
const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);

(async () => {
  const eng = a.Engine.shared();
  const hello = await eng.hello();
  check(hello.protocol === 1, 'hello protocol');
  for (const [name, seats] of [['uno', 4], ['bounce', 3], ['boon', 3], ['banqi', 2]]) {
    const g = new a.Game(name, seats);
    const s = await g.newState(7);
    check(same(await s.view(0), await (await g.state(7)).view(0)), `${name}: the same seed deals the same`);
    check(s.isOver() === false && s.toMove() >= 0 && s.toMove() < seats, `${name}: toMove`);
    const c = await s.clone();
    const before = await s.view(-1);
    await c.apply((await c.legal()).length - 1);
    check(same(await s.view(-1), before), `${name}: a clone is independent`);
    await c.apply((await c.legal())[0]);
    check((await c.returns()) === null, `${name}: no returns before the end`);
    const p = await c.playout(20, 3n);
    check(p.n === 20 && p.returns.length === seats && p.plies > 0, `${name}: playout ${JSON.stringify(p)}`);
    let plies = 0;
    while (!c.isOver()) await c.stepRandom(plies++);
    const r = await c.returns();
    check(r.length === seats && r.every((x) => x >= -1 && x <= 1), `${name}: returns ${r}`);
    check((await c.legal()).length === 0 && (await codeOf(() => c.playout(1))) === 'game_over', `${name}: over`);
    const t = await g.newState(8);
    await t.free();
    check((await codeOf(() => eng.call('legal', { state: t.handle }))) === 'no_handle', `${name}: freed`);
  }
  const g = new a.Game('uno', 4, { target: 0 });
  const s = await g.newState(1);
  const seat = s.toMove();
  const typed = a.uno.actions(await s.legal());
  await (await s.clone()).apply(typed[typed.length - 1]);
  const bad = await codeOf(() => s.apply({ type: 'play', card: 'nonsense' }));
  check(bad === 'illegal' || bad === 'bad_request', 'illegal action: ' + bad);
  check(s.toMove() === seat, 'an illegal action changes nothing');
  check((await codeOf(() => new a.Game('nope', 2).newState())) === 'unknown_game', 'unknown game');
  check((await codeOf(() => new a.Game('uno', 1).newState())) === 'bad_seats', 'bad seats');
  check((await codeOf(() => new a.Game('uno', 4, { target: 'x' }).newState())) === 'bad_options', 'bad options');
  check((await codeOf(() => new a.Game('banqi', 2).observer(0))) === null, 'banqi has a sampler');

  const x = await s.clone();
  const y = await s.clone();
  const res = await eng.batch([
    { op: 'legal', state: x.handle },
    { op: 'apply', state: y.handle, index: 0 },
    { op: 'legal', state: 1e9 },
    { op: 'view', state: y.handle, seat: -1 },
  ], { check: false });
  check(same(res[0].legal, await s.legal()) && res[2] instanceof a.EngineError && res[2].code === 'no_handle', 'batch');
  check(same(res[3].view, await y.view(-1)) && !same(res[3].view, await s.view(-1)), 'batch in order');
  check((await codeOf(() => eng.batch([{ op: 'legal', state: 1e9 }]))) === 'no_handle', 'batch check');
  // Many requests in flight at once: answers in order.
  const views = await Promise.all([0, 1, 2, 3].map((k) => s.view(k)));
  check(views.every((v, k) => v.you === k), 'concurrent requests');

  const obs = await g.observer(seat);
  await obs.observe(await s.view(seat));
  const z = await obs.sample(11);
  check(same(await z.view(seat), await s.view(seat)), "sample's view");

  const eng2 = new a.Engine({ maxStates: 50 });
  await eng2.close();
  check((await codeOf(() => eng2.game('uno', 4).newState(1))) === 'engine_exited', 'closed engine');
  process.env.ARENA_ENGINE = '';
  process.env.PATH = '';
  check((await codeOf(() => new a.Engine())) === 'no_engine', 'no engine');
  console.log('ok ' + checks); // the engine, idle, lets node exit
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
