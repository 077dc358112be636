#!/usr/bin/env python3
"""A Boon starter bot: take the Boon with a strong Gold hand, bury points,
win a trick cheaply when it can, give points to a partner who is winning,
otherwise play its smallest card. Copy this directory and make it yours.

Run it:  arena match --game boon --bot me='python3 mybot/bot.py' --bot a='arena bot random' --bot b='arena bot random'
The SDK (arenabot.py, next to this file) does the protocol; docs/sdk-python.md.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # find arenabot.py beside this file
import arenabot  # noqa: E402
from arenabot import boon  # noqa: E402


def act(view, legal, ctx):
    """Called for every turn: return one of legal (or its index)."""
    v = boon.View(view, legal)  # v.hand, v.trick, v.picker, v.partners, v.actions ...

    if v.decision == "take_or_pass":
        golds = [c for c in v.hand if c.is_gold]
        want = "take" if len(golds) * 2 >= len(v.hand) else "pass"
        return next(a for a in v.actions if a.type == want)

    if v.decision == "bury":
        # Buried points count for the picker: bury the plain cards worth most.
        return max(v.actions, key=lambda a: (not a.card.is_gold, a.card.points, -a.card.rank))

    cards = v.cards()                      # the cards we may play now
    trick = v.trick
    smallest = min(cards, key=lambda c: (c.points, c.is_gold, c.rank))
    if not trick.cards:                    # we lead: a low card
        return {"type": "play", "card": smallest.code}
    best = trick.winning_card()
    if trick.winner in v.partners:         # a partner is winning: give it points
        return {"type": "play", "card": max(cards, key=lambda c: (c.points, -c.rank)).code}
    winners = [c for c in cards if c.beats(best, trick.led)]
    if winners and v.mode != "least":      # win it as cheaply as we can
        return {"type": "play", "card": min(winners, key=lambda c: (c.is_gold, c.rank)).code}
    return {"type": "play", "card": smallest.code}


if __name__ == "__main__":
    arenabot.run(act, name="boon-starter", version="1", games=("boon",))
