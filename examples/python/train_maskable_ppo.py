"""Trains sb3-contrib's MaskablePPO on the Gymnasium env against a bot of the registry.

Needs torch and sb3-contrib in the venv (docs/python.md: torch's CPU build first, then
pip install "yaniv-arena[train]").

    python examples/python/train_maskable_ppo.py [--timesteps 200000] [--opponents random] [--save ppo_yaniv]

One round is one episode, with the round's points as the reward (zeroSum: the opponents' points
less the learner's, scaled): every episode ends with a reward, so the learner hears how it did
within some 70 steps, even against random play, whose whole games run to a thousand turns and
more. The action masks are the env's action_masks(), handed to MaskablePPO through sb3-contrib's
ActionMasker.
"""

from __future__ import annotations

import argparse

import gymnasium as gym

import yaniv_arena  # noqa: F401  (registers yaniv_arena/Yaniv-v0)

# Per round, not per game: see the docstring. max_turns is a guard only (rounds end far sooner).
ENV_OPTIONS = {"episode": "round", "reward": "zeroSum", "max_turns": 400}


def make_env(opponents: str, players: int = 2) -> gym.Env:
    return gym.make("yaniv_arena/Yaniv-v0", opponents=opponents, num_players=players, **ENV_OPTIONS)


def main() -> None:
    import numpy as np
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from sb3_contrib.common.wrappers import ActionMasker

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--eval-episodes", type=int, default=50)
    parser.add_argument("--n-steps", type=int, default=2048)
    parser.add_argument("--save", default=None, help="where to save the model (a .zip)")
    args = parser.parse_args()

    env = ActionMasker(make_env(args.opponents, args.players), lambda wrapped: wrapped.unwrapped.action_masks())
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=min(256, args.n_steps), seed=0, verbose=0)
    model.learn(total_timesteps=args.timesteps)
    mean, std = evaluate_policy(model, env, n_eval_episodes=args.eval_episodes, use_masking=True)
    print(f"after {args.timesteps} steps: mean return {mean:+.3f} ± {std:.3f} per round over {args.eval_episodes} rounds against {args.opponents}")
    if args.save:
        model.save(args.save)
    env.close()
    assert np.isfinite(mean)


if __name__ == "__main__":
    main()
