// PPO's clipped objective by hand (ppoGradients) against autodiff of the plain loss (ppoLoss), and
// its parts against values computed by hand.
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork, trainableVariables, type Network, type PolicyValueConfig } from '../../nn/networks.js';
import { installWasmFastMatMul, uninstallWasmFastMatMul } from '../../nn/wasmFastMatMul.js';
import { FastAdam } from '../../training/fastAdam.js';
import { ppoLoss } from '../../training/losses.js';
import { PPO_STATS, ppoGradients, ppoTrainStep, type PpoBatch } from '../../training/policyValueStep.js';

const ROWS = 8;
const OBS = 9;
const ACTIONS = 7;
const COEFFICIENTS = { clip: 0.2, valueCoef: 0.7, entropyCoef: 0.05 };

const netOf = (activation: 'relu' | 'tanh' | 'elu', seed = 5): Network<PolicyValueConfig> =>
  buildNetwork({ kind: 'policy-value', observationSize: OBS, actionCount: ACTIONS, hiddenUnits: [11, 10], activation, seed });

/** Legal masks with one row of a single legal action; actions legal; old log-probabilities spread so that some ratios fall outside the clip range on either side. */
function makeBatch(net: Network<PolicyValueConfig>, banned: readonly number[] = []): PpoBatch {
  const mask = Float32Array.from({ length: ROWS * ACTIONS }, (_, i) => {
    const [r, a] = [Math.floor(i / ACTIONS), i % ACTIONS];
    if (banned.includes(a)) return 0;
    if (r === 4) return a === 3 ? 1 : 0;
    return (r + 2 * a) % 3 === 0 ? 0 : 1;
  });
  const actions = Int32Array.from({ length: ROWS }, (_, r) => {
    for (let k = 0; k < ACTIONS; k++) {
      const a = (r * 3 + k) % ACTIONS;
      if (mask[r * ACTIONS + a]) return a;
    }
    throw new Error('no legal action');
  });
  const observations = tf.randomNormal<tf.Rank.R2>([ROWS, OBS], 0, 1, 'float32', 21);
  // Old log-probabilities: the current ones shifted by −0.6..+0.6, so r runs from about 0.55 to 1.8.
  const [logits] = net.model.apply(observations) as tf.Tensor2D[];
  const current = tf.tidy(() => {
    const masked = tf.add(logits, tf.mul(tf.sub(tf.tensor2d(mask, [ROWS, ACTIONS]), 1), 1e9));
    return tf.sum(tf.mul(tf.logSoftmax(masked), tf.cast(tf.oneHot(tf.tensor1d(actions, 'int32'), ACTIONS), 'float32')), -1);
  });
  const old = Float32Array.from(current.dataSync(), (x, r) => x - 0.6 + (1.2 * r) / (ROWS - 1));
  tf.dispose([logits, current]);
  return {
    observations,
    legalMask: tf.tensor2d(mask, [ROWS, ACTIONS]),
    actions: tf.tensor1d(actions, 'int32'),
    oldLogProbs: tf.tensor1d(old),
    advantages: tf.tensor1d([1.5, -0.7, 0.3, -1.2, 0.9, 0, 2, -2]),
    returns: tf.tensor1d([0.5, -1, 0.25, 1, 0, -0.5, 0.1, 0.2]),
  };
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance = 2e-5): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++)
    expect(Math.abs(actual[i] - expected[i])).toBeLessThanOrEqual(tolerance * (1 + Math.abs(expected[i])));
}

