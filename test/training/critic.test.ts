// The whole-deal critic (training/critic.ts): the policy never reads what the critic reads (the leak
// tests), the critic starts as the policy's value, bootstraps its own values, learns, and survives a
// checkpoint; and the held-out returns it is measured against (training/heldOutValue.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { MaskScratch, writeActionMask } from '../../env/gym/actionMask.js';
import { OBSERVATION_SIZE, encodeObservation } from '../../env/gym/observation.js';
import { WHOLE_DEAL_HIDDEN_SEGMENTS, WHOLE_DEAL_HIDDEN_SIZE, encodeHiddenDeal } from '../../env/gym/wholeDeal.js';
import { seededRng } from '../../env/rules/random.js';
import { initBackend } from '../../nn/backend.js';
import { evaluatePolicyValue } from '../../nn/inference.js';
import { buildNetwork, getFlatWeights, type Network, type PolicyValueConfig } from '../../nn/networks.js';
import { DEFAULT_HYPER_PARAMETERS, type HyperParameters } from '../../training/config.js';
import { Critic } from '../../training/critic.js';
import { FastAdam } from '../../training/fastAdam.js';
import { ExplainedVarianceSums, realisedReturns } from '../../training/heldOutValue.js';
import { explainedVariance, ppoUpdate } from '../../training/ppo.js';
import { type TrajectoryBatch, emptyTrajectoryBatch } from '../../training/trajectory.js';
import { randomPositions, scrambleHidden } from '../env/gym/envPositions.js';

const hp: HyperParameters = {
  ...DEFAULT_HYPER_PARAMETERS,
  hiddenUnits: [16],
  minibatchSize: 32,
  criticLearningRate: 3e-3,
  criticEpochs: 1,
};
const policy = (seed: number): Network<PolicyValueConfig> =>
  buildNetwork({ kind: 'policy-value', observationSize: OBSERVATION_SIZE, actionCount: ACTION_COUNT, hiddenUnits: [16], seed });
const scratch = new MaskScratch();
const positions = randomPositions({ players: 4, rules: { decks: 1 } }, 11, 200);

const HAND_VALUES = WHOLE_DEAL_HIDDEN_SEGMENTS.find((s) => s.name === 'opponentHandValues')?.start ?? -1;
/** The hand value of the seat after the one to move in row k (hidden from it). */
const nextHandValue = (batch: TrajectoryBatch, k: number) => (batch.wholeDeal as Float32Array)[k * WHOLE_DEAL_HIDDEN_SIZE + HAND_VALUES];

/** A batch of the positions' decisions (each seat to move), streams of four with a return ending at each fourth row. */
function batchOf(states: typeof positions): TrajectoryBatch {
  const batch = emptyTrajectoryBatch(states.length, ['wholeDeal']);
  states.forEach((s, k) => {
    encodeObservation(s, s.current, batch.observations, k * OBSERVATION_SIZE);
    encodeHiddenDeal(s, s.current, batch.wholeDeal as Float32Array, k * WHOLE_DEAL_HIDDEN_SIZE);
    writeActionMask(s, scratch, batch.masks, k * ACTION_COUNT);
    batch.actions[k] = batch.masks.subarray(k * ACTION_COUNT).indexOf(1);
    batch.logProbs[k] = -1;
    batch.dones[k] = k % 4 === 3 ? 1 : 0;
    batch.segmentEnds[k] = k % 4 === 3 ? 1 : 0;
    batch.rewards[k] = k % 4 === 3 ? nextHandValue(batch, k) : 0;
  });
  return batch;
}

