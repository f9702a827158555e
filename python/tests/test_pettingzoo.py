"""The AEC env against PettingZoo's own tests, and its behaviour where they do not look."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from conftest import PRESETS
from yaniv_arena import IllegalActionError, yaniv_v0

TABLES = [{"num_players": n} for n in (2, 4, 8)] + [{"num_players": 3, "preset": p} for p in PRESETS]
NAMES = [f"{t['num_players']} seats {t.get('preset', 'standard')}" for t in TABLES]


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_api_test(table):
    with yaniv_v0.env(**table) as env:
        api_test(env, num_cycles=120)


@pytest.mark.parametrize("table", TABLES, ids=NAMES)
def test_seed_test(table):
    seed_test(lambda: yaniv_v0.env(**table), num_cycles=120)


def test_api_test_on_the_raw_env_with_a_turn_cap():
    with yaniv_v0.raw_env(num_players=5, max_turns=9, rules={"decks": 2, "jokersPerDeck": 4}) as env:
        api_test(env, num_cycles=120)


def test_a_turn_cap_truncates_every_agent():
    with yaniv_v0.env(num_players=3, max_turns=4) as env:
        env.reset(seed=2)
        steps = 0
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
            steps += 1
        assert env.unwrapped.truncations == {} and env.agents == []
        assert steps >= 4 + 3


def test_observations_fit_their_exact_box_and_masks_only_the_mover():
    with yaniv_v0.raw_env(num_players=4) as env:
        env.reset(seed=9)
        for _ in range(200):
            for agent in env.agents:
                seen = env.observe(agent)
                assert env.observation_space(agent).contains(seen)
                assert seen["action_mask"].any() == (agent == env.agent_selection)
            mover = env.agent_selection
            env.step(int(np.flatnonzero(env.observe(mover)["action_mask"])[-1]))
            if any(env.terminations.values()):
                env.reset()


def test_the_raw_env_raises_on_an_illegal_action_naming_it():
    with yaniv_v0.raw_env(num_players=2) as env:
        env.reset(seed=1)
        illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
        with pytest.raises(IllegalActionError, match=f"action {illegal} .* is illegal"):
            env.step(illegal)
        env.step(int(env.legal_actions()[0]))  # still usable


def test_the_wrapped_env_ends_the_game_at_minus_one_for_an_illegal_action():
    with yaniv_v0.env(num_players=3) as env:
        env.reset(seed=1)
        offender = env.agent_selection
        mask = env.observe(offender)["action_mask"]
        env.step(int(np.flatnonzero(mask == 0)[0]))
        assert all(env.terminations.values())
        assert env.rewards[offender] == -1


def test_ansi_rendering_is_the_projects_renderer():
    with yaniv_v0.env(num_players=3, render_mode="ansi") as env:
        env.reset(seed=4)
        text = env.render()
        assert "Round 1, turn 0" in text and "seat 0" in text and "(you, to move)" in text


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_players": 9}, "players"),
        ({"num_players": "two"}, "players"),
        ({"rules": {"yanivTreshold": 5}}, "yanivTreshold"),
        ({"rules": {"yanivThreshold": 99}}, "yanivThreshold"),
        ({"rules": "dutch"}, "rules must be a dict"),
        ({"preset": "klingon"}, "klingon"),
        ({"episode": "match"}, "episode"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_bad_arguments_are_value_errors_naming_the_problem(kwargs, message):
    with pytest.raises(ValueError, match=message):
        yaniv_v0.raw_env(**kwargs)


@pytest.mark.parametrize("action, message", [(1.0, "int action id"), ("3", "int action id"), (True, "int action id"), (99999, "not an action id"), (-1, "not an action id")])
def test_bad_actions_are_value_errors(action, message):
    with yaniv_v0.raw_env() as env:
        env.reset(seed=0)
        with pytest.raises(ValueError, match=message):
            env.step(action)
        env.step(np.int64(env.legal_actions()[0]))


# -- what a new user tripped on (issue 43) --------------------------------------------------------


def test_the_raw_env_before_reset_and_after_the_game_says_call_reset():
    with yaniv_v0.raw_env(num_players=2, max_turns=3) as env:
        for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0")):
            with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
                call()
        env.reset(seed=1)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else int(env.legal_actions()[0]))
        for call in (lambda: env.step(0), env.last):
            with pytest.raises(RuntimeError, match=r"the game is over .*call reset\(\) before"):
                call()
        env.reset(seed=2)
        assert env.agents == ["player_0", "player_1"]


@pytest.mark.parametrize("option", [{"num_players": 2.0}, {"num_players": True}, {"max_turns": 40.0}])
def test_a_float_or_bool_where_an_int_goes_is_refused(option):
    with pytest.raises(ValueError, match=f"{next(iter(option))} must be an int"):
        yaniv_v0.raw_env(**option)
