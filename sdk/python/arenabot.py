"""arenabot: write an arena bot in Python as one function.

One module, standard library only, Python 3.9 or later. Put this file next
to your bot.py and write:

    import arenabot

    def act(view, legal, ctx):
        return 0                      # an index into legal (or one of legal)

    arenabot.run(act)

The SDK speaks protocol v1 (docs/protocol.md) for you: the line loop on
stdin, one flushed JSON line per answer on stdout, hello/ready, the protocol
version check, echoing turn ids, seeding ctx.random from hello.seed for each
game, keep-alive across games, end and bye (also with stdin kept open),
unknown fields and message types, and logging to stderr. An exception in
your code, or an answer that is not legal, is reported on stderr with the
turn id and a traceback, and a legal move is played instead: your bot never
goes silent. print() inside your bot goes to stderr, never to the referee.

A bot is a function act(view, legal, ctx), or an object (an instance, a
class, or a module) with act and optional start(ctx) and end(result, ctx).

Typed helpers for the views of each game: arenabot.banqi, arenabot.uno
(also arenabot.bounce) and arenabot.boon. docs/sdk-python.md is the
reference.
"""

import json
import os
import random as _random
import sys
import time
import traceback
import types

__all__ = ["run", "serve", "Context", "Result", "Refuse", "PROTOCOL",
           "Engine", "EngineError", "Game", "State", "Observer",
           "banqi", "uno", "bounce", "boon"]

PROTOCOL = 1
"""The major protocol version this module speaks."""

VERSION = "1.0"
"""This module's own version."""


class Refuse(Exception):
    """Raise Refuse("why") in start(ctx) to refuse a game: the SDK answers
    the hello with an error message and the process exits (status 1)."""


# ---------------------------------------------------------------------------
# Context and result
# ---------------------------------------------------------------------------


class Context(object):
    """What the bot knows about its game besides the view.

    Set from hello at every game start: game, seat, seats, players, name
    (players[seat]), options (dict str -> str, as sent), hello (the raw
    message), game_id, match, seed, clock (the hello clock dict),
    startup_ms, margin_ms, base_ms, inc_ms (None when absent), and random, a
    random.Random seeded from hello.seed (and the seat) for this game.

    Set at every turn: turn (the turn id), turns (turns this game), view,
    legal, turn_clock (the turn's clock dict), move_ms, bank_ms (None
    without a bank), received (time.monotonic() when the turn line was
    read) and deadline (the monotonic time by which the answer is due,
    margin excluded). time_left() is the seconds left for this move.

    state is a dict for your own per-game data: the SDK empties it at every
    hello. log(...) writes one line to stderr.
    """

    def __init__(self):
        self.hello = {}
        self.game = ""
        self.seat = 0
        self.seats = 0
        self.players = []
        self.name = ""
        self.options = {}
        self.game_id = ""
        self.match = ""
        self.seed = 0
        self.clock = {}
        self.startup_ms = None
        self.margin_ms = None
        self.base_ms = None
        self.inc_ms = None
        self.random = _random.Random(0)
        self.state = {}
        self.games = 0
        self.turn = None
        self.turns = 0
        self.view = None
        self.legal = []
        self.turn_clock = {}
        self.move_ms = None
        self.bank_ms = None
        self.received = time.monotonic()
        self.deadline = None
        self.fallbacks = 0
        self._fallback = _random.Random(0)
        self._seen = []  # this game's turn views, as JSON text, for sample()
        self._observer = None
        self._fed = 0

    def time_left(self):
        """Seconds left to answer the current turn: its move_ms (which the
        referee already limits by your bank) less the time since the turn
        line was read, never below 0. The margin is not included: leave
        yourself headroom. float('inf') when there is no limit at all."""
        if self.deadline is None:
            return float("inf")
        return max(0.0, self.deadline - time.monotonic())

    def elapsed(self):
        """Seconds since the current turn line was read."""
        return time.monotonic() - self.received

    def option(self, name, default=None):
        """hello.options[name] (a string), or default."""
        return self.options.get(name, default)

    def option_bool(self, name, default=False):
        """An option read as a boolean ("true" is True)."""
        v = self.options.get(name)
        return default if v is None else v == "true"

    def option_int(self, name, default=0):
        """An option read as an integer."""
        try:
            return int(self.options[name])
        except (KeyError, ValueError):
            return default

    def log(self, *args):
        """print(*args) to stderr (the only place for logs), flushed."""
        print(*args, file=_stderr, flush=True)

    def engine(self):
        """The bot process's rules engine (Engine.shared()): started on
        first use, kept across games. Its CPU time is the bot's own."""
        return Engine.shared()

    def game_rules(self):
        """A Game of this game's rules: its name, seats and options."""
        return Game(self.game, self.seats, self.options, engine=self.engine())

    def sample(self, seed=None):
        """A State of this game consistent with every view this bot has
        been sent in it: the hidden cards dealt at random among those that
        fit (EngineError "no_sampler" for a game with nothing hidden). The
        first call of a game starts the engine if need be, and an observer
        fed every view so far; later calls feed only the new views, in the
        same line as the sample. seed: default from ctx.random."""
        if seed is None:
            seed = self.random.getrandbits(63)
        return _sample(self, seed)

    def __repr__(self):
        return "Context(game=%r, seat=%r, seats=%r, game_id=%r, turn=%r)" % (
            self.game, self.seat, self.seats, self.game_id, self.turn)

    def _start(self, hello, received):
        self.hello = hello
        self.game = str(hello.get("game", ""))
        self.seat = _int(hello.get("seat"), 0)
        self.seats = _int(hello.get("seats"), 0)
        players = hello.get("players")
        self.players = list(players) if isinstance(players, list) else []
        self.name = self.players[self.seat] if 0 <= self.seat < len(self.players) else ""
        opts = hello.get("options")
        self.options = dict((str(k), str(v)) for k, v in opts.items()) if isinstance(opts, dict) else {}
        self.game_id = str(hello.get("game_id", ""))
        self.match = str(hello.get("match", ""))
        self.seed = _int(hello.get("seed"), 0)
        clock = hello.get("clock")
        self.clock = clock if isinstance(clock, dict) else {}
        self.startup_ms = _opt_int(self.clock.get("startup_ms"))
        self.margin_ms = _opt_int(self.clock.get("margin_ms"))
        self.base_ms = _opt_int(self.clock.get("base_ms"))
        self.inc_ms = _opt_int(self.clock.get("inc_ms"))
        self.move_ms = _opt_int(self.clock.get("move_ms"))
        self.bank_ms = self.base_ms
        self.random = _random.Random(self.seed * 31 + self.seat)
        self._fallback = _random.Random(self.seed * 31 + self.seat + 7)
        self.state = {}
        self.games += 1
        self.turn = None
        self.turns = 0
        self.view = None
        self.legal = []
        self.turn_clock = {}
        self.fallbacks = 0
        self._seen = []
        self._observer = None  # freed with a later request
        self._fed = 0
        self.received = received
        self.deadline = None
        if self.startup_ms is not None:
            self.deadline = received + self.startup_ms / 1000.0

    def _turn(self, msg, received):
        self.turn = msg.get("id")
        self.turns += 1
        self.view = msg.get("view")
        self._seen.append(json.dumps(self.view, separators=(",", ":")).encode("utf-8"))
        legal = msg.get("legal")
        self.legal = legal if isinstance(legal, list) else []
        clock = msg.get("clock")
        self.turn_clock = clock if isinstance(clock, dict) else {}
        self.move_ms = _opt_int(self.turn_clock.get("move_ms"))
        self.bank_ms = _opt_int(self.turn_clock.get("bank_ms"))
        self.received = received
        ms = self.move_ms if self.move_ms is not None else self.bank_ms
        self.deadline = None if ms is None else received + ms / 1000.0


