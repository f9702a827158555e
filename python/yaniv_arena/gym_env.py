"""Yaniv as a Gymnasium env for one learner: ``gymnasium.make("yaniv_arena/Yaniv-v0", opponents="strong")``.

The other seats are played by agents of the project's registry, named by agent specs
(``random``, ``novice``, ``intermediate``, ``strong``, ``rollout?samples=16``, ``neural``, …): one
spec for every other seat, or a list with one per seat (the learner's entry ignored). ``step``
plays the opponents until the learner is to move again, and returns the learner's reward summed
over everything in between. The legal actions are ``info["action_mask"]`` (int8) and
``action_masks()`` (bool; what sb3-contrib's ``MaskablePPO`` reads). An illegal action raises
:class:`~yaniv_arena.IllegalActionError` (``illegal_action="raise"``), or ends the episode with
``-illegal_penalty`` (``illegal_action="penalty"``, ``info["illegal_action"] = True``).
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._bridge import ONGOING, TRUNCATED, Bridge, IllegalActionError, bounds, check_action, check_seed
from ._options import NOT_STARTED, RENDER_MODES, check_render_mode, env_options, render

__all__ = ["YanivEnv"]

ILLEGAL_ACTIONS = ("raise", "penalty")


class YanivEnv(gym.Env):
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        num_players: int = 2,
        opponents: str | Sequence[str | None] = "random",
        seat: int | str = 0,
        preset: str = "standard",
        rules: dict | None = None,
        episode: str = "game",
        reward: str = "zeroSum",
        reward_scale: float = 0.01,
        max_turns: int | None = None,
        illegal_action: str = "raise",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        self.render_mode = check_render_mode(render_mode)
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be 'raise' or 'penalty' (got {illegal_action!r})")
        if not isinstance(opponents, str):
            if not isinstance(opponents, (list, tuple)) or not all(o is None or isinstance(o, str) for o in opponents):
                raise ValueError(f"opponents must be an agent spec or a list of them, one per seat (got {opponents!r})")
            opponents = list(opponents)
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)) or illegal_penalty < 0:
            raise ValueError(f"illegal_penalty must be a number >= 0 (got {illegal_penalty!r})")
        self._bridge = Bridge()
        request = {
            "type": "make",
            "kind": "single",
            "env": env_options(num_players, preset, rules, episode, reward, reward_scale, max_turns),
            "seat": seat,
            "opponents": opponents,
            "illegal": illegal_action,
            "illegalPenalty": float(illegal_penalty),
        }
        try:
            made = self._bridge.request(request)
        except BaseException:
            self._bridge.close()
            raise
        for warning in made.get("warnings", []):
            gym.logger.warn(warning)
        self.num_players = made["players"]
        self.rules = made["rules"]
        self._size = self._bridge.hello["observationSize"]
        self._actions = self._bridge.hello["actionCount"]
        low, high = bounds(made)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self._actions)
        self._mask = np.zeros(self._actions, np.int8)
        self._legal = np.zeros(0, np.int16)
        self._started = False
        self.seat = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        observation, _, _, _, info = self._read(self._bridge.reset(check_seed(seed)))
        self._started = True
        return observation, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise RuntimeError(NOT_STARTED)
        try:
            return self._read(self._bridge.step_one(check_action(action, self._actions)))
        except IllegalActionError as error:
            raise IllegalActionError(
                f"{error}. The legal ids are info['action_mask'], env.action_masks() or env.legal_actions(); "
                "for a policy that ignores them (as Gymnasium's check_env does), make the env with "
                'illegal_action="penalty": an illegal action then ends the episode at -illegal_penalty'
            ) from None

    def _read(self, body: memoryview) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Takes in a single-agent state frame (bridge/protocol.ts)."""
        status = body[1]
        self.seat = body[2]
        count = body[4] | (body[5] << 8)
        reward = float(np.frombuffer(body, "<f4", 1, 8)[0])
        observation = np.frombuffer(body, "<f4", self._size, 12).copy()
        legal = np.frombuffer(body, "<i2", count, 12 + 4 * self._size).copy()
        mask = np.zeros(self._actions, np.int8)
        mask[legal] = 1
        self._mask, self._legal = mask, legal
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat}
        if body[3]:
            info["illegal_action"] = True
        if self.render_mode == "human":
            self.render()
        return observation, reward, status != ONGOING and status != TRUNCATED, status == TRUNCATED, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as bools (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

    def legal_actions(self) -> np.ndarray:
        """The learner's legal action ids now, ascending (cheaper than the mask: ``rng.choice(env.legal_actions())``)."""
        return self._legal.copy()

    def render(self) -> str | None:
        return render(self._bridge, self.render_mode, self.seat)

    def close(self) -> None:
        self._bridge.close()
