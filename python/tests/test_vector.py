"""The vector env: batched spaces, same-step autoreset, one or several workers, bad batches."""

from __future__ import annotations

import os

import numpy as np
import pytest

from conftest import choose
from yaniv_arena import IllegalActionError, yaniv_v0
from yaniv_arena.vector import YanivVectorEnv


def first_legal(infos):
    return infos["action_mask"].argmax(axis=1)


def test_spaces_and_shapes():
    with YanivVectorEnv(num_envs=5, num_players=3) as env:
        observations, infos = env.reset(seed=0)
        assert observations.shape == (5, env.single_observation_space.shape[0]) and observations.dtype == np.float32
        assert env.observation_space.contains(observations)
        assert env.action_space.shape == (5,)
        assert infos["action_mask"].shape == (5, env.single_action_space.n) and infos["action_mask"].dtype == np.int8
        observations, rewards, terminations, truncations, infos = env.step(first_legal(infos))
        assert rewards.shape == terminations.shape == truncations.shape == (5,)
        assert infos["rewards"].shape == (5, 3)
        assert np.array_equal(env.action_masks(), infos["action_mask"].astype(bool))


def test_game_i_plays_as_the_aec_env_with_seed_plus_i_and_autoresets_on_the_same_step():
    num, seed = 3, 40
    aecs = [yaniv_v0.raw_env(num_players=2, max_turns=6) for _ in range(num)]
    with YanivVectorEnv(num_envs=num, num_players=2, max_turns=6) as env:
        observations, infos = env.reset(seed=seed)
        for i, aec in enumerate(aecs):
            aec.reset(seed=seed + i)
        ended = 0
        for step in range(60):
            actions = np.array([choose(step + i, aec.legal_actions()) for i, aec in enumerate(aecs)])
            observations, rewards, terminations, truncations, infos = env.step(actions)
            for i, aec in enumerate(aecs):
                mover = aec.agent_selection
                aec.step(int(actions[i]))
                assert rewards[i] == aec.rewards[mover]
                if truncations[i] or terminations[i]:
                    ended += 1
                    assert infos["_final_obs"][i]
                    assert np.array_equal(infos["final_obs"][i], aec.observe(mover)["observation"])
                    aec.reset()
                else:
                    assert "final_obs" not in infos or not infos["_final_obs"][i]
                assert np.array_equal(observations[i], aec.observe(aec.agent_selection)["observation"])
                assert infos["current_player"][i] == aec.possible_agents.index(aec.agent_selection)
        assert ended >= num * 4
    for aec in aecs:
        aec.close()


def test_several_workers_give_the_same_batch_as_one():
    with YanivVectorEnv(num_envs=7, num_players=4) as one, YanivVectorEnv(num_envs=7, num_players=4, num_workers=3) as three:
        a, infos_a = one.reset(seed=5)
        b, infos_b = three.reset(seed=5)
        for step in range(300):
            assert np.array_equal(a, b) and np.array_equal(infos_a["action_mask"], infos_b["action_mask"])
            actions = np.array([choose(step + i, np.flatnonzero(m)) for i, m in enumerate(infos_a["action_mask"])])
            a, ra, ta, ua, infos_a = one.step(actions)
            b, rb, tb, ub, infos_b = three.step(actions)
            assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)


def test_copy_false_returns_views_the_next_step_overwrites():
    with YanivVectorEnv(num_envs=2, copy=False) as env:
        first, infos = env.reset(seed=0)
        before = first.copy()
        second, *_ = env.step(first_legal(infos))
        assert np.shares_memory(first, second) and np.array_equal(first, second) and not np.array_equal(first, before)


def test_reset_without_a_seed_moves_on_to_new_games():
    with YanivVectorEnv(num_envs=2) as env:
        a, _ = env.reset(seed=0)
        b, _ = env.reset()
        c, _ = env.reset(seed=0)
        assert np.array_equal(a, c) and not np.array_equal(a, b)


@pytest.mark.parametrize(
    "actions, error, message",
    [
        (np.zeros(3, np.int64), ValueError, r"shape \(4,\)"),
        (np.zeros((4, 1), np.int64), ValueError, r"shape \(4,\)"),
        (np.zeros(4, np.float32), ValueError, "dtype float32"),
        (np.full(4, 5000), ValueError, "not an action id"),
        (np.full(4, 1408), IllegalActionError, "game 0: action 1408 is not legal"),
    ],
)
def test_bad_batches_raise_and_step_no_game(actions, error, message):
    with YanivVectorEnv(num_envs=4, num_workers=2) as env, YanivVectorEnv(num_envs=4) as fresh:
        _, infos = env.reset(seed=1)
        fresh.reset(seed=1)
        with pytest.raises(error, match=message):
            env.step(actions)
        good = first_legal(infos)
        assert np.array_equal(env.step(good)[0], fresh.step(good)[0])


@pytest.mark.parametrize("kwargs, message", [({"num_envs": 0}, "num_envs"), ({"num_workers": 3, "num_envs": 2}, "num_workers"), ({"rules": {"handSize": 9}}, "handSize")])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        YanivVectorEnv(**kwargs)


# -- what a new user tripped on (issue 43) --------------------------------------------------------


def test_a_step_before_reset_says_call_reset():
    with YanivVectorEnv(num_envs=2) as envs:
        with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
            envs.step(np.zeros(2, np.int64))
        with pytest.raises(RuntimeError, match=r"call reset\(\) before sample_legal_actions\(\)"):
            envs.sample_legal_actions()


def test_sample_legal_actions_draws_each_legal_id_alike():
    with YanivVectorEnv(num_envs=8, num_players=3) as envs:
        envs.reset(seed=3)
        rng = np.random.default_rng(0)
        masks = envs.action_masks()
        draws = np.stack([envs.sample_legal_actions(rng) for _ in range(4000)])
        for game in range(8):
            legal = np.flatnonzero(masks[game])
            counts = np.array([(draws[:, game] == action).sum() for action in legal])
            assert counts.sum() == 4000  # every draw legal
            expected = 4000 / len(legal)
            assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected)), (legal, counts)
        envs.step(envs.sample_legal_actions(rng))  # what it draws steps as it is


def test_the_shared_arrays_equal_those_sent_through_the_pipe_and_leave_no_file():
    runs = []
    for shared, workers in ((True, 1), (True, 2), (False, 1), (False, 2)):
        with YanivVectorEnv(num_envs=6, num_players=3, num_workers=workers, shared_memory=shared) as envs:
            if shared:
                assert not os.path.exists(envs._arrays.path)  # unlinked once the workers opened it
            observations, infos = envs.reset(seed=9)
            seen = [(observations, infos["action_mask"], infos["current_player"])]
            rng = np.random.default_rng(1)
            for _ in range(60):
                observations, rewards, terminations, truncations, infos = envs.step(envs.sample_legal_actions(rng))
                seen.append((observations, rewards, terminations, truncations, infos["rewards"], infos["action_mask"], infos["current_player"]))
            runs.append(seen)
    for run in runs[1:]:
        for a, b in zip(runs[0], run):
            assert all(np.array_equal(x, y) for x, y in zip(a, b))
