"""The same seed gives the same trajectories as the TypeScript env: observations byte for byte, rewards summed."""

from __future__ import annotations

import gymnasium as gym
import pytest

import yaniv_arena  # noqa: F401
from conftest import Digest, choose, ts_trace
from yaniv_arena import yaniv_v0
from yaniv_arena.vector import YanivVectorEnv

AEC_RUNS = [
    ({"players": 2}, {"num_players": 2}, 3000),
    ({"players": 4, "preset": "dutch", "reward": "zeroSumTotals"}, {"num_players": 4, "preset": "dutch", "reward": "zeroSumTotals"}, 3000),
    ({"players": 8, "rules": {"quickDiscard": True, "slapdown": True}}, {"num_players": 8, "rules": {"quickDiscard": True, "slapdown": True}}, 3000),
    ({"players": 3, "episode": "round", "reward": "roundPenalty"}, {"num_players": 3, "episode": "round", "reward": "roundPenalty"}, 3000),
    # A long soak: many whole games, rewards summed over all of them.
    ({"players": 4, "maxTurns": 400}, {"num_players": 4, "max_turns": 400}, 10000),
]


@pytest.mark.parametrize("ts_env, py_env, steps", AEC_RUNS, ids=[str(r[0]) for r in AEC_RUNS])
def test_the_aec_env(ts_env, py_env, steps):
    digest = Digest()
    with yaniv_v0.raw_env(**py_env) as env:
        rewards = [0.0] * len(env.possible_agents)
        env.reset(seed=17)
        digest.add(env.observe(env.agent_selection)["observation"])
        episodes = 0
        for step in range(steps):
            env.step(choose(step, env.legal_actions()))
            digest.add(env.observe(env.agent_selection)["observation"])
            for seat, agent in enumerate(env.possible_agents):
                rewards[seat] += env.rewards[agent]
            if any(env.terminations.values()) or any(env.truncations.values()):
                episodes += 1
                env.reset()
                digest.add(env.observe(env.agent_selection)["observation"])
    expected = ts_trace(kind="aec", env=ts_env, seed=17, steps=steps)
    assert (digest.hex(), rewards, episodes) == (expected["sha256"], expected["rewards"], expected["episodes"])
    if ts_env.get("reward", "zeroSum").startswith("zeroSum"):
        assert abs(sum(rewards)) < 1e-4


def test_the_gymnasium_env_against_strong():
    digest, total, episodes = Digest(), 0.0, 0
    with gym.make("yaniv_arena/Yaniv-v0", opponents="strong", num_players=3) as env:
        observation, info = env.reset(seed=8)
        digest.add(observation)
        for step in range(1500):
            observation, reward, terminated, truncated, info = env.step(choose(step, info["action_mask"].nonzero()[0]))
            digest.add(observation)
            total += reward
            if terminated or truncated:
                episodes += 1
                observation, info = env.reset()
                digest.add(observation)
    expected = ts_trace(kind="single", env={"players": 3}, seed=8, steps=1500, opponents="strong")
    assert (digest.hex(), [total], episodes) == (expected["sha256"], expected["rewards"], expected["episodes"])


def test_the_vector_env():
    num, steps = 16, 600
    digest = Digest()
    with YanivVectorEnv(num_envs=num, num_players=4, num_workers=2, copy=False) as env:
        observations, infos = env.reset(seed=3)
        digest.add(observations)
        rewards = [0.0] * 4
        for step in range(steps):
            actions = [choose(step + i, mask.nonzero()[0]) for i, mask in enumerate(infos["action_mask"])]
            observations, _, _, _, infos = env.step(actions)
            digest.add(observations)
            for i in range(num):
                for seat in range(4):
                    rewards[seat] += float(infos["rewards"][i, seat])
    expected = ts_trace(kind="vector", env={"players": 4}, seed=3, steps=steps, num=num)
    assert (digest.hex(), rewards) == (expected["sha256"], expected["rewards"])