class Result(object):
    """A finished game, passed to end(result, ctx): ranks and scores per
    seat, reason, forfeits (list of strings), view (your final view), the
    raw end message, and for your seat rank, score and won (rank 1)."""

    def __init__(self, msg, seat):
        self.msg = msg
        self.game_id = str(msg.get("game_id", ""))
        self.ranks = msg.get("ranks") or []
        self.scores = msg.get("scores") or []
        self.reason = str(msg.get("reason", ""))
        self.forfeits = msg.get("forfeits") or []
        self.view = msg.get("view")
        self.seat = seat
        self.rank = self.ranks[seat] if 0 <= seat < len(self.ranks) else None
        self.score = self.scores[seat] if 0 <= seat < len(self.scores) else None
        self.won = self.rank == 1

    def __repr__(self):
        return "Result(game_id=%r, ranks=%r, scores=%r, reason=%r)" % (
            self.game_id, self.ranks, self.scores, self.reason)


def _int(v, default):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return default
    return int(v)


def _opt_int(v):
    return _int(v, None)


# ---------------------------------------------------------------------------
# The protocol loop
# ---------------------------------------------------------------------------

_stderr = sys.stderr


def _dump(msg):
    return (json.dumps(msg, separators=(",", ":"), ensure_ascii=True) + "\n").encode("ascii")


class _Bot(object):
    """The user's bot in one shape: act, start, end."""

    def __init__(self, bot):
        if isinstance(bot, type):
            bot = bot()
        if callable(getattr(bot, "act", None)):
            self.act = bot.act
            self.start = getattr(bot, "start", None)
            self.end = getattr(bot, "end", None)
        elif callable(bot):
            self.act, self.start, self.end = bot, None, None
        else:
            raise TypeError("arenabot: a bot is a function act(view, legal, ctx) "
                            "or an object with an act method, not %r" % (bot,))
        if not callable(self.start):
            self.start = None
        if not callable(self.end):
            self.end = None
        name = getattr(bot, "name", None) if self.act is not bot else None
        self.name = name if isinstance(name, str) else None


class _BadAnswer(ValueError):
    """What act returned stands for no legal action (_choose)."""


def _choose(answer, legal):
    """The index in legal that answer stands for, or raises _BadAnswer."""
    if answer is None:
        raise _BadAnswer("act returned None (return an index into legal, or one of legal)")
    if isinstance(answer, bool):
        raise _BadAnswer("act returned %r, a bool (return an index into legal)" % (answer,))
    idx = getattr(answer, "index", None)
    raw = getattr(answer, "raw", None)
    if isinstance(idx, int) and not isinstance(idx, bool) and isinstance(raw, dict):
        # A typed action of the helpers: its index, if it is this turn's.
        if 0 <= idx < len(legal) and legal[idx] == raw:
            return idx
        answer = raw
    if isinstance(answer, dict):
        for i, a in enumerate(legal):
            if a == answer:
                return i
        raise _BadAnswer("act returned %s, which is not one of the %d legal actions"
                         % (json.dumps(answer, sort_keys=True), len(legal)))
    try:
        i = answer.__index__()
    except (AttributeError, TypeError):
        raise _BadAnswer("act returned %r of type %s (return an index into legal, or one of legal)"
                         % (answer, type(answer).__name__))
    if not 0 <= i < len(legal):
        raise _BadAnswer("act returned index %d, out of range 0..%d" % (i, len(legal) - 1))
    return i


def serve(bot, stdin=None, stdout=None, name=None, version=None, games=None):
    """Serves one bot process: many games, until bye or end of input.
    stdin and stdout are binary streams (default: the process's own).
    Returns the exit status: 0 after bye or end of input, 1 after refusing
    a game. run() is serve() plus sys.exit."""
    b = _Bot(bot)
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    if name is None:
        name = b.name
    if name is None:
        name = os.path.splitext(os.path.basename(sys.argv[0] or "bot"))[0] or "bot"
    ready = {"type": "ready", "name": name}
    if version is not None:
        ready["version"] = str(version)
    ctx = Context()

    def send(msg):
        out.write(_dump(msg))
        out.flush()

    def refuse(message):
        ctx.log("arenabot: refusing game %s: %s" % (ctx.game_id, message))
        send({"type": "error", "message": message})
        return 1

    while True:
        line = inp.readline()
        received = time.monotonic()
        if not line:
            return 0  # end of input means the same as bye
        line = line.rstrip(b"\r\n")
        if not line.strip():
            continue
        try:
            msg = json.loads(line.decode("utf-8"))
        except ValueError as e:
            _stderr.write("arenabot: ignoring an unreadable line from the referee (%s): %r\n"
                          % (e, line[:200]))
            _stderr.flush()
            continue
        if not isinstance(msg, dict):
            continue
        kind = msg.get("type")
        if kind == "hello":
            proto = msg.get("protocol")
            if proto != PROTOCOL or isinstance(proto, bool):
                return refuse("unsupported protocol version %s (this bot speaks %d)"
                              % (json.dumps(proto), PROTOCOL))
            ctx._start(msg, received)
            if games is not None and ctx.game not in games:
                return refuse("this bot only plays %s, not %s"
                              % (", ".join(games), json.dumps(ctx.game)))
            if b.start is not None:
                try:
                    b.start(ctx)
                except Refuse as e:
                    return refuse(str(e) or "the bot refused the game")
                except Exception:
                    _report(ctx, "start(ctx) raised an exception; playing the game anyway")
            send(ready)
        elif kind == "turn":
            ctx._turn(msg, received)
            legal = ctx.legal
            note = None
            try:
                answer = b.act(ctx.view, legal, ctx)
                if isinstance(answer, tuple) and len(answer) == 2:
                    answer, note = answer  # return action, note
                index = _choose(answer, legal)
            except Exception as e:
                index = ctx._fallback.randrange(len(legal)) if legal else 0
                ctx.fallbacks += 1
                if isinstance(e, _BadAnswer):
                    _stderr.write("arenabot: game %s turn %s: %s; playing legal[%d] %s instead\n"
                                  % (ctx.game_id, ctx.turn, e, index, _short(legal, index)))
                    _stderr.flush()
                else:
                    _report(ctx, "act raised an exception; playing legal[%d] %s instead"
                            % (index, _short(legal, index)))
            reply = {"type": "action", "id": ctx.turn, "index": index}
            if _note_ok(note, ctx):
                reply["note"] = note
            send(reply)
        elif kind == "end":
            if ctx.fallbacks:
                ctx.log("arenabot: game %s: %d of %d turns were fallback moves (see above)"
                        % (ctx.game_id, ctx.fallbacks, ctx.turns))
            if b.end is not None:
                try:
                    b.end(Result(msg, ctx.seat), ctx)
                except Exception:
                    _report(ctx, "end(result, ctx) raised an exception")
        elif kind == "bye":
            return 0
        # any other message type is ignored (protocol.md: forward compatibility)


