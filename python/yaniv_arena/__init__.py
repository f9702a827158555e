"""yaniv-arena from Python: the project's Yaniv environment, played by its TypeScript engine.

Three faces, each over a node child process (``bridge/`` of the repository):

* ``yaniv_arena.yaniv_v0.env(...)`` — a PettingZoo AEC env (extra ``pettingzoo``);
* ``gymnasium.make("yaniv_arena/Yaniv-v0", opponents="strong", ...)`` — a Gymnasium env for one
  learner against agents of the registry (extra ``gymnasium``);
* ``yaniv_arena.vector.YanivVectorEnv(num_envs=...)`` — a batched Gymnasium ``VectorEnv``.
"""

from ._bridge import (
    ACTION_SPACE_VERSION,
    BRIDGE_PROTOCOL,
    OBSERVATION_VERSION,
    BridgeError,
    IllegalActionError,
)

__version__ = "0.1.0"
__all__ = ["ACTION_SPACE_VERSION", "BRIDGE_PROTOCOL", "OBSERVATION_VERSION", "BridgeError", "IllegalActionError"]

try:
    import gymnasium as _gymnasium
except ImportError:  # the gymnasium extra is not installed: the other faces still work
    _gymnasium = None

if _gymnasium is not None and "yaniv_arena/Yaniv-v0" not in _gymnasium.registry:
    # gym.make gives the env itself, so that env.action_masks() and env.legal_actions() work on what it
    # returns: the env checks its own call order (reset first) and passes Gymnasium's check_env.
    _gymnasium.register(
        id="yaniv_arena/Yaniv-v0", entry_point="yaniv_arena.gym_env:YanivEnv", order_enforce=False, disable_env_checker=True
    )
