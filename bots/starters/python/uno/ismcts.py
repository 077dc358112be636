#!/usr/bin/env python3
"""Information-set Monte Carlo tree search (ISMCTS) for Uno, on the rules
engine: each iteration deals the cards this seat cannot see consistently
with everything it has seen (ctx.sample()), walks one shared tree of
actions down that deal, adds a node, and scores it with random playouts
run in Go (State.playout). Then the tree's best moves and the starter's
(bot.py) are played out from the same deals with the same random numbers,
and the starter's move stands unless another beats it by more than the
noise.

Run it:  arena match --game uno --option target=0 --bot me='python3 mybot/ismcts.py' \\
             --bot g1='arena bot greedy' --bot g2='arena bot greedy' --bot g3='arena bot greedy'
The engine runs as this bot's child process: its CPU time is the bot's.
"""
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # find arenabot.py beside this file
import arenabot  # noqa: E402
from bot import act as starter  # noqa: E402  (the kit's bot.py: the default policy)

SHARE = 0.4        # of the move's time left, for the search
MAX_SECONDS = 0.2  # and never more than this a move
PLAYOUTS = 8       # playouts per new node, in one request
POLICY = "rollout"  # who plays them: greedy's rules, fast ("random" models opponents badly)
C = 1.0            # exploration (returns are in [-1, 1])
TREE = 0.4         # of the search's time for the tree, the rest for the paired test
TOP = 2            # moves the paired test compares with the fallback
MIN_DEALS = 8      # the paired test's least deals, whatever the clock


class Node:
    """An action sequence from the root, over every deal: its statistics
    are from the view of the seat that chose its last action."""

    __slots__ = ("seat", "children", "visits", "avail", "total", "sq")

    def __init__(self, seat):
        self.seat = seat
        self.children = {}
        self.visits = self.avail = 0
        self.total = self.sq = 0.0

    def mean(self):
        return self.total / self.visits if self.visits else -1.0

    def ucb(self):
        return self.mean() + C * math.sqrt(math.log(self.avail) / self.visits)

    def add(self, r):
        self.visits += 1
        self.total += r
        self.sq += r * r


def key(action):
    return json.dumps(action, sort_keys=True)


def iterate(ctx, root):
    """One iteration: deal, select, expand, play out, back up."""
    state = ctx.sample()
    node, path = root, []
    with state:
        while not state.is_over():
            legal = state.legal()
            keys = [key(a) for a in legal]
            for k in keys:
                if k in node.children:
                    node.children[k].avail += 1
            new = [i for i, k in enumerate(keys) if k not in node.children]
            if new:  # expand one action never tried here, and leave the tree
                i = ctx.random.choice(new)
                child = node.children[keys[i]] = Node(state.to_move())
                child.avail = 1
                path.append(child)
                state.apply(i)
                break
            i = max(range(len(keys)), key=lambda j: node.children[keys[j]].ucb())
            node = node.children[keys[i]]
            path.append(node)
            state.apply(i)
        if state.is_over():
            returns = state.returns()
        else:
            returns = state.playout(PLAYOUTS, ctx.random.getrandbits(63), policy=POLICY)["returns"]
    for n in path:
        n.add(returns[n.seat])


def compare(ctx, candidates, end):
    """Plays each candidate out from the same deals with the same random
    numbers (one batch a deal): the deal's luck cancels in the differences.
    Returns the candidate whose mean difference to candidates[0] (the
    fallback) is largest and above one standard error, else candidates[0]."""
    eng = ctx.engine()
    diffs = [[] for _ in candidates]
    while time.monotonic() < end or len(diffs[0]) < MIN_DEALS:
        deal = ctx.sample()
        copies = [deal] + [deal.clone() for _ in candidates[1:]]
        seed = ctx.random.getrandbits(63)
        res = eng.batch([r for c, a in zip(copies, candidates) for r in (
            {"op": "apply", "state": c.handle, "action": a},
            {"op": "outcome", "state": c.handle},  # the returns if the move ends the game
            {"op": "playout", "state": c.handle, "n": PLAYOUTS, "seed": seed, "policy": POLICY})], check=False)
        mine = [(res[3 * i + 1].get("returns") or res[3 * i + 2]["returns"])[ctx.seat]
                for i in range(len(candidates))]
        for i, r in enumerate(mine):
            diffs[i].append(r - mine[0])
    best, best_mean = 0, 0.0
    for i, d in enumerate(diffs[1:], 1):
        mean = sum(d) / len(d)
        var = sum((x - mean) ** 2 for x in d) / max(len(d) - 1, 1) + 1.0  # + a prior: few deals prove little
        if mean > max(best_mean, math.sqrt(var / len(d))):
            best, best_mean = i, mean
    return candidates[best]


def act(view, legal, ctx):
    fallback = starter(view, legal, ctx)
    fallback = legal[fallback] if isinstance(fallback, int) else getattr(fallback, "raw", fallback)
    if len(legal) == 1:
        return 0
    now = time.monotonic()
    budget = min(ctx.time_left() * SHARE, MAX_SECONDS)
    root, iterations = Node(ctx.seat), 0
    while time.monotonic() < now + budget * TREE:  # the tree ranks the moves
        iterate(ctx, root)
        iterations += 1
    ctx.state["iterations"] = ctx.state.get("iterations", 0) + iterations
    ranked = sorted(root.children, key=lambda k: -root.children[k].visits)
    candidates = [fallback] + [json.loads(k) for k in ranked if k != key(fallback)][:TOP]
    return compare(ctx, candidates, now + budget)  # the paired test decides


def end(result, ctx):
    ctx.log("ismcts: game %s rank %s, %d iterations" % (ctx.game_id, result.rank, ctx.state.get("iterations", 0)))


if __name__ == "__main__":
    arenabot.run(sys.modules[__name__], name="uno-ismcts", version="1", games=("uno",))