def _note_ok(note, ctx):
    """Whether act's note (return action, note) can go with the move: a str
    or a dict that encodes as JSON. The referee keeps at most 1 KiB of its
    JSON and records why it drops one (docs/protocol.md); a note that
    cannot be encoded at all is left out here, with a line on stderr."""
    if note is None:
        return False
    why = None
    if not isinstance(note, (str, dict)):
        why = "a note is a str or a dict, not %s" % type(note).__name__
    else:
        try:
            json.dumps(note, ensure_ascii=True, allow_nan=False)
        except (TypeError, ValueError) as e:
            why = "it does not encode as JSON (%s)" % e
    if why is not None:
        _stderr.write("arenabot: game %s turn %s: note not sent: %s\n" % (ctx.game_id, ctx.turn, why))
        _stderr.flush()
        return False
    return True


def _short(legal, index):
    if 0 <= index < len(legal):
        return json.dumps(legal[index], separators=(",", ":"))
    return "?"


def _report(ctx, what):
    _stderr.write("arenabot: game %s turn %s: %s\n%s" % (
        ctx.game_id, ctx.turn if ctx.turn is not None else "-", what, traceback.format_exc()))
    _stderr.flush()


def run(bot, name=None, version=None, games=None):
    """Runs bot as this process's arena bot and exits: status 0 after bye or
    end of input, 1 after refusing a game.

    bot: a function act(view, legal, ctx), or an object, class (made once)
    or module with act and optional start(ctx) and end(result, ctx).
    name, version: sent in ready (default: the script's name, "1").
    games: the game names the bot plays (others are refused), e.g.
    ("uno", "bounce"); default any.

    stdout is kept for the protocol: the protocol stream is a copy of file
    descriptor 1, which then points at stderr, as sys.stdout does, so a
    print() anywhere in the bot, a library's C code or a subprocess it
    starts lands in its log, never among the protocol lines."""
    sys.stdout.flush()
    try:
        out = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
    except OSError:  # no file descriptors to move (an embedded interpreter)
        out = sys.stdout.buffer
    sys.stdout = sys.stderr
    try:
        code = serve(bot, sys.stdin.buffer, out, name=name, version=version, games=games)
    except (BrokenPipeError, KeyboardInterrupt):
        code = 0
    try:
        sys.stderr.flush()
    except Exception:
        pass
    sys.exit(code)


# ---------------------------------------------------------------------------
# Helpers shared by the games
# ---------------------------------------------------------------------------


def _namespace(name, doc, **members):
    mod = types.ModuleType(__name__ + "." + name, doc)
    for k, v in members.items():
        setattr(mod, k, v)
    mod.__all__ = sorted(members)
    sys.modules[mod.__name__] = mod
    return mod


class _Action(object):
    """Base of the typed actions: index (in legal), raw (the legal dict),
    type. Return one from act() to choose it."""

    __slots__ = ("index", "raw", "type")

    def __eq__(self, other):
        if isinstance(other, _Action):
            return self.raw == other.raw
        if isinstance(other, dict):
            return self.raw == other
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        return hash(json.dumps(self.raw, sort_keys=True))

    def __repr__(self):
        return "<%s %s #%d>" % (type(self).__name__, self, self.index)


# ---------------------------------------------------------------------------
# Banqi
# ---------------------------------------------------------------------------

BANQI_FILES = "abcd"
BANQI_KINDS = {"K": "King", "G": "Guard", "M": "Minister", "R": "Rook",
               "N": "Knight", "C": "Cannon", "P": "Pawn"}
BANQI_LETTERS = "KGMRNCP"
# The square names in the engine's index order: a8 b8 c8 d8 a7 ... d1.
BANQI_SQUARES = tuple(f + str(r) for r in range(8, 0, -1) for f in BANQI_FILES)
_BANQI_INDEX = dict((s, i) for i, s in enumerate(BANQI_SQUARES))
# Capture order (rank, higher takes equal or lower) per ranks option.
_BANQI_RANKS = {
    "taiwan": {"K": 7, "G": 6, "M": 5, "R": 4, "N": 3, "C": 2, "P": 1},
    "hk": {"K": 7, "R": 6, "N": 5, "C": 4, "G": 3, "M": 2, "P": 1},
}
# Rough material values for evaluation (a Cannon is strong under taiwan).
BANQI_VALUES = {"K": 6, "G": 5, "M": 4, "R": 3, "N": 2, "C": 4, "P": 1}


def _banqi_square(sq):
    if isinstance(sq, int) and not isinstance(sq, bool):
        if 0 <= sq < 32:
            return BANQI_SQUARES[sq]
        raise ValueError("banqi square index %d out of range 0..31" % sq)
    s = str(sq).lower()
    if s not in _BANQI_INDEX:
        raise ValueError("bad banqi square %r (want a1-d8)" % (sq,))
    return s


def banqi_square_index(name):
    """The engine's index of a square: a8=0, b8=1, ..., d1=31."""
    return _BANQI_INDEX[_banqi_square(name)]


def banqi_square_name(index):
    """The name of an engine square index: 0 -> "a8", 31 -> "d1"."""
    return _banqi_square(index)


def banqi_neighbours(square):
    """The squares orthogonally next to square, e.g. "a1" -> ["a2", "b1"]."""
    s = _banqi_square(square)
    f, r = BANQI_FILES.index(s[0]), int(s[1])
    out = []
    for df, dr in ((0, 1), (0, -1), (-1, 0), (1, 0)):
        if 0 <= f + df < 4 and 1 <= r + dr <= 8:
            out.append(BANQI_FILES[f + df] + str(r + dr))
    return out


def banqi_can_take(attacker, target, ranks="taiwan"):
    """Whether a piece of kind attacker may capture one of kind target by
    rank (kinds as letters "K".."P" or names "King".."Pawn", any case). The
    geometry is not judged: a Taiwanese Cannon takes anything, but only by
    jumping; use the legal list for what is possible now."""
    a, t = _banqi_letter(attacker), _banqi_letter(target)
    if ranks == "taiwan" and a == "C":
        return True
    if a == "K" and t == "P":
        return False
    if a == "P" and t == "K":
        return True
    order = _BANQI_RANKS.get(ranks, _BANQI_RANKS["taiwan"])
    return order[a] >= order[t]


def _banqi_letter(kind):
    if isinstance(kind, BanqiPiece):
        kind = kind.letter
    k = str(kind)
    if len(k) == 1 and k.upper() in BANQI_KINDS:
        return k.upper()
    for letter, n in BANQI_KINDS.items():
        if n.lower() == k.lower():
            return letter
    raise ValueError("bad banqi piece kind %r (want K G M R N C P or King .. Pawn)" % (kind,))


