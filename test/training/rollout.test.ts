// The actor's rollout over VecEnvs with a random tiny network: legal actions, trajectories laid out
// stream by stream with rewards, next values and ends that agree with the games, imitation labels,
// and a flat tensor count.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAgentFor } from '../../agents/resolve.js';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork, getFlatWeights, setFlatWeights, setGateBias, type Network, type PolicyValueConfig } from '../../nn/networks.js';
import { opponentKey, parseOpponentMix } from '../../training/league.js';
import { computeAdvantages } from '../../training/ppo.js';
import { MIN_LOG_PROB, Rollout, type RolloutSetup, type TrajectoryBatch } from '../../training/rollout.js';
import { ADVISER_FEATURE, actionFeatureWidth } from '../../env/gym/actionFeatures.js';
import { MinibatchBuffers, gatherInputs } from '../../training/minibatch.js';
import { policyValueForward } from '../../training/policyValueStep.js';

const tinyNetwork = (seed: number): Network<PolicyValueConfig> =>
  buildNetwork({ kind: 'policy-value', observationSize: OBSERVATION_SIZE, actionCount: ACTION_COUNT, hiddenUnits: [8], seed });

const setup = (overrides: Partial<RolloutSetup> = {}): RolloutSetup => ({
  players: [2, 3],
  games: 6,
  env: { preset: 'standard', rules: {}, episode: 'round', reward: 'zeroSum', rewardScale: 0.01, maxTurns: 60 },
  returnHorizon: 'round',
  opponents: parseOpponentMix('self=1'),
  seed: 3,
  ...overrides,
});

/** Every row's action is legal in its own mask, and each row has a legal action. */
function expectLegal(batch: TrajectoryBatch): void {
  for (let k = 0; k < batch.count; k++) {
    const mask = batch.masks.subarray(k * ACTION_COUNT, (k + 1) * ACTION_COUNT);
    expect(mask[batch.actions[k]]).toBe(1);
    expect(batch.logProbs[k]).toBeLessThanOrEqual(0);
  }
}

