"""The single-agent env against Gymnasium's own checker, and its opponents, masks and illegal actions."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import yaniv_arena  # noqa: F401  (registers yaniv_arena/Yaniv-v0)
from conftest import PRESETS
from yaniv_arena import IllegalActionError

TABLES = [{"num_players": n} for n in (2, 4, 8)] + [{"num_players": 3, "preset": p} for p in PRESETS]
NAMES = [f"{t['num_players']} seats {t.get('preset', 'standard')}" for t in TABLES]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_check_env(table, capsys):
    env = gym.make("yaniv_arena/Yaniv-v0", opponents="strong", illegal_action="penalty", **table)
    try:
        check_env(env.unwrapped)
    finally:
        env.close()


def play(env, seed, episodes):
    """Random legal play; yields each step's (reward, terminated, truncated, info)."""
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    for _ in range(episodes):
        done = False
        while not done:
            assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, reward, terminated, truncated, info = env.step(action)
            assert env.observation_space.contains(observation)
            done = terminated or truncated
            yield reward, terminated, truncated, info
        observation, info = env.reset()


def test_a_game_against_strong_ends_with_the_learner_to_move_at_every_step():
    with gym.make("yaniv_arena/Yaniv-v0", opponents="strong", num_players=3, seat="rotate") as env:
        steps = list(play(env, 3, 3))
        assert sum(1 for _, terminated, _, _ in steps if terminated) == 3
        assert all(info["action_mask"].any() for _, terminated, truncated, info in steps if not (terminated or truncated))


def test_opponents_one_spec_per_seat():
    with gym.make("yaniv_arena/Yaniv-v0", opponents=[None, "novice", "intermediate?", "random"], num_players=4, max_turns=30) as env:
        assert len(list(play(env, 1, 2))) > 0


def test_an_illegal_action_raises_by_default_and_the_env_goes_on():
    with gym.make("yaniv_arena/Yaniv-v0") as env:
        _, info = env.reset(seed=0)
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
        with pytest.raises(IllegalActionError, match=f"action {illegal}"):
            env.step(illegal)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_an_illegal_action_ends_the_episode_with_the_penalty_when_asked():
    with gym.make("yaniv_arena/Yaniv-v0", illegal_action="penalty", illegal_penalty=2.5) as env:
        _, info = env.reset(seed=0)
        _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
        assert (reward, terminated, truncated, info["illegal_action"]) == (-2.5, True, False, True)
        assert not info["action_mask"].any()
        with pytest.raises(RuntimeError, match="reset"):
            env.step(0)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"opponents": "grandmaster"}, "grandmaster"),
        ({"opponents": "strong?depth=3"}, "depth"),
        ({"opponents": ["strong"]}, "one agent spec per seat"),
        ({"opponents": 7}, "opponents must be"),
        ({"seat": 5}, "seat"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"illegal_penalty": -1}, "illegal_penalty"),
        ({"reward": "equity"}, "equity"),
    ],
)
def test_bad_arguments_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        gym.make("yaniv_arena/Yaniv-v0", **kwargs)


def test_a_model_opponent_off_its_training_table_is_warned_about_and_plays():
    with pytest.warns(UserWarning, match="opponent neural: plays 5 players"):
        env = gym.make("yaniv_arena/Yaniv-v0", opponents="neural", num_players=5)
    with env:
        _, info = env.reset(seed=0)
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert info["action_mask"].any()


# -- what a new user tripped on (issue 43) --------------------------------------------------------


def test_make_as_the_readme_does_warns_nothing_and_the_bounds_hold_each_value(recwarn):
    import warnings

    from gymnasium.wrappers import PassiveEnvChecker

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with gym.make("yaniv_arena/Yaniv-v0", opponents="strong", num_players=2) as env:
            checked = PassiveEnvChecker(env)  # what gym.make's default checker runs, run here on purpose
            observation, info = checked.reset(seed=0)
            checked.step(int(env.legal_actions()[0]))
    space = env.observation_space
    fixed = space.high == np.nextafter(space.low, np.float32(np.inf))
    assert fixed.any() and not (space.low == space.high).any()
    assert np.array_equal(observation[fixed], space.low[fixed]) and space.contains(observation)


def test_check_env_with_the_default_illegal_action_fails_saying_what_to_do():
    with gym.make("yaniv_arena/Yaniv-v0", num_players=2) as env:
        with pytest.raises(IllegalActionError, match=r'make the env with illegal_action="penalty"'):
            check_env(env)


def test_what_gym_make_returns_has_action_masks_and_legal_actions():
    with gym.make("yaniv_arena/Yaniv-v0", opponents="random", num_players=3) as env:
        observation, info = env.reset(seed=4)
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        assert np.array_equal(env.legal_actions(), np.flatnonzero(info["action_mask"]))


def test_a_step_before_reset_says_call_reset():
    with gym.make("yaniv_arena/Yaniv-v0", num_players=2) as env:
        with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
            env.step(0)
