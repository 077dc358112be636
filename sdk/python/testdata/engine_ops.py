"""Game/State ops of arenabot.py against the real `arena engine` named by
ARENA_ENGINE: run by engine_test.go. Prints "ok N" (N checks) or fails
with an assertion's traceback."""
import os
import sys

sys.path.insert(0, sys.argv[1])  # the directory holding arenabot.py
import arenabot  # noqa: E402
from arenabot import EngineError, uno  # noqa: E402

checks = 0


def check(cond, what):
    global checks
    assert cond, what
    checks += 1


def code_of(fn):
    try:
        fn()
    except EngineError as e:
        return e.code
    return None


eng = arenabot.Engine.shared()
hello = eng.hello()
check(hello["protocol"] == 1, "hello protocol")
names = {g["name"]: g for g in hello["games"]}
check(all(g["sampler"] for g in names.values()), "samplers: %r" % names)

# State ops, for every game.
for name, seats in (("uno", 4), ("bounce", 3), ("boon", 3), ("banqi", 2)):
    g = arenabot.Game(name, seats)
    s = g.new_state(7)
    check(s.view(0) == g.state(7).view(0), "%s: the same seed deals the same" % name)
    check(not s.is_over() and 0 <= s.to_move() < seats, "%s: to_move" % name)
    c = s.clone()
    before = s.view(-1)
    c.apply(len(c.legal()) - 1)                # an index
    check(s.view(-1) == before, "%s: a clone is independent" % name)
    c.apply(c.legal()[0])                      # an action dict
    check(c.returns() is None, "%s: no returns before the end" % name)
    p = c.playout(20, seed=3)
    check(p["n"] == 20 and len(p["returns"]) == seats and p["plies"] > 0, "%s: playout %r" % (name, p))
    check(abs(sum(p["returns"])) < 1e-9, "%s: returns sum to 0" % name)
    plies = 0
    while not c.is_over():
        c.step_random(plies)
        plies += 1
    r = c.returns()
    check(len(r) == seats and all(-1 <= x <= 1 for x in r), "%s: returns %r" % (name, r))
    check(c.legal() == [] and code_of(lambda: c.playout(1)) == "game_over", "%s: over" % name)
    with g.new_state(8) as t:
        h = t.handle
    check(code_of(lambda: eng.call("legal", state=h)) == "no_handle", "%s: freed by with" % name)

# A typed action of the helpers, and an illegal one.
g = arenabot.Game("uno", 4, {"target": 0})
s = g.new_state(1)
acts = uno.View(s.view(s.to_move()), s.legal()).actions
seat = s.to_move()
s.clone().apply(acts[-1])
check(code_of(lambda: s.apply({"type": "play", "card": "nonsense"})) in ("illegal", "bad_request"), "illegal action")
check(s.to_move() == seat, "an illegal action changes nothing")

# Errors carry the server's code.
check(code_of(lambda: arenabot.Game("nope", 2).new_state()) == "unknown_game", "unknown game")
check(code_of(lambda: arenabot.Game("uno", 1).new_state()) == "bad_seats", "bad seats")
check(code_of(lambda: arenabot.Game("uno", 4, {"target": "x"}).new_state()) == "bad_options", "bad options")
check(code_of(lambda: arenabot.Game("banqi", 2).observer(0)) is None, "banqi has a sampler")

# A batch: one line, a later request using an earlier one's handle, each
# failing on its own.
a, b = s.clone(), s.clone()
res = eng.batch([{"op": "legal", "state": a.handle}, {"op": "apply", "state": b.handle, "index": 0},
                 {"op": "legal", "state": 10 ** 9}, {"op": "view", "state": b.handle, "seat": -1}], check=False)
check(res[0]["legal"] == s.legal() and isinstance(res[2], EngineError) and res[2].code == "no_handle",
      "batch: %r" % res)
check(res[3]["view"] == b.view(-1) != s.view(-1), "batch: in order")
check(code_of(lambda: eng.batch([{"op": "legal", "state": 10 ** 9}])) == "no_handle", "batch check")

# Garbage states are freed in batches, with later requests.
eng2 = arenabot.Engine(max_states=150)
g2 = eng2.game("uno", 4)
for i in range(600):
    g2.new_state(i)  # garbage at once: without the frees the engine refuses past 150
check(len(eng2._garbage) < 64, "frees are sent")
eng2.close()
check(code_of(lambda: g2.new_state(1)) == "engine_exited", "closed engine")

# An observer fed a seat's views samples a state giving that seat the same view.
obs = g.observer(seat)
obs.observe(s.view(seat))
x = obs.sample(11)
check(x.view(seat) == s.view(seat), "sample's view")

# No engine: a clear error.
os.environ["ARENA_ENGINE"] = ""
os.environ["PATH"] = ""
check(code_of(lambda: arenabot.Engine()) == "no_engine", "no engine")
print("ok", checks)
