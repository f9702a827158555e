"""Yaniv as a PettingZoo AEC env, in the classic-games convention.

``env(num_players=2, preset="standard", rules=None, ...)`` returns the wrapped env (an illegal
action ends the game with ``-1`` for the agent that played it, as in PettingZoo's classic games);
``raw_env`` is the bare env (an illegal action raises :class:`~yaniv_arena.IllegalActionError`).

Agents are ``player_0`` … ``player_{n-1}`` (seat order). Each observation is a dict of
``observation`` (the seat's ``yaniv-obs/2`` vector, float32, with exact per-feature bounds) and
``action_mask`` (int8; all zero for an agent that is not to move). A seat often takes several
steps in a row (lay, then draw): ``agent_selection`` says who moves. Rewards come at the end of
rounds, to every seat, per the ``reward`` scheme; a seat knocked out of the game stays an agent
(never selected) until the game ends, so its rewards sum as in the TypeScript env.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._bridge import ONGOING, TRUNCATED, Bridge, bounds, check_action, check_seed
from ._options import NOT_STARTED, RENDER_MODES, check_render_mode, env_options, render

__all__ = ["env", "raw_env"]

_AEC_HEADER = struct.Struct("<xBBbHBB")


def env(**kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's usual wrappers (illegal moves end the game at -1, order enforced)."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = _TerminateIllegal(wrapped, illegal_reward=-1)
    wrapped = _AssertOutOfBounds(wrapped)
    return _OrderEnforcing(wrapped)


def _from_the_game(name: str) -> property:
    def read(self: Any) -> Any:
        return getattr(self._game, name)

    return property(read, doc=f"The game's {name}, read from the raw env.")


class _Direct:
    """Reads the game's state from the raw env, where every wrapper reads and writes it, at once rather
    than through each wrapper's ``__getattr__`` in turn (most of what the wrappers cost a step). Before
    ``reset`` the raw env has none of it, and the wrapper's own ``__getattr__`` says so as before."""

    _game: raw_env

    agents = _from_the_game("agents")
    agent_selection = _from_the_game("agent_selection")
    rewards = _from_the_game("rewards")
    terminations = _from_the_game("terminations")
    truncations = _from_the_game("truncations")
    infos = _from_the_game("infos")
    _cumulative_rewards = _from_the_game("_cumulative_rewards")


class _TerminateIllegal(_Direct, wrappers.TerminateIllegalWrapper):
    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._game = env.unwrapped


class _AssertOutOfBounds(_Direct, wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._game = env.unwrapped


class _OrderEnforcing(_Direct, wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing, and a context manager that closes the env (its node process)."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._game = env.unwrapped

    def __enter__(self) -> "_OrderEnforcing":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Actions(spaces.Discrete):
    """Gymnasium's Discrete, with a plain int checked in plain Python (``AssertOutOfBoundsWrapper`` asks every step)."""

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return self.start <= x < self.start + self.n
        return super().contains(x)


class raw_env(AECEnv):
    metadata = {"render_modes": list(RENDER_MODES), "name": "yaniv_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        num_players: int = 2,
        preset: str = "standard",
        rules: dict | None = None,
        episode: str = "game",
        reward: str = "zeroSum",
        reward_scale: float = 0.01,
        max_turns: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.render_mode = check_render_mode(render_mode)
        options = env_options(num_players, preset, rules, episode, reward, reward_scale, max_turns)
        self._bridge = Bridge()
        try:
            made = self._bridge.request({"type": "make", "kind": "aec", "env": options})
        except BaseException:
            self._bridge.close()
            raise
        hello = self._bridge.hello
        self._size = hello["observationSize"]
        self._actions = hello["actionCount"]
        self.rules = made["rules"]
        self.preset = made["preset"]
        players = made["players"]
        self._players = players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        low, high = bounds(made)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self._actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: _Actions(self._actions) for agent in self.possible_agents}
        self._unpack_rewards = struct.Struct(f"<{players}f").unpack_from
        self._obs_at = 8 + 4 * players
        self._ids_at = self._obs_at + 4 * self._size
        self._mask: np.ndarray | None = None
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the game ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        body = self._bridge.reset(check_seed(seed))
        self.agents = self.possible_agents[:]
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._read(body)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.agent_selection = self.possible_agents[self._current]
        self._started = True

    def _check_playing(self, call: str) -> None:
        """A clear error for a call before reset, or after the game's every agent was stepped out."""
        if not self._started:
            raise RuntimeError(NOT_STARTED.replace("step()", f"{call}()"))
        if not self.agents:
            raise RuntimeError(f"the game is over (every agent is done): call reset() before {call}() to play another")

    def step(self, action: Any) -> None:
        self._check_playing("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        body = self._bridge.step_one(check_action(action, self._actions))
        self._read(body)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict(zip(self.possible_agents, self._rewards))
        if self._status != ONGOING:
            ended = dict.fromkeys(self.agents, True)
            if self._status == TRUNCATED:
                self.truncations = ended
            else:
                self.terminations = ended
        else:
            self.agent_selection = self.possible_agents[self._current]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _read(self, body: memoryview) -> None:
        """Takes in an AEC state frame (bridge/protocol.ts)."""
        # status, current (255: none once the episode is over), actor, legal count, observer, round ended
        self._status, self._current, _, count, self._observer, _ = _AEC_HEADER.unpack_from(body)
        self._rewards = self._unpack_rewards(body, 8)
        self._observation = np.frombuffer(body, "<f4", self._size, self._obs_at).copy()
        self._legal = np.frombuffer(body, "<i2", count, self._ids_at).copy()
        self._mask = None

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check_playing("last")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._started:
            raise RuntimeError(NOT_STARTED.replace("step()", "observe()"))
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r} here: the agents are {', '.join(self.possible_agents)}")
        seat = self.possible_agents.index(agent)
        if seat == self._observer:
            observation = self._observation
        else:
            observation = np.frombuffer(self._bridge.observe(seat), "<f4", self._size, 4).copy()
        if agent == self.agent_selection and self._status == ONGOING:
            if self._mask is None:
                self._mask = np.zeros(self._actions, np.int8)
                self._mask[self._legal] = 1
            mask = self._mask
        else:
            mask = np.zeros(self._actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def legal_actions(self) -> np.ndarray:
        """The legal action ids of the agent to move, ascending (empty once the game is over)."""
        return self._legal.copy()

    # -- rendering and lifecycle -----------------------------------------------------------------
    def render(self) -> str | None:
        return render(self._bridge, self.render_mode, self.possible_agents.index(self.agent_selection))

    def close(self) -> None:
        self._bridge.close()

    def __enter__(self) -> "raw_env":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
