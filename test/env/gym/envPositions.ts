// Random positions for environment tests: seeded random play through YanivEnv.
import { type EnvOptions } from '../../../env/gym/episode.js';
import { randomInt, seededRng } from '../../../env/rules/random.js';
import type { GameState } from '../../../env/rules/state.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';

/** Rule settings that exercise every corner of the action space: every preset, one and two decks, the after-draw rules. */
export const VARIANTS: { name: string; options: EnvOptions }[] = [
  ...['standard', 'israeli5', 'pagat', 'dutch', 'norwegian', 'nepal', 'family'].flatMap((preset) =>
    [1, 2].map((decks) => ({
      name: `${preset}, ${decks} deck${decks > 1 ? 's' : ''}`,
      options: { preset, players: 4, rules: { decks } },
    })),
  ),
  {
    name: 'two decks, 8 jokers, ends everywhere, quick discards and slapdowns',
    options: { players: 3, rules: { decks: 2, jokersPerDeck: 4, pickFromSet: 'ends', quickDiscard: true, slapdown: true, handSize: 7 } },
  },
  {
    name: 'one deck, 4 jokers, quick discards, 8 players',
    options: { players: 8, rules: { jokersPerDeck: 4, quickDiscard: true, slapdown: true, yanivThreshold: 15 } },
  },
  {
    name: 'any card of a run, ends of sets, 2 players',
    options: { players: 2, rules: { pickFromRun: 'any', pickFromSet: 'ends', handSize: 7 } },
  },
];

/** Every position met in `steps` random steps (random legal ids; whole games, resets in between). */
export function randomPositions(options: EnvOptions, seed: number, steps: number): GameState[] {
  const env = new YanivEnv({ ...options, history: false });
  const rng = seededRng(seed);
  let { info } = env.reset({ seed });
  const states: GameState[] = [env.getState()];
  for (let i = 0; i < steps; i++) {
    const result = env.step(info.legalIds[randomInt(rng, 0, info.legalCount - 1)]);
    info = result.info;
    if (result.terminated || result.truncated) info = env.reset().info;
    states.push(env.getState());
  }
  return states;
}

export const RUNS = process.env.YANIV_PROPERTY_RUNS === 'long' ? 20 : 1;
