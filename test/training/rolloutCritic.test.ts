// The rollout critic (training/rolloutCritic.ts, --critic rollout): rounds played out from the true
// state leave it untouched and are valued as the equity reward values a round; the actor records the
// values without changing anything the policy reads or plays (the leak test); GAE bootstraps from them.
import { beforeAll, describe, expect, it } from 'vitest';
import { readEquityData, shippedEquityFile, solveEquityData } from '../../agents/equity/equity.js';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { cloneState } from '../../env/rules/state.js';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork, type Network, type PolicyValueConfig } from '../../nn/networks.js';
import { ROLLOUT_CRITIC } from '../../training/critic.js';
import { parseOpponentMix } from '../../training/league.js';
import { Rollout, type RolloutSetup } from '../../training/rollout.js';
import { ROLLOUT_EPSILON, rolloutValue, rolloutValues } from '../../training/rolloutCritic.js';
import { emptyTrajectoryBatch } from '../../training/trajectory.js';
import { randomPositions } from '../env/gym/envPositions.js';

const equityData = readEquityData(shippedEquityFile('standard', 4));
const equity = solveEquityData(equityData);
const positions = randomPositions({ players: 4 }, 7, 40);
const tinyNetwork = (seed: number): Network<PolicyValueConfig> =>
  buildNetwork({ kind: 'policy-value', observationSize: OBSERVATION_SIZE, actionCount: ACTION_COUNT, hiddenUnits: [8], seed });

describe('the rollout critic', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('plays copies: the state is untouched, the same seed gives the same values, each an equity change within ±1', () => {
    for (const s of positions.slice(0, 10)) {
      const before = cloneState(s);
      const options = { rollouts: 4, epsilon: ROLLOUT_EPSILON, shuffleBelow: null };
      const a = rolloutValues(s, equity, options, 5);
      expect(s).toEqual(before);
      expect(rolloutValues(s, equity, options, 5)).toEqual(a);
      for (const v of a) expect(Math.abs(v)).toBeLessThanOrEqual(1);
      expect(rolloutValue(s, equity, 4, 5)).toBeCloseTo(a.reduce((x, y) => x + y, 0) / 4, 12);
    }
  });

  it('with the deck as dealt and no random turns every rollout replays one future; random turns spread them', () => {
    let spread = 0;
    for (const s of positions) {
      const fixed = rolloutValues(s, equity, { rollouts: 3, epsilon: 0, shuffleBelow: null }, 1);
      expect(fixed[1]).toBe(fixed[0]);
      expect(fixed[2]).toBe(fixed[0]);
      const noisy = rolloutValues(s, equity, { rollouts: 8, epsilon: 0.3, shuffleBelow: null }, 1);
      if (new Set(noisy).size > 1) spread++;
    }
    expect(spread).toBeGreaterThan(positions.length / 4);
  });

  it('leaves the policy blind to it: the actor records the values, and everything else it records and plays is what it is without them', () => {
    const setup: RolloutSetup = {
      players: [4],
      games: 4,
      env: { preset: 'standard', rules: {}, episode: 'game', reward: 'equity', rewardScale: 1, maxTurns: 200 },
      returnHorizon: 'round',
      opponents: parseOpponentMix('self=1'),
      seed: 11,
      equity: [equityData],
    };
    const batches = [0, 2].map((criticRollouts) => {
      const net = tinyNetwork(3);
      const rollout = new Rollout({ ...setup, criticRollouts }, net, new Map(), null);
      const { trajectories } = rollout.collect(300, { kind: 'ppo' });
      net.model.dispose();
      return trajectories;
    });
    const [without, withRollouts] = batches;
    expect(without.rolloutValues).toBeNull();
    const values = withRollouts.rolloutValues as Float32Array;
    expect(values.length).toBe(withRollouts.count);
    expect(values.some((v) => v !== 0)).toBe(true);
    expect({ ...withRollouts, rolloutValues: null }).toEqual(without);
    expect(ROLLOUT_CRITIC.values(withRollouts)).toBe(values);
    expect(() => ROLLOUT_CRITIC.values(without)).toThrow(/no rolloutValues column.*--critic rollout/);
  });

  it('bootstraps from the recorded values: the next row in a stream, 0 at a return’s end, its own value where the segment ends', () => {
    const batch = emptyTrajectoryBatch(6, ['rolloutValues']);
    const v = Float32Array.from([0.1, -0.2, 0.3, 0.05, -0.1, 0.2]);
    (batch.rolloutValues as Float32Array).set(v);
    batch.dones.set([0, 0, 1, 0, 2, 0]);
    batch.segmentEnds.set([0, 0, 1, 0, 1, 1]);
    batch.rewards.set([0, 0, 0.5, 0, 0, 0]);
    const { values, advantages, returns } = ROLLOUT_CRITIC.targets(batch, 1, 1);
    expect(values).toBe(batch.rolloutValues);
    expect(advantages[2]).toBeCloseTo(0.5 - v[2], 6);
    expect(advantages[0]).toBeCloseTo(0.5 - v[0], 6);
    expect(advantages[3]).toBeCloseTo(v[4] - v[3], 6);
    expect(advantages[5]).toBeCloseTo(0, 6);
    returns.forEach((r, k) => expect(r).toBeCloseTo(advantages[k] + v[k], 6));
  });
});
