"""The env options every face takes, in Python spelling, turned into the TypeScript env's options."""

from __future__ import annotations

from typing import Any

RENDER_MODES = ("human", "ansi")


def env_options(
    num_players: int,
    preset: str,
    rules: dict | None,
    episode: str,
    reward: str,
    reward_scale: float,
    max_turns: int | None,
    seed: int = 0,
) -> dict[str, Any]:
    """The ``env`` of a make request. The TypeScript schema checks every value and names the problem."""
    check_int("num_players", num_players)
    if max_turns is not None:
        check_int("max_turns", max_turns)
    if rules is not None and not isinstance(rules, dict):
        raise ValueError(f"rules must be a dict of rule options, e.g. {{'yanivThreshold': 5}} (got {rules!r})")
    if not isinstance(preset, str):
        raise ValueError(f"preset must be a preset name (got {preset!r})")
    options: dict[str, Any] = {
        "players": int(num_players),
        "preset": preset,
        "rules": rules or {},
        "episode": episode,
        "reward": reward,
        "rewardScale": reward_scale,
        "maxTurns": None if max_turns is None else int(max_turns),
        "seed": seed,
    }
    return options


def check_int(name: str, value: Any) -> int:
    """An int option as an int (numpy's too); ValueError for a float, a bool or anything else (the range is the TypeScript schema's to check)."""
    import numpy as np

    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an int (got {value!r} of type {type(value).__name__})")
    return int(value)


NOT_STARTED = "call reset() before step(): the env has no game yet"


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi' (got {render_mode!r})")
    return render_mode


def render(bridge: Any, render_mode: str | None, seat: int) -> str | None:
    """A seat's view as text (ansi: returned; human: printed), from the renderer `yaniv` uses."""
    if render_mode is None:
        from gymnasium import logger

        logger.warn("render() called without a render_mode: make the env with render_mode='ansi' or 'human'")
        return None
    text = bridge.request({"type": "render", "seat": seat})["text"]
    if render_mode == "human":
        print(text)
        return None
    return text
