"""python/benchmarks/bridge_speed.py's yaniv-rl measurement, against stand-ins for RLCard 0.2.8 and yaniv-rl
that behave as they do where it matters: yaniv-rl registers nothing when imported, and RLCard's
``make`` knows only registered ids (the real ones are not on PyPI at a version numpy 2 runs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

REGISTRATION = '''
import importlib

class EnvRegistry:
    def __init__(self):
        self.env_specs = {}

    def register(self, env_id, entry_point):
        if env_id in self.env_specs:
            raise ValueError("Cannot re-register env_id: {}".format(env_id))
        self.env_specs[env_id] = entry_point

registry = EnvRegistry()

def register(env_id, entry_point):
    return registry.register(env_id, entry_point)

def make(env_id, config={}):
    if env_id not in registry.env_specs:
        raise ValueError("Cannot find env_id: {}".format(env_id))
    module, name = registry.env_specs[env_id].split(":")
    return getattr(importlib.import_module(module), name)(config)
'''

YANIV_ENV = '''
class YanivEnv:
    """A stand-in game of ten steps with two legal actions each."""

    def __init__(self, config):
        self.config = config

    def reset(self):
        self.steps = 0
        return {"legal_actions": [0, 1]}, 0

    def step(self, action):
        assert action in (0, 1)
        self.steps += 1
        return {"legal_actions": [0, 1]}, self.steps % 2

    def is_over(self):
        return self.steps >= 10
'''


def stand_ins(folder: Path) -> None:
    for package, files in {
        "rlcard": {"__init__.py": "", "envs/__init__.py": "", "envs/registration.py": REGISTRATION},
        "yaniv_rl": {"__init__.py": "", "envs/__init__.py": "", "envs/yaniv.py": YANIV_ENV},
    }.items():
        for name, text in files.items():
            path = folder / package / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)


def measure(tmp_path: Path, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    script = ROOT / "python" / "benchmarks" / "bridge_speed.py"
    done = subprocess.run([sys.executable, str(script), "yaniv-rl", *args], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_yaniv_rl_is_registered_as_its_own_scripts_do_and_measured(tmp_path):
    stand_ins(tmp_path)
    result = measure(tmp_path, "0.2", "2")
    assert result["steps"] >= 10 and result["steps"] % 10 == 0


def test_without_yaniv_rl_the_measurement_says_how_to_install_it(tmp_path):
    result = measure(tmp_path, "0.2", "2")
    assert "rlcard==0.2.8" in result["skipped"] and "numpy<2" in result["skipped"]