describe('rollout', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('self-play: legal decisions, streams that chain value to next value, ends where games are cut short', () => {
    const net = tinyNetwork(1);
    // A random network seldom ends a round: the turn cap ends the episodes here (truncation bootstraps with the decision's own value).
    const rollout = new Rollout(setup({ env: { ...setup().env, maxTurns: 12 } }), net, new Map(), null);
    const { trajectories: batch, stats } = rollout.collect(300, { kind: 'ppo' });
    expect(batch.count).toBeGreaterThanOrEqual(300);
    expect(batch.observations.length).toBe(batch.count * OBSERVATION_SIZE);
    expectLegal(batch);
    // Within a stream, a decision that neither ends its return nor its segment hands its next value to the next row.
    let ends = 0;
    for (let k = 0; k < batch.count; k++) {
      if (batch.dones[k] === 0 && batch.segmentEnds[k] === 0) expect(batch.nextValues[k]).toBe(batch.values[k + 1]);
      if (batch.dones[k] === 2) {
        ends++;
        expect(batch.nextValues[k]).toBe(batch.values[k]);
      }
      // Rewards arrive only where a return ends (round ends: zero-sum points × 0.01).
      if (batch.dones[k] === 0) expect(batch.rewards[k]).toBe(0);
    }
    expect(ends).toBeGreaterThan(0);
    expect(batch.segmentEnds[batch.count - 1]).toBe(1);
    expect(stats.learnerDecisions).toBe(stats.decisions);
    // Every decision taken went out in this batch or waits in its stream (at most one per seat).
    expect(stats.learnerDecisions - batch.count).toBeLessThanOrEqual(6 * 3);
    expect(stats.episodes).toBe(stats.truncated);
    expect(stats.episodes).toBeGreaterThan(0);
    net.model.dispose();
  });

  it('GAE over a rollout batch: returns = advantages + values', () => {
    const net = tinyNetwork(2);
    const rollout = new Rollout(setup({ players: [2], games: 4 }), net, new Map(), null);
    const { trajectories } = rollout.collect(200, { kind: 'ppo' });
    const { advantages, returns } = computeAdvantages(trajectories, 1, 0.9);
    for (let k = 0; k < trajectories.count; k++) expect(returns[k]).toBeCloseTo(advantages[k] + trajectories.values[k], 5);
    net.model.dispose();
  });

  it("against agents and past snapshots: only the learner's seat is recorded, outcomes are counted", async () => {
    const net = tinyNetwork(3);
    const past = tinyNetwork(4);
    const agents = new Map([[opponentKey('intermediate', 2), await createAgentFor('intermediate', { players: 2 })]]);
    const rollout = new Rollout(setup({ players: [2], games: 6, opponents: parseOpponentMix('intermediate=1,past=1') }), net, agents, null);
    rollout.addSnapshot(7, past);
    const { trajectories, stats } = rollout.collect(400, { kind: 'ppo' });
    expectLegal(trajectories);
    expect(stats.learnerDecisions).toBeLessThan(stats.decisions);
    // Games that drew "past" before the snapshot arrived play themselves, and count no outcome.
    const games = Object.values(stats.outcomes).reduce((n, o) => n + o.games, 0);
    expect(games).toBeGreaterThan(0);
    expect(games).toBeLessThanOrEqual(stats.episodes);
    expect(rollout.removeSnapshot(7)).toBe(past);
    // With the pool empty, "past" games go on as self-play.
    const after = rollout.collect(100, { kind: 'ppo' });
    expectLegal(after.trajectories);
    [net, past].forEach((n) => n.model.dispose());
  });

  it('imitation: the teacher labels every decision and, when it plays, its action is the one taken', async () => {
    const net = tinyNetwork(5);
    const teacher = await createAgentFor('intermediate', { players: 2 });
    const rollout = new Rollout(setup({ players: [2], games: 4 }), net, new Map(), teacher);
    const played = rollout.collect(150, { kind: 'imitation', teacherPlays: true });
    const labels = played.trajectories.teacherActions as Int16Array;
    // Decisions recorded before this batch began carry no label (−1); the rest are the teacher's and were played.
    let labelled = 0;
    for (let k = 0; k < played.trajectories.count; k++) {
      if (labels[k] < 0) continue;
      labelled++;
      expect(played.trajectories.actions[k]).toBe(labels[k]);
    }
    expect(labelled).toBeGreaterThan(140);
    // intermediate calls Yaniv whenever it may, so rounds end: there the return ends with the round's zero-sum reward.
    let roundEnds = 0;
    for (let k = 0; k < played.trajectories.count; k++) {
      if (played.trajectories.dones[k] === 1 && played.trajectories.nextValues[k] === 0) {
        roundEnds++;
        expect(Math.abs(played.trajectories.rewards[k])).toBeLessThan(1);
      }
    }
    expect(roundEnds).toBeGreaterThan(0);
    const dagger = rollout.collect(150, { kind: 'imitation', teacherPlays: false });
    expectLegal(dagger.trajectories);
    const daggerLabels = dagger.trajectories.teacherActions as Int16Array;
    for (let k = 0; k < dagger.trajectories.count; k++) {
      if (daggerLabels[k] >= 0) expect(dagger.trajectories.masks[k * ACTION_COUNT + daggerLabels[k]]).toBe(1);
    }
    net.model.dispose();
  });

  it('the tensor count stays flat over a self-play run of a few hundred decisions, weight updates included', () => {
    const net = tinyNetwork(6);
    const rollout = new Rollout(setup(), net, new Map(), null);
    rollout.collect(50, { kind: 'ppo' });
    const before = tf.memory().numTensors;
    const weights = getFlatWeights(net.model);
    for (let i = 0; i < 4; i++) {
      rollout.collect(100, { kind: 'ppo' });
      setFlatWeights(
        net.model,
        weights.map((w) => w * 0.9),
      );
    }
    expect(tf.memory().numTensors).toBe(before);
    net.model.dispose();
  });

  const scoringNetwork = (adviser: boolean) =>
    buildNetwork({
      kind: 'policy-value',
      observationSize: OBSERVATION_SIZE,
      actionCount: ACTION_COUNT,
      hiddenUnits: [8],
      actionFeatures: actionFeatureWidth(adviser),
      seed: 4,
    });

  for (const adviser of [false, true]) {
    it(`an action-scoring learner${adviser ? ' with an adviser' : ''}: the log-probabilities it played with are the ones the learner recomputes from the stored columns`, async () => {
      const net = scoringNetwork(adviser);
      const features = net.config.actionFeatures;
      const rollout = new Rollout(
        setup({ env: { ...setup().env, maxTurns: 12 }, adviser: adviser ? 'strong' : null }),
        net,
        new Map(),
        null,
        adviser ? await createAgentFor('strong', { players: 2 }) : null,
      );
      const { trajectories: batch } = rollout.collect(200, { kind: 'ppo' });
      expectLegal(batch);
      for (let k = 0; k < batch.count; k++) {
        if (adviser) expect(batch.masks[k * ACTION_COUNT + batch.adviserActions[k]]).toBe(1);
        else expect(batch.adviserActions[k]).toBe(-1);
      }
      const indices = Int32Array.from({ length: batch.count }, (_, i) => i);
      const {
        tensors: inputs,
        position,
        width,
      } = gatherInputs(batch, indices, 0, batch.count, new MinibatchBuffers(batch.count), features);
      const forward = policyValueForward(net, inputs.observations, inputs.columns, inputs.actionFeatures);
      const logits = forward.logits.dataSync();
      const mask = inputs.legalMask.dataSync();
      for (let k = 0; k < batch.count; k++) {
        const row = Array.from({ length: width }, (_, c) => (mask[k * width + c] > 0 ? logits[k * width + c] : -Infinity));
        const max = Math.max(...row);
        const logSum = Math.log(row.reduce((sum, x) => sum + Math.exp(x - max), 0)) + max;
        const logP = Math.max(MIN_LOG_PROB, row[position[batch.actions[k]]] - logSum);
        expect(logP).toBeCloseTo(batch.logProbs[k], 4);
      }
      // The features move the policy: without them the logits differ.
      const plain = policyValueForward(net, inputs.observations, inputs.columns, tf.zerosLike(inputs.actionFeatures as tf.Tensor3D));
      const differs = Array.from(plain.logits.dataSync()).filter((x, i) => mask[i] > 0 && Math.abs(x - logits[i]) > 1e-4).length;
      tf.dispose([...plain.activations.slice(1), plain.logits, plain.value]);
      expect(differs).toBeGreaterThan(0);
      tf.dispose([
        ...forward.activations.slice(1),
        forward.logits,
        forward.value,
        ...Object.values(inputs).filter((v) => v instanceof tf.Tensor),
      ]);
      net.model.dispose();
    });
  }

  it("a learner with an adviser and a large bias on its feature plays the adviser's choices", async () => {
    const net = scoringNetwork(true);
    setGateBias(net, new Map([[ADVISER_FEATURE.index, 60]]));
    const strong = await createAgentFor('strong', { players: 2 });
    const rollout = new Rollout(setup({ adviser: 'strong' }), net, new Map(), null, strong);
    const { trajectories: batch } = rollout.collect(200, { kind: 'ppo' });
    for (let k = 0; k < batch.count; k++) expect(batch.actions[k]).toBe(batch.adviserActions[k]);
    net.model.dispose();
  });

  it('a teacher that is also the adviser is asked once a position: its labels are the adviser column', async () => {
    const net = scoringNetwork(true);
    const strong = await createAgentFor('strong', { players: 2 });
    let asked = 0;
    const counted = { ...strong, act: (input: Parameters<typeof strong.act>[0]) => (asked++, strong.act(input)) };
    const rollout = new Rollout(setup({ adviser: 'strong' }), net, new Map(), counted, counted);
    const { trajectories: batch } = rollout.collect(100, { kind: 'imitation', teacherPlays: true });
    const labels = batch.teacherActions as Int16Array;
    for (let k = 0; k < batch.count; k++) expect(labels[k]).toBe(batch.adviserActions[k]);
    // One ask per learner decision (those still pending at the batch's end included), not two.
    expect(asked).toBeLessThan(2 * batch.count);
    net.model.dispose();
  });

  it('a network that reads an adviser needs one', () => {
    const net = scoringNetwork(true);
    const rollout = new Rollout(setup(), net, new Map(), null);
    expect(() => rollout.collect(10, { kind: 'ppo' })).toThrow(/reads an adviser, and the rollout has none/);
    net.model.dispose();
  });
});