class BanqiPiece(object):
    """What one square holds. letter: the board letter ("K", "p", "X" face
    down, "-" empty); square (None for captured or face-down pool pieces);
    empty, face_down, up (face up); colour "red"/"black" (None unless face
    up); kind "King", "Guard", "Minister", "Rook", "Knight", "Cannon",
    "Pawn" (None unless face up); kind_letter the upper-case letter."""

    __slots__ = ("letter", "square", "empty", "face_down", "up", "colour", "kind", "kind_letter")

    def __init__(self, letter, square=None):
        self.letter = letter
        self.square = square
        self.empty = letter in "-."
        self.face_down = letter == "X"
        self.up = letter.upper() in BANQI_KINDS and len(letter) == 1
        if self.up:
            self.kind_letter = letter.upper()
            self.kind = BANQI_KINDS[self.kind_letter]
            self.colour = "red" if letter.isupper() else "black"
        else:
            self.kind_letter = self.kind = self.colour = None

    @property
    def value(self):
        """A rough material value (BANQI_VALUES), 0 unless face up."""
        return BANQI_VALUES.get(self.kind_letter, 0)

    def can_take(self, other, ranks="taiwan"):
        """Rank rule only (see banqi.can_take); False unless both are face up."""
        if not (self.up and isinstance(other, BanqiPiece) and other.up):
            return False
        return self.colour != other.colour and banqi_can_take(self.kind_letter, other.kind_letter, ranks)

    def __eq__(self, other):
        if isinstance(other, BanqiPiece):
            return self.letter == other.letter and self.square == other.square
        return NotImplemented

    def __hash__(self):
        return hash((self.letter, self.square))

    def __str__(self):
        if self.up:
            return "%s %s" % (self.colour, self.kind)
        return "face-down" if self.face_down else "empty"

    def __repr__(self):
        return "<Piece %s%s>" % (self.letter, " on " + self.square if self.square else "")


class BanqiAction(_Action):
    """A Banqi legal action: type "flip", "move", "capture" or "stop";
    square (a flip's square), from_ and to (move and capture; for a flip
    both are its square); piece (what stands on from_) and target (what
    stands on to) when decoded by a Board; index and raw."""

    __slots__ = ("square", "from_", "to", "piece", "target")

    def __init__(self, raw, index, board=None):
        self.raw, self.index = raw, index
        self.type = str(raw.get("type", ""))
        self.square = raw.get("square")
        self.from_ = raw.get("from", self.square)
        self.to = raw.get("to", self.square)
        self.piece = board.piece_at(self.from_) if board is not None and self.from_ else None
        self.target = board.piece_at(self.to) if board is not None and self.to else None

    is_flip = property(lambda self: self.type == "flip")
    is_move = property(lambda self: self.type == "move")
    is_capture = property(lambda self: self.type == "capture")
    is_stop = property(lambda self: self.type == "stop")

    def __str__(self):
        if self.type == "flip":
            return str(self.square)
        if self.type in ("move", "capture"):
            return "%s-%s" % (self.from_, self.to)
        return self.type


def banqi_actions(legal, board=None):
    """The legal list as BanqiActions (in order, so actions[i].index == i)."""
    return [BanqiAction(a, i, board) for i, a in enumerate(legal)]


class BanqiBoard(object):
    """A Banqi view, decoded. Board(view, legal=None).

    board.piece_at("b3") (also board["b3"], or an engine index 0..31) is a
    Piece; board.squares() yields every Piece from a8 to d1 (engine order);
    board.pieces(colour=None, kind=None) the face-up ones; board.face_down()
    and board.empty() their squares. seat, my_colour ("red", "black" or
    None before the first flip), opponent_colour, colours (per seat),
    to_move (seat), colour_to_move, my_turn, chain (square or None), last,
    ply, plies_since_progress, repeats, ranks; captured and facedown_pool
    are {"red": [Piece...], "black": [...]}. With legal: board.actions
    (BanqiActions), flips(), moves(), captures(), stop()."""

    def __init__(self, view, legal=None):
        self.view = view
        rows = view.get("board") or []
        self._cells = []
        for r, row in enumerate(rows):
            for f, letter in enumerate(row):
                self._cells.append(BanqiPiece(letter, BANQI_SQUARES[r * 4 + f]))
        if len(self._cells) != 32:
            raise ValueError("banqi view: board has %d squares, want 32" % len(self._cells))
        you = view.get("you")
        self.seat = you.get("seat") if isinstance(you, dict) else None
        self.my_colour = you.get("colour") if isinstance(you, dict) else None
        self.opponent_colour = {"red": "black", "black": "red"}.get(self.my_colour)
        self.colours = list(view.get("colours") or [None, None])
        self.to_move = view.get("to_move")
        self.colour_to_move = self.colours[self.to_move] if isinstance(self.to_move, int) and 0 <= self.to_move < len(self.colours) else None
        self.my_turn = self.seat is not None and self.seat == self.to_move
        self.chain = view.get("chain")
        self.last = view.get("last")
        self.ply = view.get("ply", 0)
        self.plies_since_progress = view.get("plies_since_progress", 0)
        self.repeats = view.get("repeats", 1)
        self.ranks = view.get("ranks", "taiwan")
        cap = view.get("captured") or {}
        fd = view.get("facedown") or {}
        self.captured = dict((c, [BanqiPiece(l) for l in cap.get(c, "")]) for c in ("red", "black"))
        self.facedown_pool = dict((c, [BanqiPiece(l) for l in fd.get(c, "")]) for c in ("red", "black"))
        self.legal = legal
        self.actions = banqi_actions(legal, self) if legal is not None else None

    def piece_at(self, square):
        """The Piece on a square ("b3", or an engine index 0..31)."""
        return self._cells[banqi_square_index(square)]

    __getitem__ = piece_at

    def squares(self):
        """Every square's Piece, a8 b8 c8 d8 a7 ... d1."""
        return iter(self._cells)

    __iter__ = squares

    def pieces(self, colour=None, kind=None):
        """The face-up pieces, optionally of one colour ("red", "black",
        "mine", "theirs") and kind (letter or name)."""
        if colour in ("mine", "theirs"):
            colour = self.my_colour if colour == "mine" else self.opponent_colour
            if colour is None:
                return []  # no colours before the first flip
        k = _banqi_letter(kind) if kind is not None else None
        return [p for p in self._cells if p.up and (colour is None or p.colour == colour)
                and (k is None or p.kind_letter == k)]

    def face_down(self):
        """The squares holding a face-down piece."""
        return [p.square for p in self._cells if p.face_down]

    def empty(self):
        """The empty squares."""
        return [p.square for p in self._cells if p.empty]

    def _of(self, kind):
        if self.actions is None:
            raise ValueError("banqi.Board: pass legal, Board(view, legal), to list actions")
        return [a for a in self.actions if a.type == kind]

    def flips(self):
        return self._of("flip")

    def moves(self):
        return self._of("move")

    def captures(self):
        return self._of("capture")

    def stop(self):
        """The stop action (chain_capture), or None."""
        s = self._of("stop")
        return s[0] if s else None

    def rows(self):
        """The board as 8 strings, row 8 first (as in the view)."""
        return list(self.view.get("board") or [])

    def __str__(self):
        lines = ["    a b c d"]
        for r, row in enumerate(self.rows()):
            lines.append("%d   %s   %d" % (8 - r, " ".join(row), 8 - r))
        lines.append("    a b c d")
        return "\n".join(lines)


