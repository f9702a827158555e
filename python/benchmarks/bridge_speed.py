"""Steps per second through the bridge, for ``npm run bench python`` (bench/python.ts).

    python bridge_speed.py aec SECONDS PLAYERS        # PettingZoo's agent_iter loop on env(), random legal actions
    python bridge_speed.py aec-raw SECONDS PLAYERS    # the same loop on raw_env (no PettingZoo wrappers)
    python bridge_speed.py vector SECONDS PLAYERS N   # YanivVectorEnv(num_envs=N), a random legal action per game
    python bridge_speed.py vector-pipe SECONDS PLAYERS N   # the same, the per-game arrays sent through the pipe (shared_memory=False)
    python bridge_speed.py yaniv-rl SECONDS PLAYERS   # the RLCard-based yaniv-rl env, where it is installed

Prints one JSON line: steps, wall seconds, and the CPU seconds of this Python process and of its
node children (their sum is what a step costs, whatever else the machine is running), all of the
measured loop alone: not the imports, nor the node processes' start, nor a second of the same loop
before it, while node compiles its hot code (its compiler threads take a fifth of its CPU in the
first seconds; the in-process side is timed in a process that has run the env already).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

import numpy as np


WARM_UP = 1.0  # seconds of the same loop before timing: node compiles its hot code (the in-process side runs warm)

_children: list[int] = []
# The measured loop's wall seconds, this process's CPU seconds and its node children's (start-up and imports excluded).
_loop: dict[str, float] = {}


class _Loop:
    """Times the loop it encloses: wall, this process's CPU and its children's."""

    def __enter__(self) -> "_Loop":
        self.wall, self.own, self.children = time.perf_counter(), time.process_time(), _children_cpu()
        return self

    def __exit__(self, *exc: object) -> None:
        _loop["seconds"] = time.perf_counter() - self.wall
        _loop["python"] = time.process_time() - self.own
        _loop["node"] = _children_cpu() - self.children


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of a live process (Linux /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    try:
        return sum(_cpu_of(pid) for pid in _children)
    except (OSError, IndexError, ValueError):
        return float("nan")


def aec(seconds: float, players: int, wrapped: bool = True) -> int:
    from yaniv_arena import yaniv_v0

    rnd = random.Random(7)
    with (yaniv_v0.env if wrapped else yaniv_v0.raw_env)(num_players=players) as env:
        _children.append(env.unwrapped._bridge.pid)
        env.reset(seed=1)
        _aec_loop(env, rnd, WARM_UP)
        with _Loop():
            return _aec_loop(env, rnd, seconds)


def _aec_loop(env, rnd: random.Random, seconds: float) -> int:
    """PettingZoo's agent_iter loop over whole games, random legal actions, until `seconds` are up."""
    steps = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rnd.randrange(len(legal))])
            env.step(action)
            steps += 1
        env.reset()
    return steps


def vector(seconds: float, players: int, num: int, shared_memory: bool = True) -> int:
    from yaniv_arena.vector import YanivVectorEnv

    rng = np.random.default_rng(7)
    with YanivVectorEnv(num_envs=num, num_players=players, copy=False, shared_memory=shared_memory) as env:
        _children.extend(worker.bridge.pid for worker in env._workers)
        env.reset(seed=1)
        _vector_loop(env, rng, WARM_UP)
        with _Loop():
            return _vector_loop(env, rng, seconds)


def _vector_loop(env, rng: np.random.Generator, seconds: float) -> int:
    """Random legal actions in every game until `seconds` are up; the steps taken (one per game per batch)."""
    steps = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        env.step(env.sample_legal_actions(rng))
        steps += env.num_envs
    return steps


YANIV_RL_INSTALL = (
    "yaniv-rl is not installed in this venv (it is not on PyPI): pip install \"rlcard==0.2.8\" \"numpy<2\" "
    "and yaniv-rl from its repository"
)


def make_yaniv_rl(players: int):
    """yaniv-rl's RLCard env at its default table of 2 (None for another size: not measured). It
    registers nothing itself: its own scripts register it under "yaniv", as here."""
    from rlcard.envs import registration

    try:
        registration.register(env_id="yaniv", entry_point="yaniv_rl.envs.yaniv:YanivEnv")
    except ValueError:  # registered already ("Cannot re-register env_id")
        pass
    if players != 2:
        return None
    return registration.make("yaniv", config={"seed": 1})


def yaniv_rl(seconds: float, players: int) -> int:
    try:
        import rlcard  # noqa: F401  (0.2.8: yaniv-rl needs that version, and numpy < 2)
        import yaniv_rl  # noqa: F401
    except ImportError:
        print(json.dumps({"skipped": YANIV_RL_INSTALL}))
        raise SystemExit(0)
    env = make_yaniv_rl(players)
    if env is None:
        print(json.dumps({"skipped": f"yaniv-rl is measured at its default 2 seats, not {players}"}))
        raise SystemExit(0)
    rnd = random.Random(7)
    steps = 0
    with _Loop():
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rnd.randrange(len(legal))])
                steps += 1
    return steps


def main() -> None:
    kind, seconds, players = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    if kind == "aec":
        steps = aec(seconds, players)
    elif kind == "aec-raw":
        steps = aec(seconds, players, wrapped=False)
    elif kind in ("vector", "vector-pipe"):
        steps = vector(seconds, players, int(sys.argv[4]), shared_memory=kind == "vector")
    elif kind == "yaniv-rl":
        steps = yaniv_rl(seconds, players)
    else:
        raise SystemExit(f"unknown measurement {kind!r}")
    result = {"steps": steps, "seconds": _loop["seconds"], "cpuSeconds": _loop["python"] + _loop["node"], "nodeCpuSeconds": _loop["node"]}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
