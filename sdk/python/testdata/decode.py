"""The views test's bot: decodes every view it is sent with the typed
helpers and writes what it decoded, one JSON line per turn (and per end),
to the file named by argv[1]. It answers turn k with legal[(7*k) % n],
given in turn as an index, as the legal object and as a typed action."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arenabot  # noqa: E402
from arenabot import banqi, boon, uno  # noqa: E402

out = open(sys.argv[1], "w")


def emit(rec):
    out.write(json.dumps(rec, sort_keys=True) + "\n")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def banqi_rec(view, legal):
    b = banqi.Board(view, legal)
    squares = []
    for i, name in enumerate(banqi.SQUARES):
        p = b.piece_at(name)
        check(b[i] is p and b[name.upper()] is p, "index and name access differ at " + name)
        check(p.square == name, "square name")
        check(banqi.square_index(name) == i and banqi.square_name(i) == name, "square index")
        squares.append([name, p.letter, p.kind or "", p.colour or "", p.face_down, p.empty])
    check([p.square for p in b.squares()] == list(banqi.SQUARES), "iteration order")
    check(b.pieces(kind="c") == b.pieces(kind="Cannon"), "kind by letter and by name")
    fd, em = b.face_down(), b.empty()
    check(len(fd) + len(em) + len(b.pieces()) == 32, "face-down + empty + face-up != 32")
    rec = {
        "squares": squares,
        "pieces": {"red": len(b.pieces("red")), "black": len(b.pieces("black")),
                   "mine": len(b.pieces("mine")), "theirs": len(b.pieces("theirs")),
                   "cannons": len(b.pieces(kind="Cannon"))},
        "me": [b.seat, b.my_colour or ""],
        "to_move": b.to_move,
        "colour_to_move": b.colour_to_move or "",
        "my_turn": b.my_turn,
        "captured": dict((c, [p.kind for p in ps]) for c, ps in b.captured.items()),
        "facedown_pool": dict((c, len(ps)) for c, ps in b.facedown_pool.items()),
        "chain": b.chain or "",
        "legal": [[a.type, a.from_ or "", a.to or ""] for a in b.actions],
        "targets": [a.target.letter for a in b.captures()],
        "movers": [a.piece.letter for a in b.moves() + b.captures()],
    }
    stop = b.stop()
    check((stop is not None) == any(a["type"] == "stop" for a in legal), "stop()")
    return rec


def card_u(c):
    return [c.code, c.colour or "", c.kind, -1 if c.number is None else c.number, c.points, c.is_wild]


def uno_rec(view, legal):
    v = uno.View(view, legal)
    return {
        "hand": [card_u(c) for c in v.hand],
        "top": card_u(v.top),
        "colour": v.colour or "",
        "counts": v.counts,
        "others": dict((str(s), n) for s, n in v.others.items()),
        "direction": v.direction,
        "draw_pile": v.draw_pile,
        "to_move": v.to_move,
        "seat": v.seat,
        "decision": v.decision_kind or "",
        "legal": [[a.type, a.card.code if a.card else "", a.colour or "",
                   -1 if a.target is None else a.target, a.uno] for a in v.actions],
        "plays": len(v.plays()),
    }


def card_b(c):
    return [c.code, c.suit_name, c.rank, c.points, c.is_gold]


def boon_rec(view, legal):
    v = boon.View(view, legal)
    check(v.hand == sorted(v.hand), "hand not in sort order")
    return {
        "seat": v.seat,
        "hand": [card_b(c) for c in v.hand],
        "phase": v.phase,
        "mode": v.mode,
        "picker": v.picker,
        "is_picker": v.is_picker,
        "partners": v.partners,
        "vc": v.vc,
        "hand_sizes": v.hand_sizes,
        "trick": [[s, c.code] for s, c in v.trick.plays],
        "trick_winner": v.trick.winner,
        "tricks": len(v.tricks),
        "boon": None if v.boon is None else [c.code for c in v.boon],
        "buried": None if v.buried is None else [c.code for c in v.buried],
        "legal": [[a.type, a.card.code if a.card else ""] for a in v.actions],
    }


DECODE = {"banqi": banqi_rec, "uno": uno_rec, "bounce": uno_rec, "boon": boon_rec}


class Decoder(object):
    def start(self, ctx):
        emit({"hello": ctx.game_id, "game": ctx.game, "seat": ctx.seat, "seats": ctx.seats,
              "options": ctx.options})

    def act(self, view, legal, ctx):
        rec = DECODE[ctx.game](view, legal)
        rec["id"] = ctx.turn
        emit(rec)
        k = (7 * ctx.turn) % len(legal)
        way = ctx.turn % 3
        if way == 0:
            return k
        if way == 1:
            return dict(legal[k])
        acts = {"banqi": banqi.actions, "uno": uno.actions, "bounce": uno.actions,
                "boon": boon.actions}[ctx.game](legal)
        return acts[k]

    def end(self, result, ctx):
        rec = DECODE[ctx.game](result.view, [])
        rec.pop("legal")
        emit({"end": result.game_id, "rank": result.rank, "score": result.score,
              "won": result.won, "ranks": result.ranks, "reason": result.reason, "view": rec})


arenabot.run(Decoder, name="decode")
