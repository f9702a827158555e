"""Shared helpers: the repository root, the TypeScript tracer, waiting on processes."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ["standard", "israeli5", "pagat", "dutch", "norwegian", "nepal", "family"]


def ts_trace(**trace) -> dict:
    """What the TypeScript env does on the same seeded run (test/python/envTrace.ts)."""
    out = subprocess.run(
        ["node", str(ROOT / "dist" / "test" / "python" / "envTrace.js"), json.dumps(trace)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def choose(step: int, legal: np.ndarray) -> int:
    """The tracer's action rule: entry (step · 7919 + 13) mod count of the ascending legal ids."""
    return int(legal[(step * 7919 + 13) % len(legal)])


class Digest:
    def __init__(self) -> None:
        self.hash = hashlib.sha256()

    def add(self, observation: np.ndarray) -> None:
        self.hash.update(np.ascontiguousarray(observation, dtype="<f4").tobytes())

    def hex(self) -> str:
        return self.hash.hexdigest()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie has exited: its state letter is Z
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


def wait_gone(pid: int, timeout: float = 20.0) -> bool:
    """Polls until the process has exited (the event), up to a generous deadline for a busy machine."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def root() -> Path:
    return ROOT
