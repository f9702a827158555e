import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { evaluatePolicyValue } from '../../nn/inference.js';
import { buildNetwork, trainableVariables, widenInputs } from '../../nn/networks.js';
import { policyValueLoss, trainStep } from '../../training/losses.js';

const pvConfig = { kind: 'policy-value' as const, observationSize: 6, actionCount: 5, hiddenUnits: [8, 8], seed: 3 };

function data(n: number, seed: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 13.7 + i * 1.3));
}

describe('networks', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('validates configs with defaults and leaves the caller config untouched', () => {
    const input = { ...pvConfig, hiddenUnits: [8, 8] };
    const net = buildNetwork(input);
    expect(net.config.activation).toBe('relu');
    expect(input).not.toHaveProperty('activation');
    net.config.hiddenUnits.push(1);
    expect(input.hiddenUnits).toEqual([8, 8]);
    expect(() => buildNetwork({ ...pvConfig, actionCount: 0 })).toThrow();
    net.model.dispose();
  });

  it('refuses a config key it does not know, naming it (a typo is not silently dropped)', () => {
    expect(() => buildNetwork({ ...pvConfig, hiddenUnit: [8] } as never)).toThrow('network config: Unrecognized key: "hiddenUnit"');
  });

  it('builds the same weights from the same seed', () => {
    const [a, b] = [buildNetwork(pvConfig), buildNetwork(pvConfig)];
    const wa = a.model.getWeights().map((t) => Array.from(t.dataSync()));
    const wb = b.model.getWeights().map((t) => Array.from(t.dataSync()));
    expect(wa).toEqual(wb);
    a.model.dispose();
    b.model.dispose();
  });

  it('policy-value: masked probabilities and one value per row', () => {
    const net = buildNetwork(pvConfig);
    const mask = [1, 0, 1, 0, 0, 0, 0, 0, 1, 0];
    const out = evaluatePolicyValue(net, data(12, 1), mask);
    expect(out.rows).toBe(2);
    expect(out.values.length).toBe(2);
    expect(out.probabilities[1] + out.probabilities[3] + out.probabilities[4]).toBe(0);
    expect(out.probabilities[0] + out.probabilities[2]).toBeCloseTo(1, 5);
    expect(out.probabilities[8]).toBeCloseTo(1, 6);
    expect(() => evaluatePolicyValue(net, data(12, 1), [1])).toThrow('legalMask has 1 entries, expected 2 × 5');
    net.model.dispose();
  });

  it('keeps tf.memory().numTensors flat over many train and inference steps', () => {
    const pv = buildNetwork(pvConfig);
    const opt = tf.train.adam(1e-2);
    const rows = 4;
    const batch = {
      observations: tf.tensor2d(data(rows * 6, 5), [rows, 6]),
      legalMask: tf.tensor2d([1, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1], [rows, 5]),
      targetPolicy: tf.tensor2d([1, 0, 0, 0, 0, 0, 0.5, 0.5, 0, 0, 0, 0, 0, 0, 1, 0.2, 0.2, 0.2, 0.2, 0.2], [rows, 5]),
      targetValue: tf.tensor2d([1, -1, 0, 0.5], [rows, 1]),
    };
    const step = (): number[] => {
      const l1 = trainStep(opt, pv.model, () => policyValueLoss(pv, batch));
      const losses = [l1.dataSync()[0]];
      tf.dispose(l1);
      evaluatePolicyValue(pv, data(6, 7), [1, 1, 1, 0, 0]);
      return losses;
    };
    const first = step(); // creates the optimizer's moment variables
    const before = tf.memory().numTensors;
    let last = first;
    for (let i = 0; i < 60; i++) last = step();
    expect(tf.memory().numTensors).toBe(before);
    expect(last[0]).toBeLessThan(first[0]);
    expect(trainableVariables(pv.model).length).toBe(8);
    tf.dispose([batch.observations, batch.legalMask, batch.targetPolicy, batch.targetValue]);
    opt.dispose();
    pv.model.dispose();
  });
});

describe('widenInputs', () => {
  it('computes on the old inputs exactly what the old network did, whatever the appended inputs hold', () => {
    const narrow = buildNetwork({ kind: 'policy-value', observationSize: 5, actionCount: 3, hiddenUnits: [4, 4], seed: 2 });
    const wide = widenInputs(narrow, 8);
    expect(wide.config.observationSize).toBe(8);
    const before = tf.memory().numTensors;
    const x = tf.randomUniform([6, 5], -1, 1, 'float32', 1);
    const extra = tf.randomUniform([6, 3], -5, 5, 'float32', 3);
    const [narrowLogits, narrowValue] = narrow.model.predict(x) as tf.Tensor[];
    const [wideLogits, wideValue] = wide.model.predict(tf.concat([x, extra], 1)) as tf.Tensor[];
    expect(Array.from(wideLogits.dataSync())).toEqual(Array.from(narrowLogits.dataSync()));
    expect(Array.from(wideValue.dataSync())).toEqual(Array.from(narrowValue.dataSync()));
    tf.dispose([x, extra, narrowLogits, narrowValue, wideLogits, wideValue]);
    expect(tf.memory().numTensors).toBeLessThanOrEqual(before + 1); // the concat input of predict
    expect(() => widenInputs(narrow, 4)).toThrow(/cannot narrow/);
  });
});
