"""Train a small Uno agent (4 seats) against bundled bots, standard library only.

The policy is linear and softmax over the legal actions: the logit of action
a is w[a] . x, where x is the observation (the fixed-size encoding of the
seat's view, docs/games/uno.md "Encoding") plus a constant 1. It learns by
REINFORCE: at the end of each game, every decision it took is made more
likely if the game went better than usual (the return minus a running mean),
less likely otherwise. Games run many at a time in the engine server
(arenaenv.GymVectorEnv); the bots at the other seats are played in Go.

    ARENA_ENGINE=/path/to/arena python3 train_uno.py --games 4000 --eval 2000

Prints the win rate of the trained policy and of a random policy in the same
seat against the same opponents, each with a 95% confidence interval.
"""

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arenaenv  # noqa: E402

SEATS = 4
OPTIONS = {"target": "0"}  # one hand, the winner first: RLCard's game, at 4 seats


class LinearPolicy:
    """Softmax over the legal actions of w[a] . x; x sparse: (index, value)
    pairs of the observation's non-zero slots, and the constant slot."""

    def __init__(self, obs_size, num_actions):
        self.bias = obs_size
        self.w = [[0.0] * (obs_size + 1) for _ in range(num_actions)]

    def features(self, obs):
        x = [(i, v) for i, v in enumerate(obs) if v]
        x.append((self.bias, 1.0))
        return x

    def probs(self, x, legal):
        logits = []
        for a in legal:
            w = self.w[a]
            logits.append(sum(w[i] * v for i, v in x))
        top = max(logits)
        e = [math.exp(z - top) for z in logits]
        total = sum(e)
        return [p / total for p in e]

    def act(self, x, legal, rng, greedy=False):
        """The index in legal of the action chosen, and the probabilities."""
        p = self.probs(x, legal)
        if greedy:
            return max(range(len(p)), key=p.__getitem__), p
        r, acc = rng.random(), 0.0
        for k, pk in enumerate(p):
            acc += pk
            if r < acc:
                return k, p
        return len(p) - 1, p

    def reinforce(self, decisions, advantage, lr):
        """One REINFORCE step: grad log p(chosen) = x (onehot - p) per legal action."""
        for x, legal, p, k in decisions:
            for j, a in enumerate(legal):
                g = lr * advantage * ((1.0 if j == k else 0.0) - p[j])
                if g:
                    w = self.w[a]
                    for i, v in x:
                        w[i] += g * v


def train(policy, games, parallel, opponent, seed, lr, log=None):
    """Plays games games (parallel at a time) as seat 0, learning after each."""
    env = arenaenv.GymVectorEnv("uno", SEATS, n=parallel, options=OPTIONS, opponent=opponent, seed=seed)
    rng = random.Random(seed)
    obs, infos = env.reset()
    decisions = [[] for _ in range(parallel)]
    baseline, done, wins = 0.0, 0, 0
    while done < games:
        actions = []
        for i in range(parallel):
            x, legal = policy.features(obs[i]), infos[i]["legal"]
            k, p = policy.act(x, legal, rng)
            decisions[i].append((x, legal, p, k))
            actions.append(legal[k])
        obs, rewards, terminated, _, infos = env.step(actions)
        for i in range(parallel):
            if terminated[i]:
                policy.reinforce(decisions[i], rewards[i] - baseline, lr)
                baseline += 0.01 * (rewards[i] - baseline)
                decisions[i] = []
                done += 1
                wins += infos[i]["ranks"][0] == 1
                if log and done % 500 == 0:
                    log("  %d games, win rate of the last 500 (learning): %.3f" % (done, wins / 500))
                    wins = 0
    env.close()


def evaluate(choose, games, parallel, opponent, seed):
    """Wins of seat 0 in games games, choose(obs, legal) picking its actions."""
    env = arenaenv.GymVectorEnv("uno", SEATS, n=parallel, options=OPTIONS, opponent=opponent, seed=seed)
    obs, infos = env.reset()
    done = wins = 0
    while done < games:
        obs, _, terminated, _, infos2 = env.step([choose(obs[i], infos[i]["legal"]) for i in range(parallel)])
        for i in range(parallel):
            if terminated[i] and done < games:
                done += 1
                wins += infos2[i]["ranks"][0] == 1
        infos = infos2
    env.close()
    return wins


def wilson(wins, n, z=1.96):
    """The 95% Wilson score interval of a proportion."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000, help="training games")
    ap.add_argument("--eval", type=int, default=2000, help="evaluation games of each policy")
    ap.add_argument("--parallel", type=int, default=64, help="games stepped per engine call")
    ap.add_argument("--opponent", default="random", help="bundled bot at seats 1-3: random or greedy")
    ap.add_argument("--lr", type=float, default=0.003, help="learning rate")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    enc = arenaenv.Encoding("uno", SEATS, OPTIONS)
    policy = LinearPolicy(enc.obs_size, enc.num_actions)
    start = time.perf_counter()
    print("training %d games against %s (obs %d, actions %d)" % (a.games, a.opponent, enc.obs_size, enc.num_actions))
    train(policy, a.games, a.parallel, a.opponent, a.seed, a.lr, log=print)
    print("trained in %.0f s" % (time.perf_counter() - start))
    rng = random.Random(a.seed)
    trained = evaluate(lambda o, legal: legal[policy.act(policy.features(o), legal, rng)[0]],
                       a.eval, a.parallel, a.opponent, a.seed + 1000)
    rand = evaluate(lambda o, legal: arenaenv.random_policy(legal, rng), a.eval, a.parallel, a.opponent, a.seed + 1000)
    for name, wins in (("trained", trained), ("random", rand)):
        lo, hi = wilson(wins, a.eval)
        print("%-7s win rate vs %s: %.3f (95%% CI %.3f-%.3f) over %d games" % (name, a.opponent, wins / a.eval, lo, hi, a.eval))
    return trained, rand


if __name__ == "__main__":
    main()