describe('the whole-deal critic', () => {
  const dirs: string[] = [];
  beforeAll(async () => {
    await initBackend('wasm');
  });
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('leaves the policy blind to it: two deals that differ only in hidden cards get the same action distribution, and other critic values', () => {
    const net = policy(1);
    const critic = Critic.fromPolicy(policy(2), hp);
    // Give the hidden features weight, so the critic sees them.
    critic.train(
      batchOf(positions),
      Float32Array.from(positions, (_, k) => k % 3),
      hp,
      seededRng(1),
    );
    let differ = 0;
    positions.slice(0, 60).forEach((s, index) => {
      const t = scrambleHidden(s, s.current, 500 + index);
      const [a, b] = [s, t].map((state) => batchOf([state]));
      expect(b.observations).toEqual(a.observations);
      const [pa, pb] = [a, b].map((x) => evaluatePolicyValue(net, x.observations, x.masks));
      expect(pb.probabilities).toEqual(pa.probabilities);
      expect(pb.values).toEqual(pa.values);
      if (critic.values(a)[0] !== critic.values(b)[0]) differ++;
    });
    expect(differ).toBeGreaterThan(40);
    critic.dispose();
  });

  it('leaves the policy’s update blind to it: the same targets over other hidden features give the same weights', () => {
    const batch = batchOf(positions.slice(0, 64));
    const scrambled = { ...batch, wholeDeal: (batch.wholeDeal as Float32Array).map((x, i) => (i % 7 === 0 ? 1 - x : x)) };
    const targets = {
      values: new Float32Array(64),
      advantages: Float32Array.from({ length: 64 }, (_, k) => (k % 5) - 2),
      returns: new Float32Array(64),
    };
    const weights = [batch, scrambled].map((b) => {
      const net = policy(3);
      ppoUpdate(net, new FastAdam({ kind: 'adam', learningRate: 1e-3 }), b, hp, seededRng(2), targets);
      return getFlatWeights(net.model);
    });
    expect(weights[1]).toEqual(weights[0]);
  });

  it('starts as the policy’s value head, whatever the hidden features hold', () => {
    const net = policy(4);
    const critic = Critic.fromPolicy(net, hp);
    const batch = batchOf(positions.slice(0, 20));
    const seat = evaluatePolicyValue(net, batch.observations, batch.masks).values;
    critic.values(batch).forEach((v, k) => expect(v).toBeCloseTo(seat[k], 4));
    critic.dispose();
  });

  it('bootstraps from its own values: the next row in a stream, 0 at a return’s end, its own value where the game was cut short or the segment ends', () => {
    const critic = Critic.fromPolicy(policy(5), hp);
    const batch = batchOf(positions.slice(0, 8));
    batch.dones.set([0, 0, 0, 1, 0, 2, 0, 0]);
    batch.segmentEnds.set([0, 0, 0, 1, 0, 1, 0, 1]);
    batch.rewards.set([0, 0, 0, 0.5, 0, 0, 0, 0]);
    const v = critic.values(batch);
    const { values, advantages } = critic.targets(batch, 1, 1);
    expect(values).toEqual(v);
    expect(advantages[3]).toBeCloseTo(0.5 - v[3], 5);
    expect(advantages[0]).toBeCloseTo(0.5 - v[0], 5);
    expect(advantages[5]).toBeCloseTo(0, 5);
    expect(advantages[4]).toBeCloseTo(v[5] - v[4], 5);
    expect(advantages[7]).toBeCloseTo(0, 5);
    expect(advantages[6]).toBeCloseTo(v[7] - v[6], 5);
    critic.dispose();
  });

  it('learns a return the seat cannot see, and a checkpoint restores it with its optimizer', async () => {
    const critic = Critic.fromPolicy(policy(6), hp);
    const batch = batchOf(positions);
    // The return: the next seat's hand value (hidden from the seat to move).
    const returns = Float32Array.from(positions, (_, k) => nextHandValue(batch, k));
    const before = explainedVariance(critic.values(batch), returns);
    for (let i = 0; i < 60; i++) critic.train(batch, returns, hp, seededRng(i));
    const after = explainedVariance(critic.values(batch), returns);
    expect(after).toBeGreaterThan(0.8);
    expect(after).toBeGreaterThan(before);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'critic-'));
    dirs.push(dir);
    await critic.save(dir, { note: 'test' });
    const loaded = await Critic.load(dir);
    expect(loaded.values(batch)).toEqual(critic.values(batch));
    // The same step from both: the optimizer's moments came back too.
    critic.train(batch, returns, hp, seededRng(99));
    loaded.train(batch, returns, hp, seededRng(99));
    expect(getFlatWeights(loaded.network.model)).toEqual(getFlatWeights(critic.network.model));
    critic.dispose();
    loaded.dispose();
  });
});

describe('held-out returns', () => {
  it('sum each stream’s rewards to the end of its return, and leave out what was not seen to its end', () => {
    const t = {
      count: 7,
      rewards: Float32Array.from([0, 0, 1, 0, 0.5, 0, 0]),
      dones: Uint8Array.from([0, 0, 1, 0, 1, 0, 2]),
      segmentEnds: Uint8Array.from([0, 0, 0, 0, 1, 1, 1]),
    };
    const returns = Array.from(realisedReturns(t, 0.5));
    expect(returns.slice(0, 5)).toEqual([0.25, 0.5, 1, 0.25, 0.5]);
    expect(returns.slice(5).every(Number.isNaN)).toBe(true);
  });

  it('explain as 1 − Var(R − V)/Var(R) over all blocks, within a bootstrap interval over blocks', () => {
    const rng = seededRng(3);
    const sums = new ExplainedVarianceSums();
    const values: number[] = [];
    const returns: number[] = [];
    for (let k = 0; k < 2000; k++) {
      if (k % 20 === 0) sums.next();
      const v = Math.sin(k);
      const r = v + 0.5 * Math.cos(7 * k);
      sums.add(v, r);
      values.push(v);
      returns.push(r);
    }
    expect(sums.explained()).toBeCloseTo(explainedVariance(values, returns), 6);
    const [low, high] = sums.interval(rng);
    expect(low).toBeLessThan(sums.explained());
    expect(high).toBeGreaterThan(sums.explained());
    expect(high - low).toBeLessThan(0.2);
  });
});
