import { describe, expect, it } from 'vitest';
import { type EnvOptions } from '../../../env/gym/episode.js';
import { OBS, OBSERVATION_SIZE, OPPONENT_BLOCK, encodeObservation } from '../../../env/gym/observation.js';
import { observationBounds } from '../../../env/gym/observationBounds.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';
import { randomInt, seededRng } from '../../../env/rules/random.js';
import { VARIANTS } from './envPositions.js';

/** Tables whose totals and call counts reach far: robbery, milestones that raise a total, a small limit, call caps. */
const EXTREME: { name: string; options: EnvOptions }[] = [
  {
    name: 'robbery, raising milestones, limit 40',
    options: {
      players: 5,
      rules: {
        milestoneRobbery: true,
        milestones: [
          [10, 60],
          [20, 0],
          [30, 15],
        ],
        eliminationLimit: 40,
      },
    },
  },
  {
    name: 'a big Assaf penalty, yanivThreshold 30',
    options: { players: 2, rules: { yanivThreshold: 30, assafPenalty: 400, eliminationLimit: 60 } },
  },
  { name: 'yanivCount with 2 calls', options: { players: 3, rules: { gameEnd: 'yanivCount', yanivsToWin: 2 } } },
  { name: 'round episodes', options: { players: 4, episode: 'round' } },
  { name: 'a turn cap, 1 call to win', options: { players: 2, maxTurns: 12, rules: { yanivsToWin: 1, handSize: 3, yanivThreshold: 30 } } },
];

const boundsOf = (env: YanivEnv) => observationBounds({ ...env.config, rules: env.table.episode.rules });

/** Every seat's observation at every step of `steps` random legal steps, checked against the table's bounds. */
function outOfBounds(options: EnvOptions, seed: number, steps: number): string[] {
  const env = new YanivEnv({ ...options, history: false });
  const { low, high } = boundsOf(env);
  const rng = seededRng(seed);
  const out = new Float32Array(OBSERVATION_SIZE);
  const problems: string[] = [];
  let { info } = env.reset({ seed });
  for (let step = 0; step < steps && problems.length < 5; step++) {
    for (let seat = 0; seat < env.players; seat++) {
      encodeObservation(env.state, seat, out);
      for (let i = 0; i < OBSERVATION_SIZE; i++)
        if (!(out[i] >= low[i] && out[i] <= high[i]))
          problems.push(`step ${step}, seat ${seat}, feature ${i}: ${out[i]} not in [${low[i]}, ${high[i]}]`);
    }
    const result = env.step(info.legalIds[randomInt(rng, 0, info.legalCount - 1)]);
    info = result.info;
    if (result.terminated || result.truncated) info = env.reset().info;
  }
  return problems;
}

describe('observation bounds', () => {
  it.each([...VARIANTS, ...EXTREME])('hold every feature of every seat in random play: $name', ({ options }) => {
    expect(outOfBounds(options, 11, 3000)).toEqual([]);
  });

  it('are exact where the rules fix a feature: rule features, absent opponents, call caps', () => {
    const env = new YanivEnv({ players: 3, rules: { gameEnd: 'yanivCount', jokersPerDeck: 0 } });
    const { low, high } = boundsOf(env);
    const rules = Array.from(high.subarray(OBS.rules, OBS.milestones));
    expect(Array.from(low.subarray(OBS.rules, OBS.milestones))).toEqual(rules);
    expect(high[OBS.ownScore + 1]).toBe(1);
    expect(high[OBS.drawn + 52]).toBe(0); // no jokers
    const thirdOpponent = OBS.opponents + 2 * OPPONENT_BLOCK;
    expect(Array.from(high.subarray(thirdOpponent, OBS.pile)).every((h) => h === 0)).toBe(true);
  });

  it('leave successful calls unbounded only where nothing caps them', () => {
    const bounds = (options: EnvOptions) => {
      const env = new YanivEnv(options);
      return boundsOf(env).high[OBS.ownScore + 1];
    };
    expect(bounds({ players: 2 })).toBe(Infinity);
    expect(bounds({ players: 2, maxTurns: 50 })).toBeCloseTo(5);
    expect(bounds({ players: 2, episode: 'round' })).toBeCloseTo(0.1);
  });
});
