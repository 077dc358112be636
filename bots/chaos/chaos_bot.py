#!/usr/bin/env python3
"""A deliberately misbehaving arena bot in plain Python (standard library only).

Usage: chaos_bot.py MODE [TURN]

Until it misbehaves it plays like the random bot (protocol v1 over
stdin/stdout). It misbehaves at turn TURN of each game (default 1; 3 for
crash-mid). Modes (a subset of bots/chaos/chaosbot):

  good          plays random legal moves
  crash-start   exits with status 3 before reading anything
  crash-mid     raises an exception at turn TURN
  exit0         exits with status 0 at turn TURN
  no-hello      reads hello, never answers
  garbage       answers with a line that is not JSON
  bad-utf8      answers with a JSON line holding invalid UTF-8
  nested        answers with JSON nested 100000 deep
  huge-json     answers with a valid 4 MiB JSON line
  half-line     writes half a reply, then silence
  twice         answers the turn twice
  wrong-id      answers with the wrong id
  unasked       after answering, sends an action nobody asked for
  stop-reading  stops reading stdin after ready
  sleep         sleeps 2 s before answering
  stderr-flood  writes 20 MiB to stderr while playing well
  close-stdout  closes stdout and keeps running
  mem-hog       allocates and touches up to 2 GiB in 64 MiB steps, then hangs
"""
import json
import os
import random
import sys
import threading
import time
import traceback

MODES = {"good", "crash-start", "crash-mid", "exit0", "no-hello", "garbage", "bad-utf8",
         "nested", "huge-json", "half-line", "twice", "wrong-id", "unasked", "stop-reading",
         "sleep", "stderr-flood", "close-stdout", "mem-hog"}

out = sys.stdout.buffer


def send(s):
    if isinstance(s, str):
        s = s.encode()
    out.write(s + b"\n")
    out.flush()


def hang():
    while True:
        time.sleep(3600)


def flood(n):
    block = (("flood " * 10) + "\n").encode() * 1000
    err = sys.stderr.buffer
    written = 0
    try:
        while written < n:
            err.write(block)
            err.flush()
            written += len(block)
    except OSError:
        pass


def hog(mib):
    hoard = []
    for _ in range(0, mib, 64):
        hoard.append(b"\x01" * (64 << 20))  # written, so every page is touched
    return hoard


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in MODES:
        sys.stderr.write("usage: chaos_bot.py MODE [TURN]; modes: %s\n" % " ".join(sorted(MODES)))
        return 2
    mode = sys.argv[1]
    at = int(sys.argv[2]) if len(sys.argv) > 2 else (3 if mode == "crash-mid" else 1)
    if mode == "crash-start":
        return 3
    rng = random.Random(0)
    turn = 0
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return 0
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            rng = random.Random(msg["seed"] * 31 + msg["seat"])
            turn = 0
            if mode == "no-hello":
                hang()
            if mode == "stderr-flood":
                threading.Thread(target=flood, args=(20 << 20,), daemon=True).start()
            send('{"type":"ready","name":"py-chaos-%s"}' % mode)
            if mode == "stop-reading":
                hang()
            continue
        if kind == "bye":
            return 0
        if kind != "turn":
            continue
        turn += 1
        tid = msg["id"]
        answer = '{"type":"action","id":%d,"index":%d}' % (tid, rng.randrange(len(msg["legal"])))
        if turn != at or mode in ("good", "stderr-flood"):
            send(answer)
            continue
        # The crashes leave through os._exit: the interpreter's own shutdown
        # can take longer than a 200 ms move on a loaded machine, and then
        # the referee would (rightly) see a timeout before the exit.
        if mode == "crash-mid":
            try:
                raise RuntimeError("deliberate crash at turn %d" % turn)
            except RuntimeError:
                traceback.print_exc()
                sys.stderr.flush()
                os._exit(1)
        elif mode == "exit0":
            os._exit(0)
        elif mode == "garbage":
            send("hello world, this is not JSON")
        elif mode == "bad-utf8":
            send(b'{"type":"action","id":%d,"index":0,"note":"\xff\xfe\xc3("}' % tid)
        elif mode == "nested":
            send('{"type":"action","id":%d,"index":0,"deep":%s%s}' % (tid, "[" * 100000, "]" * 100000))
        elif mode == "huge-json":
            send('{"type":"action","id":%d,"index":0,"pad":[%s0]}' % (tid, "0," * (2 << 20)))
        elif mode == "half-line":
            out.write(b'{"type":"action","id":%d,"ind' % tid)
            out.flush()
            hang()
        elif mode == "twice":
            send(answer)
            send(answer)
        elif mode == "wrong-id":
            send('{"type":"action","id":%d,"index":0}' % (tid + 1000))
        elif mode == "unasked":
            send(answer)
            time.sleep(0.01)
            send('{"type":"action","id":0,"index":0}')
        elif mode == "sleep":
            time.sleep(2)
            send(answer)
        elif mode == "close-stdout":
            out.close()
            os.close(1)
            hang()
        elif mode == "mem-hog":
            hoard = hog(2048)
            hang()
            del hoard


if __name__ == "__main__":
    sys.exit(main())