banqi = _namespace(
    "banqi", "Banqi helpers: Board(view, legal), Piece, Action, squares.",
    Board=BanqiBoard, Piece=BanqiPiece, Action=BanqiAction, actions=banqi_actions,
    SQUARES=BANQI_SQUARES, FILES=BANQI_FILES, KINDS=BANQI_KINDS, LETTERS=BANQI_LETTERS,
    VALUES=BANQI_VALUES, square_index=banqi_square_index, square_name=banqi_square_name,
    neighbours=banqi_neighbours, can_take=banqi_can_take)


# ---------------------------------------------------------------------------
# Uno and Bounce
# ---------------------------------------------------------------------------

UNO_COLOURS = ("red", "yellow", "green", "blue")
_UNO_LETTER = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
_UNO_FACES = {"S": "skip", "R": "reverse", "D2": "draw_two"}


class _Card(object):
    """A card known by its code: equal to a card of its kind with that code,
    or to the code itself ("R7" == uno.Card("R7"))."""

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, type(self)):
            return self.code == other.code
        if isinstance(other, str):
            return self.code == other
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self.code)

    def __str__(self):
        return self.code

    def __repr__(self):
        return "<Card %s>" % self.code


class UnoCard(_Card):
    """An Uno/Bounce card from its code ("R7", "GS", "BR", "YD2", "W",
    "WD4"). code; colour "red"/"yellow"/"green"/"blue" (None for wilds);
    face "0".."9", "S", "R", "D2", "W" or "WD4"; kind "number", "skip",
    "reverse", "draw_two", "wild" or "wild_draw_four"; number (0-9 or
    None); is_wild, is_number, is_action; points (face value, 20, 50)."""

    __slots__ = ("code", "colour", "face", "kind", "number", "is_wild", "points")

    def __init__(self, code):
        code = str(code)
        self.code = code
        if code in ("W", "WD4"):
            self.colour = None
            self.face = code
            self.kind = "wild" if code == "W" else "wild_draw_four"
            self.number = None
            self.is_wild = True
            self.points = 50
            return
        if len(code) < 2 or code[0] not in _UNO_LETTER:
            raise ValueError("bad uno card %r (want e.g. R7, GS, BR, YD2, W, WD4)" % (code,))
        self.colour = _UNO_LETTER[code[0]]
        self.face = code[1:]
        self.is_wild = False
        if self.face.isdigit() and len(self.face) == 1:
            self.kind, self.number, self.points = "number", int(self.face), int(self.face)
        elif self.face in _UNO_FACES:
            self.kind, self.number, self.points = _UNO_FACES[self.face], None, 20
        else:
            raise ValueError("bad uno card %r (want e.g. R7, GS, BR, YD2, W, WD4)" % (code,))

    is_number = property(lambda self: self.kind == "number")
    is_action = property(lambda self: self.kind in ("skip", "reverse", "draw_two", "wild_draw_four"))
    is_draw = property(lambda self: self.kind in ("draw_two", "wild_draw_four"))

    def matches(self, top, colour):
        """Whether this card may be played on top (a card or code) with the
        active colour colour by the colour-or-face rule (a wild always). The
        legal list is the authority (draw decisions, stacking, jump-in)."""
        if self.is_wild:
            return True
        top = top if isinstance(top, UnoCard) else UnoCard(top)
        return self.colour == colour or (not top.is_wild and self.face == top.face)



class UnoAction(_Action):
    """An Uno/Bounce legal action: type "play", "draw", "keep", "pass",
    "challenge", "accept", "jump", "catch" or "colour"; card (UnoCard, for
    play and jump), colour (the colour a wild play or a colour action
    names), target (a 7's swap seat under seven_zero), uno (the call);
    is_play (play or jump); index and raw."""

    __slots__ = ("card", "colour", "target", "uno")

    def __init__(self, raw, index):
        self.raw, self.index = raw, index
        self.type = str(raw.get("type", ""))
        c = raw.get("card")
        self.card = UnoCard(c) if c is not None else None
        self.colour = raw.get("colour")
        self.target = raw.get("target")
        self.uno = bool(raw.get("uno", False))

    is_play = property(lambda self: self.type in ("play", "jump"))

    def __str__(self):
        if self.card is None:
            return self.type + (":" + self.colour if self.colour else "")
        s = ("jump " if self.type == "jump" else "") + self.card.code
        if self.colour:
            s += ":" + self.colour
        if self.target is not None:
            s += ">%d" % self.target
        return s + ("!" if self.uno else "")


def uno_actions(legal):
    """The legal list as UnoActions (actions[i].index == i)."""
    return [UnoAction(a, i) for i, a in enumerate(legal)]


class UnoView(object):
    """An Uno/Bounce view, decoded. View(view, legal=None).

    seat (you), hand (UnoCards), top (UnoCard), colour (the active colour,
    None until a starting Wild's colour is named), direction (1 clockwise,
    -1), dealer, hand_no, to_move, my_turn, counts (cards per seat),
    others ({seat: count} for the other seats), next_seat (who plays after
    you), scores, finished, draw_pile (cards in it), discard (UnoCards,
    bottom first), events (dicts), decision (dict or None), decision_kind
    ("play", "drawn", "pending", "colour", "jump" or None), pending (cards
    you draw if you accept), hands, action_count (the view's "actions":
    actions every seat has seen), over, rules (dict). With legal: actions
    (UnoActions), plays(), draw() (the draw or pass action), find(type)."""

    def __init__(self, view, legal=None):
        self.view = view
        self.seat = view.get("you")
        self.hand = [UnoCard(c) for c in (view.get("hand") or [])]
        top = view.get("top")
        self.top = UnoCard(top) if top else None
        self.colour = view.get("colour")
        self.direction = view.get("direction", 1)
        self.dealer = view.get("dealer")
        self.hand_no = view.get("hand_no")
        self.to_move = view.get("to_move")
        self.my_turn = self.seat is not None and self.seat == self.to_move
        self.counts = list(view.get("counts") or [])
        self.hand_sizes = self.counts
        self.others = dict((s, n) for s, n in enumerate(self.counts) if s != self.seat)
        self.scores = list(view.get("scores") or [])
        self.finished = list(view.get("finished") or [])
        self.draw_pile = view.get("draw_pile", 0)
        self.discard = [UnoCard(c) for c in (view.get("discard") or [])]
        self.events = list(view.get("events") or [])
        self.decision = view.get("decision")
        self.decision_kind = self.decision.get("kind") if isinstance(self.decision, dict) else None
        self.pending = self.decision.get("pending", 0) if isinstance(self.decision, dict) else 0
        self.hands = list(view.get("hands") or [])
        self.action_count = view.get("actions", 0)
        self.over = bool(view.get("over", False))
        self.rules = view.get("rules") or {}
        self.legal = legal
        self.actions = uno_actions(legal) if legal is not None else None

    @property
    def seats(self):
        return len(self.counts)

    @property
    def next_seat(self):
        """The seat after yours in the direction of play (ignoring skips
        and seats out of the hand)."""
        if self.seat is None or not self.counts:
            return None
        return (self.seat + self.direction) % len(self.counts)

    def _need(self):
        if self.actions is None:
            raise ValueError("uno.View: pass legal, View(view, legal), to list actions")
        return self.actions

    def plays(self):
        """The play and jump actions."""
        return [a for a in self._need() if a.is_play]

    def find(self, type):
        """The actions of one type ("draw", "keep", "accept", ...)."""
        return [a for a in self._need() if a.type == type]

    def draw(self):
        """The draw action, else pass or keep or accept: what to do when
        not playing; None if there is none."""
        for t in ("draw", "pass", "keep", "accept"):
            f = self.find(t)
            if f:
                return f[0]
        return None

    def count(self, colour):
        """How many cards of a colour you hold."""
        return sum(1 for c in self.hand if c.colour == colour)

    def __str__(self):
        return "top %s colour %s hand %s counts %s" % (
            self.top, self.colour, " ".join(c.code for c in self.hand), self.counts)


