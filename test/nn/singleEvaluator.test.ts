// The plain-JS single-position evaluator against stock tfjs (evaluatePolicyValue): the same
// masked policy and value to float rounding, for every activation, sparse and dense inputs.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { evaluatePolicyValue } from '../../nn/inference.js';
import { buildNetwork } from '../../nn/networks.js';
import { SinglePolicyValueEvaluator } from '../../nn/singleEvaluator.js';

beforeAll(async () => {
  await initBackend('wasm');
});

describe('SinglePolicyValueEvaluator', () => {
  for (const activation of ['relu', 'tanh', 'elu'] as const) {
    it(`gives evaluatePolicyValue's policy and value (${activation})`, () => {
      const net = buildNetwork({ kind: 'policy-value', observationSize: 40, actionCount: 30, hiddenUnits: [16, 8], activation, seed: 5 });
      const single = new SinglePolicyValueEvaluator(net);
      const random = tf.randomUniform([20, 40], -1, 1, 'float32', 9).dataSync() as Float32Array;
      for (let row = 0; row < 20; row++) {
        const observation = random.slice(row * 40, row * 40 + 40);
        if (row % 2 === 0) for (let i = 0; i < 40; i += 1 + (row % 3)) observation[i] = 0; // sparse like an observation
        const mask = Uint8Array.from({ length: 30 }, (_, a) => ((a * 7 + row) % 4 === 0 ? 1 : 0));
        const reference = evaluatePolicyValue(net, observation, mask);
        const { probabilities, value } = single.evaluate(observation, mask);
        for (let a = 0; a < 30; a++) {
          if (mask[a]) expect(probabilities[a]).toBeCloseTo(reference.probabilities[a], 6);
          else expect(probabilities[a]).toBe(0);
        }
        expect(value).toBeCloseTo(reference.values[0], 5);
      }
      net.model.dispose();
    });
  }

  it('refuses an observation of the wrong length', () => {
    const net = buildNetwork({ kind: 'policy-value', observationSize: 4, actionCount: 3, hiddenUnits: [2], seed: 1 });
    expect(() => new SinglePolicyValueEvaluator(net).evaluate(new Float32Array(5), [1, 1, 1])).toThrow(/takes 4 inputs, got 5/);
    net.model.dispose();
  });

  it("gives baseLogit as the policy kernel's column read in place, bit for bit", () => {
    const net = buildNetwork({ kind: 'policy-value', observationSize: 40, actionCount: 30, hiddenUnits: [16, 8], seed: 3 });
    const single = new SinglePolicyValueEvaluator(net);
    const [kernel, bias] = net.model
      .getLayer('policy_logits')
      .getWeights()
      .map((w) => w.dataSync() as Float32Array);
    const observation = tf.randomUniform([40], -1, 1, 'float32', 4).dataSync() as Float32Array;
    const h = Float64Array.from(single.trunkOf(observation));
    for (let a = 0; a < 30; a++) {
      let plain = bias[a];
      for (let j = 0; j < h.length; j++) if (h[j] !== 0) plain += h[j] * kernel[j * 30 + a];
      expect(single.baseLogit(h, a)).toBe(plain);
    }
    net.model.dispose();
  });
});
