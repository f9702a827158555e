"""One game of Yaniv between random players, through the PettingZoo AEC env, shown as it goes.

    python examples/python/random_aec_game.py [--players 3] [--seed 0] [--quiet]
"""

import argparse

import numpy as np

from yaniv_arena import yaniv_v0

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--players", type=int, default=3)
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--quiet", action="store_true", help="print only the outcome")
args = parser.parse_args()

rng = np.random.default_rng(args.seed)
totals = {}
with yaniv_v0.env(num_players=args.players, render_mode="ansi") as env:
    env.reset(seed=args.seed)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            action = None
        else:
            if not args.quiet and env.unwrapped.observe(agent)["observation"][0] == 1:  # the first step of a turn
                print(env.render(), end="\n\n")
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
print("rewards over the game:", {agent: round(total, 3) for agent, total in totals.items()})
