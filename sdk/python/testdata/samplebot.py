"""A bot that checks ctx.sample() in a real match: every turn it samples
twice and asserts that the sampled state gives its seat exactly the view
it was sent, and the same legal list; then it plays a random move. A
failed assertion is reported by the SDK on stderr ("act raised")."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arenabot  # noqa: E402


def act(view, legal, ctx):
    for _ in range(2):
        s = ctx.sample()
        assert s.view(ctx.seat) == view, "sampled view differs"
        assert s.legal() == legal, "sampled legal list differs"
        assert s.to_move() == ctx.seat, "sampled state's seat to move"
    ctx.state["sampled"] = ctx.state.get("sampled", 0) + 2
    return ctx.random.randrange(len(legal))


def end(result, ctx):
    ctx.log("samplebot: game %s sampled %d engine %d"
            % (ctx.game_id, ctx.state.get("sampled", 0), ctx.engine()._proc.pid))


arenabot.run(sys.modules[__name__], name="samplebot")
