#!/usr/bin/env python3
"""A Banqi starter bot: capture the most valuable piece it can, otherwise
flip or move at random. Copy this directory and make it yours.

Run it:  arena match --game banqi --bot me='python3 mybot/bot.py' --bot random='arena bot random'
The SDK (arenabot.py, next to this file) does the protocol; docs/sdk-python.md.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # find arenabot.py beside this file
import arenabot  # noqa: E402
from arenabot import banqi  # noqa: E402


def act(view, legal, ctx):
    """Called for every turn: return one of legal (or its index)."""
    board = banqi.Board(view, legal)  # board.piece_at("b3"), board.pieces("mine"), ...

    # 1. Capture if we can, the most valuable target first.
    captures = board.captures()
    if captures:
        return max(captures, key=lambda a: a.target.value)

    # 2. Otherwise a move that does not step next to an enemy that could
    #    take us (a rough safety check; cannons jump, so it is not perfect).
    def safe(a):
        for sq in banqi.neighbours(a.to):
            enemy = board.piece_at(sq)
            if enemy.up and enemy.colour != board.my_colour and enemy.can_take(a.piece, board.ranks):
                return False
        return True

    moves = [a for a in board.moves() if safe(a)]
    flips = board.flips()
    choices = moves + flips
    if not choices:  # everything is risky (or only "stop" is left)
        choices = board.actions
    # ctx.random is seeded from hello.seed: the same match replays the same way.
    return ctx.random.choice(choices)


if __name__ == "__main__":
    arenabot.run(act, name="banqi-starter", version="1", games=("banqi",))
