#!/usr/bin/env python3
"""Information-set Monte Carlo tree search (ISMCTS) for Uno, on the rules
engine: each iteration deals the cards this seat cannot see consistently
with everything it has seen (ctx.sample()), walks one tree of actions,
shared by every deal, down that deal (UCB, counting a move only where the
deal offers it), adds a node, and scores it with playouts run in Go
(State.playout, every seat played by greedy's rules: policy "rollout").
It plays the move tried most, and notes what it found beside the move in
the replay.

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

SHARE = 0.4          # of the move's time left, for the search
MAX_SECONDS = 0.4    # and never more than this a move
MIN_ITERATIONS = 20  # whatever the clock
PLAYOUTS = 16        # playouts per new node, in one request
POLICY = "rollout"   # who plays them: greedy's rules, fast ("random" models opponents badly)
C = 1.0              # exploration (returns are in [-1, 1])


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


def act(view, legal, ctx):
    if len(legal) == 1:
        return 0
    end = time.monotonic() + min(ctx.time_left() * SHARE, MAX_SECONDS)
    root, iterations = Node(ctx.seat), 0
    while time.monotonic() < end or iterations < MIN_ITERATIONS:
        iterate(ctx, root)
        iterations += 1
    ctx.state["iterations"] = ctx.state.get("iterations", 0) + iterations
    k = max(root.children, key=lambda k: root.children[k].visits)  # the move tried most
    best = root.children[k]
    note = {"iterations": iterations, "visits": best.visits, "mean": round(best.mean(), 3)}
    return json.loads(k), note  # the note shows beside the move in the replay viewer


def end(result, ctx):
    ctx.log("ismcts: game %s rank %s, %d iterations" % (ctx.game_id, result.rank, ctx.state.get("iterations", 0)))


if __name__ == "__main__":
    arenabot.run(sys.modules[__name__], name="uno-ismcts", version="1", games=("uno",))
