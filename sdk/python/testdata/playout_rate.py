"""Random playouts per second from Python through `arena engine`
(ARENA_ENGINE): run by TestPlayoutRate. Usage: playout_rate.py SDKDIR GAME
SEATS SECONDS [TARGET]. Prints one JSON line per request size n: playouts and
plies per second over SECONDS of wall time, from one state dealt from
seed 1, each request a new seed."""
import json
import sys
import time

sys.path.insert(0, sys.argv[1])
import arenabot  # noqa: E402

game, seats, seconds = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
options = {"target": sys.argv[5]} if len(sys.argv) > 5 and sys.argv[5] else {}
state = arenabot.Game(game, seats, options).new_state(1)
for n in (1, 16, 256):
    playouts = plies = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        r = state.playout(n, seed)
        seed += 1
        playouts += n
        plies += r["plies"] * n
    took = time.perf_counter() - start
    print(json.dumps({"n": n, "playouts_per_s": playouts / took, "plies_per_s": plies / took}))