uno = _namespace(
    "uno", "Uno and Bounce helpers: View(view, legal), Card, Action.",
    View=UnoView, Card=UnoCard, Action=UnoAction, actions=uno_actions, COLOURS=UNO_COLOURS)
bounce = uno
sys.modules[__name__ + ".bounce"] = uno


# ---------------------------------------------------------------------------
# Boon
# ---------------------------------------------------------------------------

BOON_SUITS = {"B": "blue", "G": "green", "R": "red", "Au": "gold"}
_BOON_POINTS = {1: 0, 2: 0, 3: 0, 4: 4, 5: 10, 6: 11, 7: 2, 8: 2, 9: 2, 10: 2,
                11: 3, 12: 3, 13: 3, 14: 3}


class BoonCard(_Card):
    """A Boon card from its code ("B5", "G1", "R6", "Au14"). code; suit
    the code "B", "G", "R" or "Au"; suit_name "blue", "green", "red",
    "gold"; rank (1-6, Gold 1-14); points; is_gold (trump); order (the
    engine's sort order, 0..31)."""

    __slots__ = ("code", "suit", "suit_name", "rank", "points", "is_gold", "order")

    def __init__(self, code):
        code = str(code)
        s = "Au" if code[:2].lower() == "au" else code[:1].upper()
        rank = code[len(s):]
        if s not in BOON_SUITS or not rank.isdigit():
            raise ValueError("bad boon card %r (want B1-B6, G1-G6, R1-R6 or Au1-Au14)" % (code,))
        self.suit = s
        self.rank = int(rank)
        if not 1 <= self.rank <= (14 if s == "Au" else 6):
            raise ValueError("bad boon card %r (want B1-B6, G1-G6, R1-R6 or Au1-Au14)" % (code,))
        self.code = s + str(self.rank)
        self.suit_name = BOON_SUITS[s]
        self.is_gold = s == "Au"
        self.points = _BOON_POINTS[self.rank]
        self.order = "BGRA".index(s[0]) * 6 + self.rank - 1

    def beats(self, other, led):
        """Whether this card beats other in a trick whose led suit is led
        ("B", "G", "R", "Au"): the higher Gold, else the higher card of the
        led suit."""
        other = other if isinstance(other, BoonCard) else BoonCard(other)
        if self.is_gold != other.is_gold:
            return self.is_gold
        if self.suit == other.suit:
            return self.rank > other.rank
        return self.suit == led


    def __lt__(self, other):
        return self.order < other.order



class BoonTrick(object):
    """A trick: leader, led (suit code, "" before the first card), cards
    (BoonCards in play order), plays ([(seat, BoonCard)]), winner (-1 if
    empty), points."""

    def __init__(self, t, seats):
        self.leader = t.get("leader", 0)
        self.led = t.get("led", "")
        self.cards = [BoonCard(c) for c in (t.get("cards") or [])]
        self.plays = [((self.leader + i) % seats if seats else i, c) for i, c in enumerate(self.cards)]
        self.winner = t.get("winner", -1)
        self.points = t.get("points", 0)

    def winning_card(self):
        for s, c in self.plays:
            if s == self.winner:
                return c
        return None

    def __repr__(self):
        return "<Trick led by %s: %s>" % (self.leader, " ".join(c.code for c in self.cards))


class BoonAction(_Action):
    """A Boon legal action: type "take", "pass", "bury" or "play"; card
    (BoonCard, for bury and play); index and raw."""

    __slots__ = ("card",)

    def __init__(self, raw, index):
        self.raw, self.index = raw, index
        self.type = str(raw.get("type", ""))
        c = raw.get("card")
        self.card = BoonCard(c) if c is not None else None

    def __str__(self):
        return self.type + (" " + self.card.code if self.card else "")


def boon_actions(legal):
    """The legal list as BoonActions (actions[i].index == i)."""
    return [BoonAction(a, i) for i, a in enumerate(legal)]


class BoonView(object):
    """A Boon view, decoded. View(view, legal=None).

    seat, seats, round, dealer, vc, phase ("pick", "bury", "play", "over"),
    to_move, decision ("take_or_pass", "bury", "play", "wait", "none"),
    my_turn, mode ("pick", "picker", "least"), picker (-1 if none), team
    ("undecided", "picker", "defender", "self"), is_picker, partners (the
    other seats of your side: the other defenders; [] for the picker and
    in Least mode), opponents, passed, hand (BoonCards), hand_sizes,
    boon_size, boon and buried (BoonCards, the picker's own view, else
    None), bury_left, tricks_per_round, trick_no, trick (BoonTrick),
    tricks (BoonTricks), trick_points, tricks_won, events, last_round.
    With legal: actions (BoonActions), cards() (the cards of the play or
    bury actions)."""

    def __init__(self, view, legal=None):
        self.view = view
        self.seat = view.get("seat")
        self.seats = view.get("seats", 0)
        self.round = view.get("round")
        self.dealer = view.get("dealer")
        self.vc = list(view.get("vc") or [])
        self.phase = view.get("phase")
        self.to_move = view.get("to_move")
        self.decision = view.get("decision")
        self.my_turn = self.decision in ("take_or_pass", "bury", "play")
        self.mode = view.get("mode")
        self.picker = view.get("picker", -1)
        self.team = view.get("team")
        self.is_picker = self.picker >= 0 and self.picker == self.seat
        if self.mode == "picker" and self.picker >= 0 and not self.is_picker:
            self.partners = [s for s in range(self.seats) if s not in (self.seat, self.picker)]
            self.opponents = [self.picker]
        else:
            self.partners = []
            self.opponents = [s for s in range(self.seats) if s != self.seat]
        self.passed = list(view.get("passed") or [])
        self.hand = [BoonCard(c) for c in (view.get("hand") or [])]
        self.hand_sizes = list(view.get("hand_sizes") or [])
        self.boon_size = view.get("boon_size")
        b, bu = view.get("boon"), view.get("buried")
        self.boon = [BoonCard(c) for c in b] if b is not None else None
        self.buried = [BoonCard(c) for c in bu] if bu is not None else None
        self.bury_left = view.get("bury_left", 0)
        self.tricks_per_round = view.get("tricks_per_round")
        self.trick_no = view.get("trick_no")
        self.trick = BoonTrick(view.get("trick") or {}, self.seats)
        self.tricks = [BoonTrick(t, self.seats) for t in (view.get("tricks") or [])]
        self.trick_points = list(view.get("trick_points") or [])
        self.tricks_won = list(view.get("tricks_won") or [])
        self.events = list(view.get("events") or [])
        self.last_round = view.get("last_round")
        self.legal = legal
        self.actions = boon_actions(legal) if legal is not None else None

    def cards(self):
        """The cards of this decision's bury or play actions."""
        if self.actions is None:
            raise ValueError("boon.View: pass legal, View(view, legal), to list actions")
        return [a.card for a in self.actions if a.card is not None]

    def played(self):
        """Every card played this round so far (completed tricks and the
        current one)."""
        out = []
        for t in self.tricks + [self.trick]:
            out.extend(t.cards)
        return out


