"""N Yaniv games stepped together: a Gymnasium ``VectorEnv`` over the TypeScript ``VecEnv``.

Every seat of every game is played from outside (self-play): each step takes one action per
game, for the game's player to move, and the observation of game ``i`` is always its player to
move's. ``rewards[i]`` is the reward of the seat that just acted in game ``i``; every seat's
reward of the step is ``infos["rewards"]`` (num_envs × num_players), the seat to move
``infos["current_player"]``, the legal actions ``infos["action_mask"]`` (int8) and
``action_masks()`` (bool).

Autoreset: same-step (``AutoresetMode.SAME_STEP``). When game ``i``'s episode ends, the step's
observation is already the first of its next episode; ``terminations[i]``/``truncations[i]`` say
it ended and ``infos["final_obs"][i]`` holds the observation it ended on (``infos["_final_obs"]``
marks which games have one). Game ``i`` plays as the AEC env reset with ``seed + i``, then reset
without a seed at each episode end. With ``num_workers > 1`` the games are split across that
many node processes (seeds as with one).

With ``copy=False`` the arrays returned are views of buffers the next ``step`` overwrites. The
node workers write the observations straight into memory this process maps (``shared_memory=True``,
the default: a file under /dev/shm, removed at once); ``shared_memory=False`` has them sent in
each reply instead.
"""

from __future__ import annotations

import mmap
import os
import struct
import tempfile
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._bridge import MAX_PLAYERS, Bridge, IllegalActionError, bounds, check_seed, reset_frame, step_frame
from ._options import NOT_STARTED, check_int, env_options

__all__ = ["YanivVectorEnv"]

VECTOR_SHARED = 1
_COUNTS = struct.Struct("<II")


class _Worker:
    """One node process holding games [start, stop)."""

    def __init__(self, start: int, stop: int) -> None:
        self.start, self.stop, self.num = start, stop, stop - start
        self.bridge = Bridge()
        self.made: dict = {}

    def make(self, options: dict, shared: _SharedObservations | None) -> None:
        request = {"type": "make", "kind": "vector", "env": options, "num": self.num, "firstGame": self.start}
        if shared is not None:
            request["observations"] = {"file": shared.path, "offset": self.start * shared.row_bytes}
        self.made = self.bridge.request(request)


class _SharedObservations:
    """The batch's observations in memory the node workers write (VECTOR_SHARED in bridge/protocol.ts):
    a file in /dev/shm (or the temporary folder where there is none) mapped here, unlinked once every
    worker has it open, so that nothing is left behind whatever happens."""

    def __init__(self, num_envs: int, size: int) -> None:
        shm = "/dev/shm"
        folder = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None
        self.row_bytes = 4 * size
        fd, self.path = tempfile.mkstemp(prefix="yaniv-observations-", dir=folder)
        try:
            os.ftruncate(fd, num_envs * self.row_bytes)
            self._map = mmap.mmap(fd, num_envs * self.row_bytes)
        finally:
            os.close(fd)
        self.array = np.frombuffer(self._map, np.float32).reshape(num_envs, size)

    def unlink(self) -> None:
        try:
            os.unlink(self.path)
        except OSError:
            pass


class YanivVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 64,
        num_players: int = 2,
        preset: str = "standard",
        rules: dict | None = None,
        episode: str = "game",
        reward: str = "zeroSum",
        reward_scale: float = 0.01,
        max_turns: int | None = None,
        num_workers: int = 1,
        copy: bool = True,
        shared_memory: bool = True,
    ) -> None:
        for name, value in (("num_envs", num_envs), ("num_workers", num_workers)):
            if check_int(name, value) < 1:
                raise ValueError(f"{name} must be a positive int (got {value!r})")
        if num_workers > num_envs:
            raise ValueError(f"num_workers ({num_workers}) must not exceed num_envs ({num_envs})")
        self.num_envs = int(num_envs)
        self.copy = bool(copy)
        options = env_options(num_players, preset, rules, episode, reward, reward_scale, max_turns)
        cuts = np.linspace(0, self.num_envs, int(num_workers) + 1).astype(int)
        self._workers: list[_Worker] = []
        self._shared: _SharedObservations | None = None
        try:
            for start, stop in zip(cuts[:-1], cuts[1:]):
                self._workers.append(_Worker(int(start), int(stop)))
            hello = self._workers[0].bridge.hello
            self._size, self._actions = hello["observationSize"], hello["actionCount"]
            if shared_memory:
                self._shared = _SharedObservations(self.num_envs, self._size)
            for worker in self._workers:
                worker.make(options, self._shared)
        except BaseException:
            self.close_extras()
            raise
        finally:
            if self._shared is not None:
                self._shared.unlink()
        made = self._workers[0].made
        self.num_players = made["players"]
        self.rules = made["rules"]
        low, high = bounds(made)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self._actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._observations = self._shared.array if self._shared is not None else np.zeros((n, self._size), np.float32)
        self._rewards_by_seat = np.zeros((n, MAX_PLAYERS), np.float32)
        self._counts = np.zeros(n, np.int16)
        self._actors = np.full(n, -1, np.int8)
        self._current = np.zeros(n, np.int8)
        self._terminated = np.zeros(n, bool)
        self._truncated = np.zeros(n, bool)
        self._mask = np.zeros((n, self._actions), np.int8)
        self._legal_rows = np.zeros(0, np.intp)
        self._legal_ids = np.zeros(0, np.int16)
        self._rows = np.arange(n)
        self._all = np.ones(n, bool)
        self._next_seed: int | None = None
        self._single = len(self._workers) == 1

    # -- the Gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ValueError(f"seed must be an int (game i gets seed + i) or None (got {seed!r})")
        seed = check_seed(seed)
        if seed is None:
            seed = self._next_seed or 0
        self._next_seed = seed + self.num_envs
        for worker in self._workers:
            worker.bridge.send(reset_frame(seed))
        final_obs = self._receive()
        self._actors.fill(-1)
        return self._out(self._observations), self._infos(final_obs)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = self._checked(actions)
        for worker in self._workers:
            worker.bridge.send(step_frame(actions[worker.start : worker.stop]))
        final_obs = self._receive()
        rewards = self._rewards_by_seat[self._rows, self._actors]
        return (
            self._out(self._observations),
            rewards,
            self._out(self._terminated),
            self._out(self._truncated),
            self._infos(final_obs),
        )

    def action_masks(self) -> np.ndarray:
        """Each game's legal actions now, as bools (num_envs × action count)."""
        return self._mask.astype(bool)

    def legal_actions(self) -> tuple[np.ndarray, np.ndarray]:
        """Each game's legal ids, ascending, game after game (flat), and how many each game has."""
        return self._legal_ids.copy(), self._counts.astype(np.intp)

    def sample_legal_actions(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """One legal action per game, uniformly at random (``rng``, else the env's ``np_random``): a
        random policy's actions from the legal ids, without drawing a random number per action id."""
        if self._next_seed is None:
            raise RuntimeError(NOT_STARTED.replace("step()", "sample_legal_actions()"))
        rng = self.np_random if rng is None else rng
        counts = self._counts.astype(np.intp)
        starts = np.cumsum(counts) - counts
        return self._legal_ids[starts + (rng.random(self.num_envs) * counts).astype(np.intp)].astype(np.int64)

    def __enter__(self) -> "YanivVectorEnv":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close_extras(self, **kwargs: Any) -> None:
        for worker in self._workers:
            worker.bridge.close()

    # -- frames ----------------------------------------------------------------------------------
    def _checked(self, actions: Any) -> np.ndarray:
        if self._next_seed is None:
            raise RuntimeError(NOT_STARTED)
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"step needs one action per game: shape ({self.num_envs},), got {array.shape}")
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integer action ids, got dtype {array.dtype}")
        if array.min() < 0 or array.max() >= self._actions:
            bad = int(np.flatnonzero((array < 0) | (array >= self._actions))[0])
            raise ValueError(f"game {bad}: action {int(array[bad])} is not an action id (0..{self._actions - 1})")
        illegal = self._mask[self._rows, array] == 0
        if illegal.any():
            game = int(np.flatnonzero(illegal)[0])
            raise IllegalActionError(
                f"game {game}: action {int(array[game])} is not legal for its player to move "
                f"(legal: {np.flatnonzero(self._mask[game]).tolist()}); no game was stepped"
            )
        return array.astype(np.int32, copy=False)

    def _receive(self) -> list[tuple[int, np.ndarray]]:
        """Reads every worker's vector state frame (bridge/protocol.ts) into the batch arrays."""
        size = self._size
        final_obs: list[tuple[int, np.ndarray]] = []
        rows, ids = [], []
        for worker in self._workers:
            body = worker.bridge.receive()
            a, b, n = worker.start, worker.stop, worker.num
            total, finals = _COUNTS.unpack_from(body, 4)
            at = 16
            if not body[1] & VECTOR_SHARED:  # else the worker wrote them into the shared file
                observations = np.frombuffer(body, "<f4", n * size, at).reshape(n, size)
                if self._single:
                    self._observations = observations  # a view of the frame: no copy
                else:
                    self._observations[a:b] = observations
                at += 4 * n * size
            self._rewards_by_seat[a:b] = np.frombuffer(body, "<f4", n * MAX_PLAYERS, at).reshape(n, MAX_PLAYERS)
            at += 4 * n * MAX_PLAYERS
            self._counts[a:b] = np.frombuffer(body, "<i2", n, at)
            at += 2 * n
            self._actors[a:b] = np.frombuffer(body, "i1", n, at)
            self._current[a:b] = np.frombuffer(body, "i1", n, at + n)
            self._terminated[a:b] = np.frombuffer(body, "u1", n, at + 2 * n)
            self._truncated[a:b] = np.frombuffer(body, "u1", n, at + 3 * n)
            at = (at + 4 * n + 3) & ~3
            if finals:
                games = np.frombuffer(body, "<i4", finals, at)
                at += 4 * finals
                ended = np.frombuffer(body, "<f4", finals * size, at).reshape(finals, size)
                at += 4 * finals * size
                final_obs.extend((a + int(g), ended[k].copy()) for k, g in enumerate(games))
            ids.append(np.frombuffer(body, "<i2", total, at).astype(np.intp))
            rows.append(np.repeat(self._rows[a:b], self._counts[a:b]))
        self._mask[self._legal_rows, self._legal_ids] = 0
        self._legal_rows = np.concatenate(rows) if len(rows) > 1 else rows[0]
        self._legal_ids = np.concatenate(ids) if len(ids) > 1 else ids[0]
        self._mask[self._legal_rows, self._legal_ids] = 1
        return final_obs

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _infos(self, final_obs: list[tuple[int, np.ndarray]]) -> dict[str, Any]:
        infos: dict[str, Any] = {
            "action_mask": self._out(self._mask),
            "_action_mask": self._all,
            "current_player": self._out(self._current),
            "_current_player": self._all,
            "rewards": self._out(self._rewards_by_seat[:, : self.num_players]),
            "_rewards": self._all,
        }
        if final_obs:
            objects = np.full(self.num_envs, None, dtype=object)
            marks = np.zeros(self.num_envs, bool)
            for game, observation in final_obs:
                objects[game] = observation
                marks[game] = True
            infos["final_obs"] = objects
            infos["_final_obs"] = marks
        return infos

