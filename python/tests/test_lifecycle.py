"""The node process lives exactly as long as its env: close, context managers, GC, exit, Ctrl-C, death."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from conftest import alive, wait_gone
from yaniv_arena import BridgeError, _bridge, yaniv_v0
from yaniv_arena.vector import YanivVectorEnv


def pid_of(env) -> int:
    return env.unwrapped._bridge.pid


def test_close_ends_the_child_and_a_closed_env_says_so():
    env = yaniv_v0.raw_env()
    pid = pid_of(env)
    env.reset(seed=0)
    env.close()
    assert not alive(pid)
    with pytest.raises(RuntimeError, match="closed"):
        env.reset()


def test_context_managers_close_every_face():
    import gymnasium as gym

    with yaniv_v0.env() as aec, gym.make("yaniv_arena/Yaniv-v0") as single, YanivVectorEnv(num_envs=4, num_workers=2) as vector:
        pids = [pid_of(aec), pid_of(single)] + [w.bridge.pid for w in vector._workers]
        assert all(alive(pid) for pid in pids)
    assert not any(alive(pid) for pid in pids)


def test_garbage_collection_ends_the_child():
    env = yaniv_v0.raw_env()
    pid = pid_of(env)
    del env
    gc.collect()
    assert wait_gone(pid)


def run_python(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_interpreter_exit_ends_the_child():
    script = run_python(
        """
        from yaniv_arena import yaniv_v0
        env = yaniv_v0.raw_env()
        print(env.unwrapped._bridge.pid, flush=True)
        """
    )
    pid = int(script.stdout.readline())
    assert script.wait(timeout=60) == 0
    assert wait_gone(pid)


def test_ctrl_c_raises_keyboard_interrupt_and_leaves_no_child():
    script = run_python(
        """
        from yaniv_arena import yaniv_v0
        env = yaniv_v0.raw_env(num_players=4)
        env.reset(seed=0)
        try:
            # Inside the try: an interrupt that lands right after this line is still caught below.
            print(env.unwrapped._bridge.pid, flush=True)
            while True:
                env.step(int(env.legal_actions()[0]))
                if any(env.terminations.values()):
                    env.reset()
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            raise
        """
    )
    pid = int(script.stdout.readline())
    script.send_signal(signal.SIGINT)
    line = script.stdout.readline().strip()
    assert line == "interrupted", f"the script said {line!r}; its stderr: {script.stderr.read() if not line else ''}"
    assert script.wait(timeout=60) != 0
    assert "KeyboardInterrupt" in script.stderr.read()
    assert wait_gone(pid)


def test_a_dead_child_is_raised_with_its_code():
    env = yaniv_v0.raw_env()
    env.reset(seed=0)
    os.kill(pid_of(env), signal.SIGKILL)
    with pytest.raises(BridgeError, match="exited"):
        env.step(int(env.legal_actions()[0]))
    with pytest.raises(BridgeError, match="no longer be used"):
        env.reset()


def test_the_childs_stderr_is_in_the_error(tmp_path, monkeypatch):
    script = tmp_path / "dist" / "bridge" / "main.js"
    script.parent.mkdir(parents=True)
    script.write_text("process.stderr.write('the engine could not start: boom\\n'); process.exit(3);\n")
    monkeypatch.setenv("YANIV_ARENA_ROOT", str(tmp_path))
    with pytest.raises(BridgeError, match=r"code 3\):\nthe engine could not start: boom"):
        yaniv_v0.raw_env()


def test_a_missing_bridge_says_how_to_get_one(tmp_path, monkeypatch):
    monkeypatch.setenv("YANIV_ARENA_ROOT", str(tmp_path))
    with pytest.raises(BridgeError, match="npm ci"):
        yaniv_v0.raw_env()


def test_a_version_mismatch_is_refused_naming_both(monkeypatch):
    monkeypatch.setattr(_bridge, "OBSERVATION_VERSION", "yaniv-obs/99")
    with pytest.raises(ValueError, match="client speaks observation yaniv-obs/99, this bridge speaks yaniv-obs/2"):
        yaniv_v0.raw_env()