boon = _namespace(
    "boon", "Boon helpers: View(view, legal), Card, Trick, Action.",
    View=BoonView, Card=BoonCard, Trick=BoonTrick, Action=BoonAction, actions=boon_actions,
    SUITS=BOON_SUITS)


# ---------------------------------------------------------------------------
# The rules engine: Game and State over `arena engine`
# ---------------------------------------------------------------------------

ENGINE_ENV = "ARENA_ENGINE"
"""The environment variable naming the arena executable: the referee's
launcher sets it for every bot it starts (docs/engine.md)."""

_FREE_BATCH = 64
"""Handles of garbage states wait until this many are due, then are freed
in the same line as the next request: no round trip of their own."""


class EngineError(Exception):
    """An error of the rules engine: code is the server's code
    ("bad_request", "unknown_game", "bad_options", "bad_seats",
    "no_handle", "illegal", "game_over", "no_decision", "inconsistent",
    "no_sampler", "limit", "internal"), or the SDK's own "no_engine" (no
    arena executable found) and "engine_exited" (the server is gone).
    message says what was wrong and what to do; op is the request's op.
    Branch on code, never on message."""

    def __init__(self, code, message, op=None):
        Exception.__init__(self, "%s: %s" % (code, message))
        self.code = code
        self.message = message
        self.op = op


def _engine_command():
    path = os.environ.get(ENGINE_ENV)
    if not path:
        import shutil
        path = shutil.which("arena")
    if not path:
        raise EngineError("no_engine", "no arena executable to run the rules engine: set %s to "
                          "its path (the referee does for the bots it starts), or put arena "
                          "on PATH" % ENGINE_ENV)
    return [path, "engine"]


class Engine(object):
    """One `arena engine` server process (docs/engine.md): Engine(command=None,
    max_states=None). command defaults to [$ARENA_ENGINE, "engine"], else
    ["arena", "engine"] from PATH. Its CPU time is yours: inside a bot it
    is the bot's child process, under the bot's clock and sandbox.

    call(op, **args) sends one request and returns its result dict (an
    EngineError if it failed); batch(requests) sends many in one line.
    game(name, seats, options) is a Game on this engine. close() (or a
    with block) ends the server; so does the end of your process.
    Engine.shared() is the process's one engine, started on first use.
    Calls are serialised by a lock: one request line at a time."""

    _shared = None

    def __init__(self, command=None, max_states=None):
        import subprocess
        import threading
        cmd = list(command) if command else _engine_command()
        if max_states is not None:
            cmd += ["--max-states", str(int(max_states))]
        try:
            # A large read buffer: a vector environment's answer (arenaenv)
            # is hundreds of kilobytes.
            self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=None, close_fds=True, bufsize=1 << 16)
        except OSError as e:
            raise EngineError("no_engine", "cannot start %s (%s): set %s to the arena "
                              "executable's path" % (" ".join(cmd), e, ENGINE_ENV))
        self.command = cmd
        self._in = self._proc.stdin
        self._out = self._proc.stdout
        self._lock = threading.Lock()
        self._garbage = []  # handles of collected states, freed with a later line
        self._hello = None

    @classmethod
    def shared(cls):
        """The process's engine, started on first use and kept (bots reuse
        it across games)."""
        if cls._shared is None or cls._shared._proc.poll() is not None:
            cls._shared = cls()
        return cls._shared

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Ends the server (end of its input) and waits for it."""
        if self._proc.poll() is None:
            try:
                self._in.close()
            except OSError:
                pass
            self._proc.wait()
        if Engine._shared is self:
            Engine._shared = None

    def _roundtrip(self, payload):
        """Writes one line, reads one: the decoded JSON answer."""
        return self._send(json.dumps(payload, separators=(",", ":")).encode("utf-8"))

    def _send(self, line):
        with self._lock:
            try:
                self._in.write(line + b"\n")
                self._in.flush()
                reply = self._out.readline()
            except (OSError, ValueError):
                reply = b""
        if not reply:
            raise EngineError("engine_exited", "the arena engine process (%s) is gone: see its "
                              "messages on stderr" % " ".join(self.command))
        return json.loads(reply)

    def _take_garbage(self):
        if len(self._garbage) < _FREE_BATCH:
            return None
        handles, self._garbage = self._garbage, []
        return {"op": "free", "handles": handles}

    def _lines(self, parts):
        """Sends encoded requests (bytes) in one line, after a free of the
        handles due if any: their results, in order."""
        free = self._take_garbage()
        if free is not None:
            parts = [json.dumps(free, separators=(",", ":")).encode("utf-8")] + parts
        results = self._send(b"[" + b",".join(parts) + b"]")
        return results if free is None else results[1:]

    def call(self, op, **args):
        """One request: its result dict, or raises EngineError."""
        args["op"] = op
        free = self._take_garbage()
        if free is None:
            return _check(self._roundtrip(args), op)
        return _check(self._roundtrip([free, args])[1], op)

    def batch(self, requests, check=True):
        """Sends requests (dicts with "op") in one line; the results in the
        same order. Each succeeds or fails on its own, and a later request
        may use a handle an earlier one made. check=True raises the first
        failure as an EngineError; check=False leaves an EngineError in
        its place in the list."""
        requests = list(requests)
        if not requests:
            return []
        results = self._lines([json.dumps(r, separators=(",", ":")).encode("utf-8") for r in requests])
        out = []
        for req, res in zip(requests, results):
            try:
                out.append(_check(res, req.get("op")))
            except EngineError as e:
                if check:
                    raise
                out.append(e)
        return out

    def free(self, handles):
        """Frees handles now (states and observers)."""
        return self.call("free", handles=list(handles)).get("freed", 0)

    def _collect(self, handle):
        self._garbage.append(handle)  # no I/O here: a finalizer runs anywhere

    def hello(self):
        """The server's hello: protocol, version, games (with their
        options and whether they have a sampler)."""
        if self._hello is None:
            self._hello = self.call("hello")
        return self._hello

    def game(self, name, seats=2, options=None):
        """Game(name, seats, options) on this engine."""
        return Game(name, seats, options, engine=self)

    def state(self, handle):
        """A State for a handle made by a batch of your own (the SDK frees
        it when the State is garbage)."""
        return State(self, handle)


def _check(res, op):
    if not isinstance(res, dict):
        raise EngineError("bad_request", "the engine answered %r" % (res,), op)
    err = res.get("error")
    if err is not None:
        raise EngineError(str(err.get("code", "internal")), str(err.get("message", "")), op)
    res.pop("id", None)
    return res


class Game(object):
    """A game's rules on the engine: Game(name, seats=2, options=None,
    engine=None) (options: {name: value}, sent as strings; engine: default
    Engine.shared()). new_state(seed) (also state(seed)) deals a new game;
    observer(seat) follows one seat's views for sampling."""

    def __init__(self, name, seats=2, options=None, engine=None):
        self.name = str(name)
        self.seats = int(seats)
        self.options = dict((str(k), _opt_str(v)) for k, v in (options or {}).items())
        self.engine = engine if engine is not None else Engine.shared()

    def __repr__(self):
        return "Game(%r, %d, %r)" % (self.name, self.seats, self.options)

    def new_state(self, seed=0):
        """A new game dealt from seed (the referee's deal for that seed)."""
        r = self.engine.call("create", game=self.name, seats=self.seats, seed=int(seed),
                             options=self.options)
        return State(self.engine, r["state"], self, r.get("to_move"), bool(r.get("over")))

    state = new_state

    def observer(self, seat):
        """An Observer of seat's views (EngineError "no_sampler" for a
        game without hidden information)."""
        r = self.engine.call("observer", game=self.name, seat=int(seat), seats=self.seats,
                             options=self.options)
        return Observer(self, r["observer"])


