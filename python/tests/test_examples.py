"""The examples of examples/python run as a reader would run them."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT

EXAMPLES = ROOT / "examples" / "python"


def run(name: str, *args: str) -> str:
    result = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_random_aec_game():
    out = run("random_aec_game.py", "--players", "3", "--seed", "2")
    assert "Round 1, turn 0" in out and "rewards over the game: {'player_0'" in out


def test_gym_vs_strong():
    assert "3 games against strong: mean return" in run("gym_vs_strong.py", "--episodes", "3")


@pytest.mark.long
@pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("sb3_contrib") is None,
    reason="needs torch and sb3-contrib in python/.venv (pip install -e 'python[train]'); never downloaded by the tests",
)
def test_train_maskable_ppo_smoke():
    out = run("train_maskable_ppo.py", "--timesteps", "256", "--n-steps", "128", "--eval-episodes", "2")
    assert "after 256 steps: mean return" in out


def test_the_training_example_episodes_end_with_a_reward_against_random_play():
    """train_maskable_ppo.py's env (importable without torch): against random play every episode ends
    by the rules within the turn cap and pays a reward, so a learner has something to learn from."""
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLES / "train_maskable_ppo.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    rng = np.random.default_rng(0)
    ended, paid = 0, 0
    with example.make_env("random") as env:
        for episode in range(12):
            env.reset(seed=episode)
            total, terminated, truncated = 0.0, False, False
            while not (terminated or truncated):
                _, reward, terminated, truncated, _ = env.step(int(rng.choice(env.legal_actions())))
                total += reward
            ended += terminated
            paid += total != 0
    assert ended == 12 and paid >= 10
