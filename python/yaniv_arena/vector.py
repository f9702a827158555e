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
node workers write the observations, rewards and episode ends straight into memory this process
maps (``shared_memory=True``, the default: a file under /dev/shm, removed at once);
``shared_memory=False`` has them sent in each reply instead.
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

from ._bridge import MAX_PLAYERS, Bridge, IllegalActionError, StepFrame, bounds, check_seed, reset_frame
from ._options import NOT_STARTED, check_int, env_options

__all__ = ["YanivVectorEnv"]

VECTOR_SHARED = 1
VECTOR_HEADER = 16
_COUNTS = struct.Struct("<II")
# The per-game arrays of a vector state (SHARED_ARRAYS in bridge/protocol.ts), in their order: name,
# dtype, values per game (None: the observation size).
_ARRAYS = (
    ("observations", np.float32, None),
    ("rewards", np.float32, MAX_PLAYERS),
    ("actorRewards", np.float32, 1),
    ("legalCounts", np.int16, 1),
    ("currentPlayers", np.int8, 1),
    ("terminated", np.bool_, 1),
    ("truncated", np.bool_, 1),
)


class _Worker:
    """One node process holding games [start, stop)."""

    def __init__(self, start: int, stop: int) -> None:
        self.start, self.stop, self.num = start, stop, stop - start
        self.bridge = Bridge()
        self.made: dict = {}
        self.step = StepFrame(self.num)

    def make(self, options: dict, arrays: _Arrays) -> None:
        request = {"type": "make", "kind": "vector", "env": options, "num": self.num, "firstGame": self.start}
        if arrays.path is not None:
            request["shared"] = {"file": arrays.path, "at": arrays.offsets(self.start)}
        self.made = self.bridge.request(request)