def _opt_str(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class _Handle(object):
    """A server handle freed when its owner is garbage (weakref.finalize:
    the handle joins the engine's next free batch) or by free()."""

    def _own(self, engine, handle):
        import weakref
        self.engine = engine
        self.handle = handle
        self._finalizer = weakref.finalize(self, engine._collect, handle)

    def free(self):
        """Frees the handle now (idempotent)."""
        if self._finalizer.detach() is not None:
            self.engine.call("free", handles=[self.handle])

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()


class State(_Handle):
    """A game state held by the engine, by handle.

    legal() (the legal actions, as the referee lists them), apply(a) (a an
    action dict, a typed action of the helpers, or an index into legal()),
    clone(), view(seat) (seat -1: a spectator), to_move(), is_over(),
    returns() (per seat in [-1, 1] once over: (seats ranked below -
    seats ranked above) / (seats - 1)), outcome() (the raw outcome),
    playout(n, seed, max_plies) (n random playouts in Go, from copies),
    step_random(seed), free() or a with block. A State nobody refers to
    any more is freed with a later request."""

    def __init__(self, engine, handle, game=None, to_move=None, over=None):
        self._own(engine, handle)
        self.game = game
        self._legal = None
        self._to_move = to_move
        self._over = over
        self._outcome = None

    def __repr__(self):
        return "<State %d to_move=%r over=%r>" % (self.handle, self._to_move, self._over)

    def legal(self):
        """The legal actions (dicts), in the referee's order. [] once over."""
        if self._legal is None:
            if self.is_over():
                return []
            r = self.engine.call("legal", state=self.handle)
            self._legal, self._to_move = r["legal"], r.get("to_move")
        return self._legal

    def apply(self, action):
        """Plays action: an index into legal(), an action dict, or a typed
        action (uno.Action...). The legal list after it comes back in the
        same line (one round trip). Returns self."""
        req = {"op": "apply", "state": self.handle}
        raw = getattr(action, "raw", None)
        if isinstance(raw, dict):
            req["action"] = raw
        elif isinstance(action, dict):
            req["action"] = action
        else:
            req["index"] = action.__index__()
        applied, listed = self.engine.batch([req, {"op": "legal", "state": self.handle}],
                                            check=False)
        if isinstance(applied, EngineError):
            raise applied
        self._to_move, self._over, self._outcome = applied.get("to_move"), bool(applied.get("over")), None
        self._legal = None if isinstance(listed, EngineError) else listed["legal"]
        return self

    def clone(self):
        """An independent copy."""
        r = self.engine.call("clone", state=self.handle)
        return self._copy(r["state"])

    def _copy(self, handle):
        c = State(self.engine, handle, self.game)
        c._legal, c._to_move, c._over, c._outcome = self._legal, self._to_move, self._over, self._outcome
        return c

    def view(self, seat):
        """The view the referee would send seat now (a dict)."""
        return self.engine.call("view", state=self.handle, seat=int(seat))["view"]

    def to_move(self):
        """The seat to decide now."""
        if self._to_move is None:
            self.legal()
        return self._to_move

    def is_over(self):
        if self._over is None:
            self.outcome()
        return self._over

    def outcome(self):
        """{"over", "ranks", "scores", "returns"} ("over" only while not over)."""
        if self._outcome is None:
            self._outcome = self.engine.call("outcome", state=self.handle)
            self._over = bool(self._outcome.get("over"))
        return self._outcome

    def returns(self):
        """Per seat in [-1, 1] once over; None while the game goes on."""
        return self.outcome().get("returns")

    def playout(self, n=1, seed=0, max_plies=None, policy=None):
        """n playouts from copies of this state, run in Go (this state is
        unchanged): {"n", "returns" (mean per seat), "wins" (per seat),
        "plies" (mean)}. policy: who plays every seat, "random" (the
        default: uniformly random legal actions) or "greedy" (as the
        bundled greedy bot plays)."""
        req = {"state": self.handle, "n": int(n), "seed": int(seed)}
        if max_plies is not None:
            req["max_plies"] = int(max_plies)
        if policy is not None:
            req["policy"] = str(policy)
        return self.engine.call("playout", **req)

    def step_random(self, seed=0):
        """Plays one uniformly random legal action; returns it."""
        r = self.engine.call("step_random", state=self.handle, seed=int(seed))
        self._to_move, self._over, self._legal, self._outcome = r.get("to_move"), bool(r.get("over")), None, None
        return r.get("action")


class Observer(_Handle):
    """One seat's memory of a game (hidden information): observe(view)
    each view the seat received, in order, then sample(seed) is a State
    consistent with all of them. ctx.sample() keeps one for you."""

    def __init__(self, game, handle):
        self._own(game.engine, handle)
        self.game = game

    def observe(self, view):
        """Feeds the next view (a dict, or its JSON text)."""
        if isinstance(view, (str, bytes)):
            view = json.loads(view)
        self.engine.call("observe", observer=self.handle, view=view)

    def sample(self, seed=0):
        """A full State consistent with every view observed (EngineError
        "no_decision" if the last view is not the seat's decision)."""
        r = self.engine.call("sample", observer=self.handle, seed=int(seed))
        return State(self.engine, r["state"], self.game, r.get("to_move"), False)


def _sample(ctx, seed):
    """ctx.sample(): feeds the views not fed yet, and samples, in one line.
    The views are kept as the JSON text received (ctx._seen), so a bot that
    changes its view dicts cannot change what the observer is told."""
    if ctx._observer is None or ctx._observer.engine._proc.poll() is not None:
        ctx._observer, ctx._fed = ctx.game_rules().observer(ctx.seat), 0
    obs = ctx._observer
    eng = obs.engine
    parts = [b'{"op":"observe","observer":%d,"view":%s}' % (obs.handle, v) for v in ctx._seen[ctx._fed:]]
    parts.append(b'{"op":"sample","observer":%d,"seed":%d}' % (obs.handle, int(seed)))
    results = eng._lines(parts)
    for r in results[:-1]:
        if isinstance(r, dict) and "error" in r:
            ctx._observer = None  # it missed a view: the next sample starts afresh
            obs.free()
            _check(r, "observe")
    ctx._fed = len(ctx._seen)
    r = _check(results[-1], "sample")
    return State(eng, r["state"], obs.game, r.get("to_move"), False)
