"""arenaenv: training environments over the arena's rules engines.

One module of the standard library only (Python 3.9+), beside arenabot.py
(the Python SDK), whose Engine it uses: it starts the arena engine server
(`arena engine`: the executable in $ARENA_ENGINE, else `arena` on PATH)
and speaks its JSON-lines protocol (docs/engine.md). The
games are the referee's own engines; an observation is a fixed-size list
of numbers computed in Go from the seat's view alone (the encoding of
each game is documented in docs/games/<game>.md, "Encoding"), and actions
are ids in a fixed action space, with a mask of the legal ones.

Three forms, all stepping games inside the server:

- VectorEnv: many games per call, the fast path. Columns per game: the
  seat to act, its observation, its legal ids, and the results of games
  that just ended (a new deal follows at once).
- GymEnv (one game) and GymVectorEnv (many): one learning seat, bundled
  Go bots ("random", "greedy") at the others, in the style of Gymnasium:
  reset() -> (obs, info), step(a) -> (obs, reward, terminated, truncated,
  info). info["action_mask"] is a list of 0/1 per action id.
- AECEnv: every seat an agent, agent by agent, in the style of
  PettingZoo's AEC API: reset(seed), agent_iter(), last(), step(action),
  observe(agent), agents, possible_agents, action_space(agent).

Rewards are the game's returns, given when it ends: for each seat,
(seats ranked below it - seats ranked above it) / (seats - 1), in [-1, 1].

With gymnasium or pettingzoo installed, to_gymnasium(env) and
to_pettingzoo(env) wrap these in those libraries' classes; neither is
needed by anything else here.
"""

import array
import base64
import random
import sys

# The engine client is arenabot.py's (the Python SDK, beside this file in
# sdk/python; every Python starter kit carries a copy): one place that finds
# the executable, speaks the lines and names the errors.
from arenabot import Engine, EngineError

__all__ = [
    "EngineError", "Engine", "Encoding", "VectorEnv", "Batch", "GymEnv", "GymVectorEnv", "AECEnv",
    "to_gymnasium", "to_pettingzoo",
]


class Encoding:
    """A game's fixed-size encoding at one seat count and rule set:
    obs_size, num_actions and action_names (the game's notation of each
    id)."""

    def __init__(self, game, seats, options=None, engine=None):
        own = engine is None
        engine = engine or Engine()
        try:
            r = engine.call("encoding", game=game, seats=seats, options=options or {})
        finally:
            if own:
                engine.close()
        self.obs_size = r["obs_size"]
        self.num_actions = r["num_actions"]
        self.action_names = r["action_names"]


def _floats(blob):
    """The float32 observations of a response's base64 blob."""
    a = array.array("f")
    a.frombytes(base64.b64decode(blob))
    if sys.byteorder == "big":
        a.byteswap()  # the wire is little-endian
    return a


class Batch:
    """One response of a VectorEnv, as columns with one entry per game:
    seat (the seat to act now), obs (its observation, a list of floats),
    legal (its legal action ids), done (1 if the game that was played in
    this step ended: a new one is dealt at once, and seat, obs and legal
    are the new game's), returns and ranks (per seat, of the game that
    ended; None for the others)."""

    __slots__ = ("seat", "obs", "legal", "done", "returns", "ranks", "_flat", "_size")

    def __init__(self, resp, obs_size):
        self.seat = resp["seat"]
        self.legal = resp["legal"]
        self.done = resp["done"]
        self.returns = resp["returns"]
        self.ranks = resp["ranks"]
        self._size = obs_size
        obs = resp["obs"]
        if isinstance(obs, str):
            self._flat = _floats(obs)
            self.obs = _Rows(self._flat, obs_size, len(self.seat))
        else:
            self._flat = None
            self.obs = obs

    def mask(self, i, num_actions):
        """Game i's action mask: 1 for each legal id, else 0."""
        m = [0] * num_actions
        for a in self.legal[i]:
            m[a] = 1
        return m


class _Rows:
    """Game i's observation, sliced from the flat float32 array on use."""

    __slots__ = ("_flat", "_size", "_n")

    def __init__(self, flat, size, n):
        self._flat, self._size, self._n = flat, size, n

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._flat[i * self._size:(i + 1) * self._size]

    def __iter__(self):
        for i in range(self._n):
            yield self[i]

    def flat(self):
        """Every observation in one float32 array, game after game (for
        numpy: numpy.frombuffer(rows.flat(), numpy.float32))."""
        return self._flat