class _Arrays:
    """The batch's per-game arrays, end to end in one buffer in the order of ``_ARRAYS``. With shared
    memory (VECTOR_SHARED in bridge/protocol.ts) that buffer is a file in /dev/shm (or the temporary
    folder where there is none) mapped here, which the node workers write before each reply and which
    is unlinked once every worker has it open, so that nothing is left behind whatever happens;
    without, it is private memory the replies are copied into."""

    def __init__(self, num_envs: int, size: int, shared: bool) -> None:
        self.path: str | None = None
        self._at: dict[str, tuple[int, int]] = {}  # name: (byte offset of game 0, bytes per game)
        shapes = {name: (num_envs,) if width == 1 else (num_envs, size if width is None else width) for name, _, width in _ARRAYS}
        total = 0
        for name, dtype, _ in _ARRAYS:
            row = np.dtype(dtype).itemsize * int(np.prod(shapes[name][1:]))
            self._at[name] = (total, row)
            total += num_envs * row
        if shared:
            folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
            fd, self.path = tempfile.mkstemp(prefix="yaniv-batch-", dir=folder)
            try:
                os.ftruncate(fd, total)
                self._buffer: mmap.mmap | bytearray = mmap.mmap(fd, total)
            finally:
                os.close(fd)
        else:
            self._buffer = bytearray(total)
        self.views = {
            name: np.frombuffer(self._buffer, dtype, int(np.prod(shapes[name])), self._at[name][0]).reshape(shapes[name])
            for name, dtype, _ in _ARRAYS
        }

    def offsets(self, game: int) -> dict[str, int]:
        """Where each array's row of ``game`` starts in the buffer, in bytes."""
        return {name: at + game * row for name, (at, row) in self._at.items()}

    def copy_from(self, body: memoryview, at: int, start: int, stop: int, observations: bool = True) -> int:
        """Copies a worker's arrays from its reply (no VECTOR_SHARED) from byte ``at`` (the observations
        only if ``observations``); returns where they end."""
        for name, dtype, _ in _ARRAYS:
            view = self.views[name][start:stop]
            if observations or name != "observations":
                view[...] = np.frombuffer(body, dtype, view.size, at).reshape(view.shape)
            at += view.nbytes
        return (at + 3) & ~3

    def unlink(self) -> None:
        if self.path is None:
            return
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
        self._arrays: _Arrays | None = None
        try:
            for start, stop in zip(cuts[:-1], cuts[1:]):
                self._workers.append(_Worker(int(start), int(stop)))
            hello = self._workers[0].bridge.hello
            self._size, self._actions = hello["observationSize"], hello["actionCount"]
            self._arrays = _Arrays(self.num_envs, self._size, bool(shared_memory))
            for worker in self._workers:
                worker.make(options, self._arrays)
        except BaseException:
            self.close_extras()
            raise
        finally:
            if self._arrays is not None:
                self._arrays.unlink()
        made = self._workers[0].made
        self.num_players = made["players"]
        self.rules = made["rules"]
        low, high = bounds(made)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self._actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        views = self._arrays.views
        self._observations, self._rewards_by_seat, self._counts = views["observations"], views["rewards"], views["legalCounts"]
        self._rewards = views["actorRewards"]
        self._current = views["currentPlayers"]
        self._terminated, self._truncated = views["terminated"], views["truncated"]
        self._mask = np.zeros((n, self._actions), np.int8)
        self._flat_mask = self._mask.reshape(-1)
        # The legal actions as positions in the flat mask (game × action count + id), game after game.
        self._legal = np.zeros(0, np.intp)
        self._row_starts = np.arange(n) * self._actions
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
        return self._out(self._observations), self._infos(final_obs)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = self._checked(actions)
        for worker in self._workers:
            worker.step.actions[:] = actions[worker.start : worker.stop]
            worker.bridge.send(worker.step.frame)
        final_obs = self._receive()
        return (
            self._out(self._observations),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            self._infos(final_obs),
        )

    def action_masks(self) -> np.ndarray:
        """Each game's legal actions now, as bools (num_envs × action count)."""
        return self._mask.astype(bool)

    def legal_actions(self) -> tuple[np.ndarray, np.ndarray]:
        """Each game's legal ids, ascending, game after game (flat), and how many each game has."""
        counts = self._counts.astype(np.intp)
        return self._legal - np.repeat(self._row_starts, counts), counts

    def sample_legal_actions(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """One legal action per game, uniformly at random (``rng``, else the env's ``np_random``): a
        random policy's actions from the legal ids, without drawing a random number per action id."""
        if self._next_seed is None:
            raise RuntimeError(NOT_STARTED.replace("step()", "sample_legal_actions()"))
        rng = self.np_random if rng is None else rng
        counts = self._counts
        starts = np.cumsum(counts, dtype=np.intp) - counts
        return self._legal[starts + (rng.random(self.num_envs) * counts).astype(np.intp)] - self._row_starts

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
        ids = array.astype(np.intp, copy=False)
        unsigned = ids.view(np.uintp)  # a negative id is a huge one: one comparison checks both ends
        if unsigned.max() >= self._actions:
            bad = int(np.flatnonzero(unsigned >= self._actions)[0])
            raise ValueError(f"game {bad}: action {int(array[bad])} is not an action id (0..{self._actions - 1})")
        legal = self._flat_mask[self._row_starts + ids]
        if not legal.all():
            game = int(np.flatnonzero(legal == 0)[0])
            raise IllegalActionError(
                f"game {game}: action {int(array[game])} is not legal for its player to move "
                f"(legal: {np.flatnonzero(self._mask[game]).tolist()}); no game was stepped"
            )
        return ids

    def _receive(self) -> list[tuple[int, np.ndarray]]:
        """Reads every worker's vector state frame (bridge/protocol.ts): the per-game arrays are in
        the shared file already (or copied from the frame), the legal positions set the mask."""
        size = self._size
        final_obs: list[tuple[int, np.ndarray]] = []
        legal = []
        for worker in self._workers:
            body = worker.bridge.receive()
            total, finals = _COUNTS.unpack_from(body, 4)
            at = VECTOR_HEADER
            if not body[1] & VECTOR_SHARED:
                # One worker's observations are read where they are, in the reply (no copy); the
                # small arrays are copied, so that an error reply over the buffer cannot change them.
                at = self._arrays.copy_from(body, at, worker.start, worker.stop, observations=not self._single)
                if self._single:
                    self._observations = np.frombuffer(body, np.float32, worker.num * size, VECTOR_HEADER).reshape(worker.num, size)
            if finals:
                games = np.frombuffer(body, "<i4", finals, at)
                at += 4 * finals
                ended = np.frombuffer(body, "<f4", finals * size, at).reshape(finals, size)
                at += 4 * finals * size
                final_obs.extend((worker.start + int(g), ended[k].copy()) for k, g in enumerate(games))
            legal.append(np.frombuffer(body, "<i4", total, at).astype(np.intp))
        self._flat_mask[self._legal] = 0
        self._legal = legal[0] if len(legal) == 1 else np.concatenate(legal)
        self._flat_mask[self._legal] = 1
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

