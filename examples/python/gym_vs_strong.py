"""A learner's seat against the project's `strong` bot through the Gymnasium env, with a random
legal policy in place of a learner: the loop a training script runs.

    python examples/python/gym_vs_strong.py [--episodes 20] [--players 2]
"""

import argparse

import gymnasium as gym
import numpy as np

import yaniv_arena  # noqa: F401  (registers yaniv_arena/Yaniv-v0)

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--episodes", type=int, default=20)
parser.add_argument("--players", type=int, default=2)
args = parser.parse_args()

rng = np.random.default_rng(0)
returns = []
with gym.make("yaniv_arena/Yaniv-v0", opponents="strong", num_players=args.players, reward="winLoss") as env:
    observation, info = env.reset(seed=0)
    for episode in range(args.episodes):
        total, done = 0.0, False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            observation, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        returns.append(total)
        observation, info = env.reset()
print(f"{args.episodes} games against strong: mean return {np.mean(returns):+.3f} (winLoss: +1 a win, -1 a loss)")
