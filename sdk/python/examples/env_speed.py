"""Environment steps per second from Python: 4-seat Uno, every seat a
uniformly random agent in Python, many games stepped per engine call.

    ARENA_ENGINE=/path/to/arena python3 env_speed.py [--games 256] [--seconds 5]

A step is one agent's action (what RLCard's env.step counts); the figure
is steps over wall time, Python's choice of actions included.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arenaenv  # noqa: E402


def measure(games, seconds, options, opponents=None):
    env = arenaenv.VectorEnv("uno", 4, n=games, options=options, opponents=opponents, seed=1)
    rng = random.Random(1)
    b = env.reset()
    steps = ended = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        b = env.step([legal[rng.randrange(len(legal))] for legal in b.legal])
        steps += games
        ended += sum(b.done)
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed, ended


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=256, help="games stepped per call")
    p.add_argument("--seconds", type=float, default=5, help="how long to measure")
    a = p.parse_args()
    rate, ended = measure(a.games, a.seconds, {"target": "0"})
    print("uno 4 seats, every seat a random agent in Python, %d games per call: %.0f steps/s (%d games ended); "
          "RLCard's Uno: 865 steps/s, %.1fx" % (a.games, rate, ended, rate / 865))
    rate, ended = measure(a.games, a.seconds, {"target": "0"}, {1: "random", 2: "random", 3: "random"})
    print("uno 4 seats, seat 0 a random agent in Python, random bots in Go at seats 1-3: %.0f agent steps/s "
          "(%d games ended)" % (rate, ended))


if __name__ == "__main__":
    main()
