#!/usr/bin/env python3
"""A random arena bot in plain Python (standard library only).

It speaks protocol v1 over stdin/stdout: answers hello with ready, each turn
with a random legal index, and exits on bye or end of input. Its RNG is
seeded from hello, so its choices are reproducible. Logs go to stderr.
"""
import json
import random
import sys

PROTOCOL = 1


def send(msg):
    sys.stdout.write(json.dumps(msg, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != PROTOCOL:
                send({"type": "error",
                      "message": "unsupported protocol version %r (this bot speaks %d)"
                                 % (msg.get("protocol"), PROTOCOL)})
                return 1
            rng = random.Random(msg["seed"] * 31 + msg["seat"])
            send({"type": "ready", "name": "python-random", "version": "1"})
        elif kind == "turn":
            send({"type": "action", "id": msg["id"],
                  "index": rng.randrange(len(msg["legal"]))})
        elif kind == "end":
            print("game %s over: %s" % (msg.get("game_id"), msg.get("reason")),
                  file=sys.stderr)
        elif kind == "bye":
            return 0
        # unknown message types are ignored
    return 0


if __name__ == "__main__":
    sys.exit(main())
