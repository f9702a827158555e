"""Trains sb3-contrib's MaskablePPO on the Gymnasium env against a bot of the registry.

Needs torch and sb3-contrib in the venv (pip install -e "python[train]"; torch as its site says).

    python examples/python/train_maskable_ppo.py [--timesteps 200000] [--opponents intermediate] [--save ppo_yaniv]

The action masks are the env's action_masks(), handed to MaskablePPO through sb3-contrib's ActionMasker.
"""

import argparse

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from sb3_contrib.common.wrappers import ActionMasker

import yaniv_arena  # noqa: F401  (registers yaniv_arena/Yaniv-v0)

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--timesteps", type=int, default=200_000)
parser.add_argument("--opponents", default="intermediate")
parser.add_argument("--players", type=int, default=2)
parser.add_argument("--eval-episodes", type=int, default=50)
parser.add_argument("--n-steps", type=int, default=2048)
parser.add_argument("--save", default=None, help="where to save the model (a .zip)")
args = parser.parse_args()

# One game is one episode; winLoss: +1 for a won game, -1 for a lost one.
env = gym.make("yaniv_arena/Yaniv-v0", opponents=args.opponents, num_players=args.players, reward="winLoss", max_turns=400)
# The env's own action_masks(), put where MaskablePPO looks whatever wrappers gym.make added.
env = ActionMasker(env, lambda wrapped: wrapped.unwrapped.action_masks())
model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=min(256, args.n_steps), seed=0, verbose=0)
model.learn(total_timesteps=args.timesteps)
mean, std = evaluate_policy(model, env, n_eval_episodes=args.eval_episodes, use_masking=True)
print(f"after {args.timesteps} steps: mean return {mean:+.3f} ± {std:.3f} over {args.eval_episodes} games against {args.opponents}")
if args.save:
    model.save(args.save)
env.close()
assert np.isfinite(mean)
