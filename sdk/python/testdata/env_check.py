"""Checks arenaenv against a real engine server ($ARENA_ENGINE): every
form of environment, every game; prints one line per check, "ok" last."""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arenaenv  # noqa: E402


def check(cond, what):
    if not cond:
        raise SystemExit("FAIL: " + what)


def vector(game, seats):
    env = arenaenv.VectorEnv(game, seats, n=5, seed=3)
    rng = random.Random(1)
    b = env.reset()
    seen, ended = set(), 0
    for _ in range(80):
        check(len(b.obs) == 5 and all(len(o) == env.obs_size for o in b.obs), "%s obs shape" % game)
        check(all(b.legal) and all(0 <= a < env.num_actions for l in b.legal for a in l), "%s legal ids" % game)
        seen.update(b.seat)
        ids = [l[rng.randrange(len(l))] for l in b.legal]
        bad = list(ids)
        bad[0] = env.num_actions  # out of the space: refused, nothing changes
        try:
            env.step(bad)
            check(False, "%s: an illegal id was accepted" % game)
        except arenaenv.EngineError as e:
            check(e.code == "illegal", "%s: code %s" % (game, e.code))
        b = env.step(ids)
        for i, d in enumerate(b.done):
            if d:
                ended += 1
                check(len(b.returns[i]) == seats and abs(sum(b.returns[i])) < 1e-9, "%s returns %s" % (game, b.returns[i]))
    check(len(seen) > 1, "%s: one seat only asked" % game)
    check(len(env.action_names) == env.num_actions, "%s names" % game)
    env.close()
    print("vector %s: %d seats asked, %d games ended" % (game, len(seen), ended))


def gym():
    env = arenaenv.GymEnv("uno", 4, options={"target": "0"}, opponent="greedy", seed=7)
    obs, info = env.reset()
    check(len(obs) == env.observation_size and sum(info["action_mask"]) == len(info["legal"]), "gym reset")
    rng, games, steps = random.Random(2), 0, 0
    while games < 3:
        obs, r, term, trunc, info = env.step(arenaenv.random_policy(info["legal"], rng))
        steps += 1
        check(not trunc and -1 <= r <= 1 and len(obs) == env.observation_size, "gym step")
        if term:
            check(info["ranks"][0] >= 1, "gym ranks")
            games += 1
            obs, info = env.reset()
    env.close()
    print("gym: 3 games in %d steps" % steps)


def gym_vector():
    env = arenaenv.GymVectorEnv("boon", 3, n=4, agent_seat=1, opponent="greedy", seed=2)
    obs, infos = env.reset()
    rng, ended = random.Random(3), 0
    while ended < 4:
        obs, rewards, terms, truncs, infos = env.step([arenaenv.random_policy(i["legal"], rng) for i in infos])
        ended += sum(terms)
        check(all(r == 0 for r, t in zip(rewards, terms) if not t), "rewards before the end")
    env.close()
    print("gym vector boon: %d games ended" % ended)


def aec():
    env = arenaenv.AECEnv("uno", 3, options={"target": "0"}, seed=5)
    check(env.possible_agents == ["seat_0", "seat_1", "seat_2"], "aec agents")
    env.reset(seed=11)
    rng, total, steps = random.Random(4), {}, 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        check(obs == env.observe(agent) and len(obs) == env.observation_space(agent), "aec observe")
        total[agent] = total.get(agent, 0.0) + reward
        if term or trunc:
            action = None
        else:
            check(sum(info["action_mask"]) == len(info["legal"]) > 0, "aec mask")
            action = arenaenv.random_policy(info["legal"], rng)
        env.step(action)
        steps += 1
    check(env.agents == [] and abs(sum(total.values())) < 1e-9 and max(total.values()) == 1.0, "aec end %s" % total)
    env.close()
    print("aec: %d steps, returns %s" % (steps, sorted(total.items())))


for game, seats in (("uno", 4), ("bounce", 2), ("boon", 5), ("banqi", 2)):
    vector(game, seats)
gym()
gym_vector()
aec()
print("ok")