describe('PPO clipped objective by hand', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });
  afterAll(() => installWasmFastMatMul());

  for (const activation of ['relu', 'tanh', 'elu'] as const) {
    it(`${activation}: loss and every gradient equal autodiff of the plain loss (stock kernels)`, () => {
      const net = netOf(activation);
      const batch = makeBatch(net);
      const vars = trainableVariables(net.model);
      installWasmFastMatMul();
      const before = tf.memory().numTensors;
      const mine = ppoGradients(net, batch, COEFFICIENTS);
      expect(tf.memory().numTensors - before).toBe(1 + vars.length);
      uninstallWasmFastMatMul();
      const reference = tf.variableGrads(() => ppoLoss(net, batch, COEFFICIENTS), vars);
      installWasmFastMatMul();
      const stats = mine.stats.dataSync();
      expect(stats[PPO_STATS.indexOf('loss')]).toBeCloseTo(reference.value.dataSync()[0], 5);
      // Some ratios were clipped, so the check covers both branches of the min.
      expect(stats[PPO_STATS.indexOf('clipFraction')]).toBeGreaterThan(0);
      expect(stats[PPO_STATS.indexOf('clipFraction')]).toBeLessThan(1);
      mine.gradients.forEach((g, i) => expectClose(g.dataSync(), reference.grads[vars[i].name].dataSync()));
      expect(mine.gradients.every((g) => (g.dataSync() as Float32Array).some((x) => x !== 0))).toBe(true);
      tf.dispose([mine.stats, ...mine.gradients, reference.value, ...Object.values(reference.grads)]);
      tf.dispose(Object.values(batch));
      net.model.dispose();
    });
  }

  it('restricted to the columns of the legal actions, loss and gradients equal the full ones', () => {
    const net = netOf('relu', 12);
    // Actions 0 and 5 are legal nowhere in this batch.
    const full = makeBatch(net, [0, 5]);
    // The union of the legal actions, and the batch re-expressed over them.
    const mask = full.legalMask.dataSync();
    const columns = Array.from({ length: ACTIONS }, (_, a) => a).filter((a) =>
      Array.from({ length: ROWS }, (_, r) => mask[r * ACTIONS + a]).some((m) => m > 0),
    );
    expect(columns.length).toBeLessThan(ACTIONS);
    const position = new Map(columns.map((a, i) => [a, i]));
    const restricted: PpoBatch = {
      ...full,
      legalMask: tf.tensor2d(Array.from({ length: ROWS }, (_, r) => columns.map((a) => mask[r * ACTIONS + a])).flat(), [
        ROWS,
        columns.length,
      ]),
      actions: tf.tensor1d(
        Array.from(full.actions.dataSync(), (a) => position.get(a) as number),
        'int32',
      ),
      columns: tf.tensor1d(columns, 'int32'),
    };
    const a = ppoGradients(net, full, COEFFICIENTS);
    const b = ppoGradients(net, restricted, COEFFICIENTS);
    expectClose(b.stats.dataSync(), a.stats.dataSync(), 1e-5);
    b.gradients.forEach((g, i) => expectClose(g.dataSync(), a.gradients[i].dataSync(), 1e-5));
    tf.dispose([a.stats, b.stats, ...a.gradients, ...b.gradients, restricted.legalMask, restricted.actions, restricted.columns]);
    tf.dispose(Object.values(full));
    net.model.dispose();
  });

  it('with an action-scoring head: loss and every gradient (the gate too) equal autodiff, in full and over columns', () => {
    const K = 3;
    const net = buildNetwork({
      kind: 'policy-value',
      observationSize: OBS,
      actionCount: ACTIONS,
      hiddenUnits: [11, 10],
      actionFeatures: K,
      seed: 8,
    });
    const vars = trainableVariables(net.model);
    expect(vars.length).toBe(10);
    const base = makeBatch(net, [0, 5]);
    const featureValues = Float32Array.from({ length: ROWS * ACTIONS * K }, (_, i) => Math.sin(i * 0.7) * 1.5);
    const batch: PpoBatch = { ...base, actionFeatures: tf.tensor3d(featureValues, [ROWS, ACTIONS, K]) };
    installWasmFastMatMul();
    const mine = ppoGradients(net, batch, COEFFICIENTS);
    uninstallWasmFastMatMul();
    const reference = tf.variableGrads(() => ppoLoss(net, batch, COEFFICIENTS), vars);
    installWasmFastMatMul();
    expect(mine.stats.dataSync()[PPO_STATS.indexOf('loss')]).toBeCloseTo(reference.value.dataSync()[0], 5);
    mine.gradients.forEach((g, i) => expectClose(g.dataSync(), reference.grads[vars[i].name].dataSync()));
    expect(mine.gradients.every((g) => (g.dataSync() as Float32Array).some((x) => x !== 0))).toBe(true);
    // Over the columns legal somewhere (0 and 5 are not), with their features only: the same.
    const mask = base.legalMask.dataSync();
    const columns = [1, 2, 3, 4, 6];
    const position = new Map(columns.map((a, i) => [a, i]));
    const restricted: PpoBatch = {
      ...batch,
      legalMask: tf.tensor2d(Array.from({ length: ROWS }, (_, r) => columns.map((a) => mask[r * ACTIONS + a])).flat(), [
        ROWS,
        columns.length,
      ]),
      actions: tf.tensor1d(
        Array.from(base.actions.dataSync(), (a) => position.get(a) as number),
        'int32',
      ),
      columns: tf.tensor1d(columns, 'int32'),
      actionFeatures: tf.tensor3d(
        Array.from({ length: ROWS }, (_, r) =>
          columns.flatMap((a) => Array.from(featureValues.subarray((r * ACTIONS + a) * K, (r * ACTIONS + a + 1) * K))),
        ).flat(),
        [ROWS, columns.length, K],
      ),
    };
    const narrow = ppoGradients(net, restricted, COEFFICIENTS);
    expectClose(narrow.stats.dataSync(), mine.stats.dataSync(), 1e-5);
    narrow.gradients.forEach((g, i) => expectClose(g.dataSync(), mine.gradients[i].dataSync(), 1e-5));
    tf.dispose([mine.stats, ...mine.gradients, narrow.stats, ...narrow.gradients, reference.value, ...Object.values(reference.grads)]);
    tf.dispose([restricted.legalMask, restricted.actions, restricted.columns, restricted.actionFeatures]);
    tf.dispose(Object.values(batch) as tf.Tensor[]);
    net.model.dispose();
  });

  it('the parts on a two-action row equal the values computed by hand', () => {
    // One row, logits forced through the bias: legal actions 0 and 1 with logits ln 3 and 0, so p = (0.75, 0.25).
    const net = buildNetwork({ kind: 'policy-value', observationSize: 1, actionCount: 3, hiddenUnits: [1], seed: 1 });
    const [trunkKernel, trunkBias, policyKernel, policyBias, valueKernel, valueBias] = trainableVariables(net.model);
    trunkKernel.assign(tf.zeros([1, 1]));
    trunkBias.assign(tf.zeros([1]));
    policyKernel.assign(tf.zeros([1, 3]));
    policyBias.assign(tf.tensor1d([Math.log(3), 0, 5]));
    valueKernel.assign(tf.zeros([1, 1]));
    valueBias.assign(tf.tensor1d([0.4]));
    const batch: PpoBatch = {
      observations: tf.tensor2d([[1]]),
      legalMask: tf.tensor2d([[1, 1, 0]]),
      actions: tf.tensor1d([1], 'int32'),
      // Old p(a) = 0.5, new 0.25: r = 0.5, below 1 − ε = 0.8.
      oldLogProbs: tf.tensor1d([Math.log(0.5)]),
      advantages: tf.tensor1d([2]),
      returns: tf.tensor1d([1]),
    };
    const { stats, gradients } = ppoGradients(net, batch, COEFFICIENTS);
    const s = stats.dataSync();
    // A > 0 and r < 1 − ε: min(r·A, 0.8·A) = r·A = 1, the unclipped term, so the gradient flows.
    const entropy = -(0.75 * Math.log(0.75) + 0.25 * Math.log(0.25));
    expect(s[PPO_STATS.indexOf('policyLoss')]).toBeCloseTo(-1, 5);
    expect(s[PPO_STATS.indexOf('entropy')]).toBeCloseTo(entropy, 5);
    expect(s[PPO_STATS.indexOf('valueLoss')]).toBeCloseTo(0.36, 5);
    expect(s[PPO_STATS.indexOf('approxKl')]).toBeCloseTo(0.5 - 1 - Math.log(0.5), 5);
    expect(s[PPO_STATS.indexOf('clipFraction')]).toBe(1);
    expect(s[PPO_STATS.indexOf('loss')]).toBeCloseTo(-1 + 0.7 * 0.36 - 0.05 * entropy, 5);
    // dL/dbias of the policy head = dL/dlogits: r·A·(p − onehot) + c·p·(log p + H), 0 at the illegal action.
    const dLogits = [0.75, -0.75, 0].map((x, i) => x * 1 + (i < 2 ? 0.05 * [0.75, 0.25][i] * (Math.log([0.75, 0.25][i]) + entropy) : 0));
    expectClose(gradients[3].dataSync(), dLogits, 1e-5);
    // dL/dvalue = 2·valueCoef·(v − R) = 2 · 0.7 · (−0.6).
    expectClose(gradients[5].dataSync(), [-0.84], 1e-5);
    tf.dispose([stats, ...gradients]);

    // With A < 0 and the same r < 1 − ε the clipped term is the smaller one: no policy gradient, only the entropy's.
    const negative = { ...batch, advantages: tf.tensor1d([-2]) };
    const second = ppoGradients(net, negative, COEFFICIENTS);
    expect(second.stats.dataSync()[PPO_STATS.indexOf('policyLoss')]).toBeCloseTo(1.6, 5);
    const entropyOnly = [0.75, 0.25].map((p) => 0.05 * p * (Math.log(p) + entropy));
    expectClose(second.gradients[3].dataSync(), [...entropyOnly, 0], 1e-5);
    tf.dispose([second.stats, ...second.gradients, ...Object.values(batch), negative.advantages]);
    net.model.dispose();
  });

  it('the loss falls on a fixed batch, and the tensor count stays flat', () => {
    const net = netOf('relu', 9);
    const batch = makeBatch(net);
    const optimizer = new FastAdam({ kind: 'adam', learningRate: 0.01 });
    const losses: number[] = [];
    let before = 0;
    for (let step = 0; step < 40; step++) {
      losses.push(ppoTrainStep(net, batch, optimizer, COEFFICIENTS, 1).loss);
      if (step === 0) before = tf.memory().numTensors;
    }
    expect(tf.memory().numTensors).toBe(before);
    expect(losses[losses.length - 1]).toBeLessThan(losses[0] - 0.1);
    optimizer.dispose();
    tf.dispose(Object.values(batch));
    net.model.dispose();
  });
});