class VectorEnv:
    """n games stepped together in one engine request. Seats named in
    opponents ({seat: "random" | "greedy"}) are played by bundled Go bots;
    the others are the agents', and each response asks, per game, the
    agent seat to act. reset() and step(actions) return a Batch."""

    def __init__(self, game, seats, n=1, options=None, opponents=None, seed=0, engine=None, obs="f32"):
        self.game, self.seats, self.n = game, seats, n
        self.options = dict(options or {})
        self.opponents = {int(k): v for k, v in (opponents or {}).items()}
        self.agent_seats = [s for s in range(seats) if s not in self.opponents]
        self._own = engine is None
        self.engine = engine or Engine()
        self._obs_format = obs
        self._env = None
        self._seed = seed
        enc = Encoding(game, seats, self.options, self.engine)
        self.obs_size, self.num_actions, self.action_names = enc.obs_size, enc.num_actions, enc.action_names

    def reset(self, seed=None):
        """Deals n new games (from seed, or the constructor's) and returns
        the first Batch."""
        if seed is not None:
            self._seed = seed
        if self._env is not None:
            self.engine.call("free", handles=[self._env])
        r = self.engine.call(
            "env_create", game=self.game, seats=self.seats, options=self.options, n=self.n,
            seed=self._seed, opponents={str(k): v for k, v in self.opponents.items()}, obs=self._obs_format)
        self._env = r["env"]
        self._seed = (self._seed * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return Batch(r, self.obs_size)

    def step(self, actions):
        """Plays one action id per game (for its seat to act) and returns
        the next Batch. An id not legal raises EngineError("illegal") and
        changes no game."""
        if self._env is None:
            raise EngineError("bad_request", "reset the environment first")
        r = self.engine.call("env_step", env=self._env, actions=actions)
        return Batch(r, self.obs_size)

    def close(self):
        if self._own:
            self.engine.close()


class GymVectorEnv:
    """n games with one learning seat (agent_seat) and bundled bots at the
    others (opponent: "random" or "greedy", or a dict by seat), in the style
    of a Gymnasium vector environment that resets a finished game at once:
    step returns for a game that ended its reward (the seat's return),
    terminated True, and the new game's first observation. Observations
    are lists of floats; infos is a list of dicts with "action_mask" and
    "legal"."""

    def __init__(self, game, seats, n=1, options=None, agent_seat=0, opponent="random", seed=0, engine=None):
        opp = opponent if isinstance(opponent, dict) else {s: opponent for s in range(seats) if s != agent_seat}
        self.agent_seat = agent_seat
        self.vec = VectorEnv(game, seats, n, options, opp, seed, engine)
        self.n = n
        self._batch = None

    @property
    def single_observation_size(self):
        return self.vec.obs_size

    @property
    def single_action_size(self):
        return self.vec.num_actions

    def _infos(self, b):
        return [{"action_mask": b.mask(i, self.vec.num_actions), "legal": b.legal[i]} for i in range(self.n)]

    def reset(self, seed=None):
        self._batch = self.vec.reset(seed)
        return list(self._batch.obs), self._infos(self._batch)

    def step(self, actions):
        b = self.vec.step(list(actions))
        self._batch = b
        rewards = [b.returns[i][self.agent_seat] if b.done[i] else 0.0 for i in range(self.n)]
        terminated = [bool(d) for d in b.done]
        infos = self._infos(b)
        for i in range(self.n):
            if b.done[i]:
                infos[i]["ranks"] = b.ranks[i]
        return list(b.obs), rewards, terminated, [False] * self.n, infos

    def close(self):
        self.vec.close()


class GymEnv:
    """One game, one learning seat, bundled bots at the others, in the
    style of Gymnasium: reset(seed) -> (obs, info); step(a) -> (obs,
    reward, terminated, truncated, info). At termination obs is the
    learning seat's last observation (its final action was taken on it);
    the next reset() deals the next game without a round trip."""

    def __init__(self, game, seats, options=None, agent_seat=0, opponent="random", seed=0, engine=None):
        self.vec = GymVectorEnv(game, seats, 1, options, agent_seat, opponent, seed, engine)
        self._pending = None
        self._last = None

    @property
    def observation_size(self):
        return self.vec.single_observation_size

    @property
    def action_size(self):
        return self.vec.single_action_size

    def reset(self, seed=None):
        if seed is not None or self._pending is None:
            obs, infos = self.vec.reset(seed)
        else:
            obs, infos = self._pending
        self._pending = None
        self._last = obs[0]
        return obs[0], infos[0]

    def step(self, action):
        obs, rewards, terms, truncs, infos = self.vec.step([action])
        if terms[0]:
            self._pending = (obs, [{k: v for k, v in infos[0].items() if k != "ranks"}])
            return self._last, rewards[0], True, False, infos[0]
        self._last = obs[0]
        return obs[0], rewards[0], False, False, infos[0]

    def close(self):
        self.vec.close()


class AECEnv:
    """One game, agent by agent, in the style of PettingZoo's AEC API.
    Agents are "seat_0", "seat_1", ... (seats named in opponents are
    played by bundled Go bots and are not agents). observe(agent) is the
    agent's observation when it last was to act (the server encodes only
    the seat to act). Rewards come when the game ends: each agent's
    return."""

    metadata = {"name": "arena_aec", "is_parallelizable": False}

    def __init__(self, game, seats, options=None, opponents=None, seed=0, engine=None):
        self.vec = VectorEnv(game, seats, 1, options, opponents, seed, engine)
        self.possible_agents = ["seat_%d" % s for s in self.vec.agent_seats]
        self.agents = []
        self._seed = seed

    def action_space(self, agent):
        """The number of action ids (a Discrete space's n)."""
        return self.vec.num_actions

    def observation_space(self, agent):
        """The length of an observation."""
        return self.vec.obs_size

    def reset(self, seed=None, options=None):
        b = self.vec.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._obs = {a: [0.0] * self.vec.obs_size for a in self.agents}
        self._take(b)

    def _take(self, b):
        self.agent_selection = "seat_%d" % b.seat[0]
        self._obs[self.agent_selection] = b.obs[0]
        self.infos[self.agent_selection] = {
            "action_mask": b.mask(0, self.vec.num_actions), "legal": b.legal[0]}

    def observe(self, agent):
        return self._obs[agent]

    def last(self, observe=True):
        a = self.agent_selection
        return (self._obs[a] if observe else None, self._cumulative_rewards[a],
                self.terminations[a], self.truncations[a], self.infos[a])

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            # A finished agent's step (action None) takes it out, as in
            # PettingZoo; the next finished one is selected.
            self.agents.remove(a)
            self._cumulative_rewards[a] = 0.0
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._cumulative_rewards[a] = 0.0
        b = self.vec.step([action])
        if b.done[0]:
            for i, ag in enumerate(self.possible_agents):
                r = b.returns[0][self.vec.agent_seats[i]]
                self.rewards[ag] = r
                self._cumulative_rewards[ag] += r
                self.terminations[ag] = True
                self.infos[ag] = {"action_mask": [0] * self.vec.num_actions, "legal": [], "ranks": b.ranks[0]}
            self.agent_selection = self.agents[0]
            return
        self._take(b)

    def close(self):
        self.vec.close()


def to_gymnasium(env):
    """A gymnasium.Env over a GymEnv (needs gymnasium and numpy)."""
    import gymnasium
    import numpy as np

    class _Gym(gymnasium.Env):
        def __init__(self):
            self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (env.observation_size,), np.float32)
            self.action_space = gymnasium.spaces.Discrete(env.action_size)

        def reset(self, seed=None, options=None):
            obs, info = env.reset(seed)
            return np.asarray(obs, np.float32), info

        def step(self, action):
            obs, r, term, trunc, info = env.step(int(action))
            return np.asarray(obs, np.float32), r, term, trunc, info

        def close(self):
            env.close()

    return _Gym()


def to_pettingzoo(env):
    """A pettingzoo.AECEnv over an AECEnv (needs pettingzoo and numpy)."""
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv as _Base

    class _PZ(_Base):
        metadata = env.metadata

        def __init__(self):
            super().__init__()
            self.possible_agents = env.possible_agents

        def observation_space(self, agent):
            return gymnasium.spaces.Box(-np.inf, np.inf, (env.observation_space(agent),), np.float32)

        def action_space(self, agent):
            return gymnasium.spaces.Discrete(env.action_space(agent))

        def reset(self, seed=None, options=None):
            env.reset(seed)
            self._sync()

        def _sync(self):
            for k in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos",
                      "agent_selection"):
                setattr(self, k, getattr(env, k))

        def observe(self, agent):
            return np.asarray(env.observe(agent), np.float32)

        def step(self, action):
            env.step(None if action is None else int(action))
            self._sync()

        def close(self):
            env.close()

    return _PZ()


def random_policy(legal, rng=random):
    """A uniformly random legal id: the baseline agent."""
    return legal[rng.randrange(len(legal))]
