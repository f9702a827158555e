import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { FastAdam } from '../../training/fastAdam.js';
import { evaluateLogitsValue, evaluatePolicyValue } from '../../nn/inference.js';
import { maskedSoftmax } from '../../nn/maskedSoftmax.js';
import { buildNetwork, trainableVariables, type Network, type PolicyValueConfig } from '../../nn/networks.js';
import { policyValueForward, policyValueGradients, policyValueTrainStep } from '../../training/policyValueStep.js';
import { policyValueLoss, trainStep, type PolicyValueBatch } from '../../training/losses.js';
import { installWasmFastMatMul, uninstallWasmFastMatMul } from '../../nn/wasmFastMatMul.js';

const ROWS = 6;
const OBS = 9;
const ACTIONS = 7;
const netOf = (activation: 'relu' | 'tanh' | 'elu', seed = 5): Network<PolicyValueConfig> =>
  buildNetwork({ kind: 'policy-value', observationSize: OBS, actionCount: ACTIONS, hiddenUnits: [11, 10], activation, seed });

function maskData(): Float32Array {
  // Row 2 has no legal action; row 4 exactly one.
  return Float32Array.from({ length: ROWS * ACTIONS }, (_, i) => {
    const [r, a] = [Math.floor(i / ACTIONS), i % ACTIONS];
    if (r === 2) return 0;
    if (r === 4) return a === 3 ? 1 : 0;
    return (r + 2 * a) % 3 === 0 ? 0 : 1;
  });
}

function makeBatch(): PolicyValueBatch {
  const mask = maskData();
  const target = mask.map((m, i) => m * (1 + (i % 4)));
  return {
    observations: tf.randomNormal<tf.Rank.R2>([ROWS, OBS], 0, 1, 'float32', 21),
    legalMask: tf.tensor2d(mask, [ROWS, ACTIONS]),
    targetPolicy: tf.tensor2d(target, [ROWS, ACTIONS]),
    targetValue: tf.tensor2d([0.5, -1, 0.25, 1, 0, -0.5], [ROWS, 1]),
  };
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance = 1e-5): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++)
    expect(Math.abs(actual[i] - expected[i])).toBeLessThanOrEqual(tolerance * (1 + Math.abs(expected[i])));
}

const read = (ts: tf.Tensor[]): Float32Array[] => ts.map((t) => t.dataSync() as Float32Array);

describe('policy-value step without autodiff', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });
  afterAll(() => installWasmFastMatMul());

  for (const activation of ['relu', 'tanh', 'elu'] as const) {
    it(`${activation}: forward equals model.apply, gradients equal autodiff with the stock kernels`, () => {
      const net = netOf(activation);
      const batch = makeBatch();
      const vars = trainableVariables(net.model);

      installWasmFastMatMul();
      const forward = policyValueForward(net, batch.observations);
      const applied = net.model.apply(batch.observations) as tf.Tensor[];
      expectClose(forward.logits.dataSync(), applied[0].dataSync());
      expectClose(forward.value.dataSync(), applied[1].dataSync());
      const before = tf.memory().numTensors;
      const mine = policyValueGradients(net, batch, 0.7);
      expect(tf.memory().numTensors - before).toBe(1 + vars.length);

      uninstallWasmFastMatMul();
      const reference = tf.variableGrads(() => policyValueLoss(net, batch, 0.7), vars);
      installWasmFastMatMul();
      expectClose(mine.loss.dataSync(), reference.value.dataSync());
      const got = read(mine.gradients);
      const want = read(vars.map((v) => reference.grads[v.name]));
      got.forEach((g, i) => expectClose(g, want[i], 2e-5));
      // The gradients are not trivially zero.
      expect(got.every((g) => g.some((x) => x !== 0))).toBe(true);

      tf.dispose([
        ...forward.activations.slice(1),
        forward.logits,
        forward.value,
        ...applied,
        mine.loss,
        ...mine.gradients,
        reference.value,
        ...Object.values(reference.grads),
      ]);
      tf.dispose(Object.values(batch));
      net.model.dispose();
    });
  }

  it('trains like trainStep with the autodiff loss, and keeps the tensor count flat', () => {
    const batch = makeBatch();
    const [a, b] = [netOf('relu', 8), netOf('relu', 8)];
    const [optA, optB] = [new FastAdam({ kind: 'adam', learningRate: 0.02 }), new FastAdam({ kind: 'adam', learningRate: 0.02 })];
    let before = 0;
    for (let step = 0; step < 12; step++) {
      const loss = policyValueTrainStep(a, batch, optA);
      const reference = trainStep(optB, b.model, () => policyValueLoss(b, batch));
      expect(loss).toBeCloseTo(reference.dataSync()[0], 4);
      reference.dispose();
      if (step === 0) before = tf.memory().numTensors;
    }
    expect(tf.memory().numTensors).toBe(before);
    const [wa, wb] = [read(trainableVariables(a.model)), read(trainableVariables(b.model))];
    wa.forEach((w, i) => expectClose(w, wb[i], 1e-4));
    [optA, optB].forEach((o) => o.dispose());
    [a, b].forEach((n) => n.model.dispose());
    tf.dispose(Object.values(batch));
  });
});

describe('whole-batch inference', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('evaluatePolicyValue equals maskedSoftmax over model.apply, zero rows without a legal action', () => {
    const net = netOf('relu');
    const observations = tf.randomNormal([ROWS, OBS], 0, 1, 'float32', 4);
    const mask = maskData();
    const out = evaluatePolicyValue(net, observations.dataSync() as Float32Array, mask);
    const bare = evaluateLogitsValue(net, observations.dataSync() as Float32Array);
    const [logits, value] = net.model.apply(observations) as tf.Tensor[];
    const maskTensor = tf.tensor2d(mask, [ROWS, ACTIONS]);
    const probs = maskedSoftmax(logits, maskTensor);
    expectClose(out.probabilities, probs.dataSync());
    expectClose(out.values, value.dataSync());
    expectClose(bare.logits, logits.dataSync(), 0);
    expectClose(bare.values, value.dataSync(), 0);
    expect(Array.from(out.probabilities.subarray(2 * ACTIONS, 3 * ACTIONS))).toEqual(new Array(ACTIONS).fill(0));
    expect(out.probabilities[4 * ACTIONS + 3]).toBe(1);
    out.probabilities.forEach((p, i) => {
      if (mask[i] === 0) expect(p).toBe(0);
    });
    tf.dispose([observations, logits, value, maskTensor, probs]);
    net.model.dispose();
  });
});
