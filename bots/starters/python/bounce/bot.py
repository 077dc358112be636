#!/usr/bin/env python3
"""A Bounce starter bot: play a matching card (high points first, wilds
last, always with the call), name the colour it holds most, draw only when
nothing fits, and catch a player who forgot to say "Bounce!". Bounce is the
Russian Uno clone (forced play, an honest Wild Draw Four, a catch window):
the same views and actions as Uno. Copy this directory and make it yours.

Run it:  arena match --game bounce --bot me='python3 mybot/bot.py' --bot random='arena bot random'
The SDK (arenabot.py, next to this file) does the protocol; docs/sdk-python.md.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # find arenabot.py beside this file
import arenabot  # noqa: E402
from arenabot import uno  # noqa: E402


def act(view, legal, ctx):
    """Called for every turn: return one of legal (or its index)."""
    v = uno.View(view, legal)  # v.hand, v.top, v.colour, v.counts, v.actions ...

    # Catch a player who forgot the call (Bounce's catch window).
    for a in v.find("catch"):
        return a

    def score(a):
        s = a.card.points            # get rid of expensive cards first
        if a.uno:
            s += 1000                # never forget the call
        if a.card.is_wild:
            s -= 100                 # keep wilds for when nothing else fits
        if a.colour:
            s += 10 * v.count(a.colour)  # name the colour we hold most
        if a.target is not None:
            s -= v.counts[a.target]  # a 7 (seven_zero): swap with a small hand
        return s

    plays = v.plays()                # play, or jump in, with a card
    if plays:
        return max(plays, key=score)
    colours = v.find("colour")       # a starting Wild: name a colour
    if colours:
        return max(colours, key=lambda a: v.count(a.colour))
    return v.draw() or 0             # draw, pass, keep or accept


if __name__ == "__main__":
    arenabot.run(act, name="bounce-starter", version="1", games=("bounce",))
