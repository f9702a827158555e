// The action-scoring head (config.actionFeatures = K): an action's logit is the policy head's plus
// gate · features(a). The wasm in-place path, the penalty path and the single-position evaluator
// against that sum computed by hand from the model's three outputs; a head added at zero changes
// nothing; missing features are refused.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { evaluatePolicyValue, evaluatePolicyValueWithPenalty } from '../../nn/inference.js';
import { buildNetwork, withActionScoring } from '../../nn/networks.js';
import { SinglePolicyValueEvaluator } from '../../nn/singleEvaluator.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadNetwork, saveNetwork } from '../../nn/persistence.js';

const OBS = 12;
const ACTIONS = 9;
const K = 4;

/** A policy-value network that scores actions from K features each. */
const scoringNetwork = (hiddenUnits: number[], seed: number) =>
  buildNetwork({ kind: 'policy-value', observationSize: OBS, actionCount: ACTIONS, hiddenUnits, actionFeatures: K, seed });
const ROWS = 6;

beforeAll(async () => {
  await initBackend('wasm');
});

function inputs(seed: number) {
  const observations = tf.randomUniform([ROWS, OBS], -1, 1, 'float32', seed).dataSync() as Float32Array;
  const mask = Uint8Array.from({ length: ROWS * ACTIONS }, (_, i) => ((i * 5 + Math.floor(i / ACTIONS)) % 3 === 0 ? 0 : 1));
  const features = Float32Array.from({ length: ROWS * ACTIONS * K }, (_, i) => Math.cos(i * 1.3));
  return { observations, mask, features };
}

/** The masked softmax of logits + gate · features, from model.apply's outputs, in plain JS. */
function byHand(net: ReturnType<typeof buildNetwork>, observations: Float32Array, mask: Uint8Array, features: Float32Array): number[][] {
  const outputs = net.model.apply(tf.tensor2d(observations, [ROWS, OBS])) as tf.Tensor[];
  const [logits, , gate] = outputs.map((t) => t.dataSync());
  tf.dispose(outputs);
  return Array.from({ length: ROWS }, (_, r) => {
    const full = Array.from({ length: ACTIONS }, (_, a) => {
      let x = logits[r * ACTIONS + a];
      for (let k = 0; k < K; k++) x += gate[r * K + k] * features[(r * ACTIONS + a) * K + k];
      return x;
    });
    const legal = full.map((_, a) => mask[r * ACTIONS + a] === 1);
    const max = Math.max(...full.filter((_, a) => legal[a]));
    const exps = full.map((x, a) => (legal[a] ? Math.exp(x - max) : 0));
    const sum = exps.reduce((s, e) => s + e, 0);
    return exps.map((e) => e / sum);
  });
}

describe('action-scoring head', () => {
  it('every inference path gives the softmax of the policy logits plus gate · features', () => {
    const net = scoringNetwork([10, 8], 3);
    const { observations, mask, features } = inputs(4);
    const want = byHand(net, observations, mask, features);
    const wasm = evaluatePolicyValue(net, observations, mask, features);
    const penalty = evaluatePolicyValueWithPenalty(net, observations, mask, features);
    const single = new SinglePolicyValueEvaluator(net);
    for (let r = 0; r < ROWS; r++) {
      const one = single.evaluate(
        observations.subarray(r * OBS, (r + 1) * OBS),
        mask.subarray(r * ACTIONS, (r + 1) * ACTIONS),
        features.subarray(r * ACTIONS * K, (r + 1) * ACTIONS * K),
      );
      for (let a = 0; a < ACTIONS; a++) {
        expect(wasm.probabilities[r * ACTIONS + a]).toBeCloseTo(want[r][a], 5);
        expect(penalty.probabilities[r * ACTIONS + a]).toBeCloseTo(want[r][a], 5);
        expect(one.probabilities[a]).toBeCloseTo(want[r][a], 5);
      }
      expect(one.value).toBeCloseTo(wasm.values[r], 5);
    }
    // The features matter: the same network without them would give other probabilities.
    const zero = evaluatePolicyValue(net, observations, mask, new Float32Array(features.length));
    expect(zero.probabilities.some((p, i) => Math.abs(p - wasm.probabilities[i]) > 1e-3)).toBe(true);
    net.model.dispose();
  });

  it('a head added with zero weights plays exactly as the network without it', () => {
    const plain = buildNetwork({ kind: 'policy-value', observationSize: OBS, actionCount: ACTIONS, hiddenUnits: [10], seed: 6 });
    const scored = withActionScoring(plain, K);
    expect(scored.config.actionFeatures).toBe(K);
    const { observations, mask, features } = inputs(7);
    const before = evaluatePolicyValue(plain, observations, mask);
    const after = evaluatePolicyValue(scored, observations, mask, features);
    expect(Array.from(after.probabilities)).toEqual(Array.from(before.probabilities));
    expect(Array.from(after.values)).toEqual(Array.from(before.values));
    expect(() => withActionScoring(scored, K)).toThrow(/already scores actions/);
    plain.model.dispose();
    scored.model.dispose();
  });

  it('a head added with a bias on one feature adds exactly that bias to the logit of each action that has the feature', () => {
    const plain = buildNetwork({ kind: 'policy-value', observationSize: OBS, actionCount: ACTIONS, hiddenUnits: [10], seed: 8 });
    const scored = withActionScoring(plain, K, new Map([[2, 3]]));
    const { observations, mask } = inputs(9);
    // Feature 2 is 1 at action 4 of every row, every other feature 0.
    const features = new Float32Array(ROWS * ACTIONS * K);
    for (let r = 0; r < ROWS; r++) features[(r * ACTIONS + 4) * K + 2] = 1;
    const before = evaluatePolicyValue(plain, observations, mask).probabilities;
    const after = evaluatePolicyValue(scored, observations, mask, features).probabilities;
    for (let r = 0; r < ROWS; r++) {
      if (!mask[r * ACTIONS + 4]) continue;
      for (let a = 0; a < ACTIONS; a++) {
        if (a === 4 || !mask[r * ACTIONS + a]) continue;
        // The odds of action 4 against any other grow by e³.
        const odds = (p: Float32Array) => Math.log(p[r * ACTIONS + 4] / p[r * ACTIONS + a]);
        expect(odds(after) - odds(before)).toBeCloseTo(3, 3);
      }
    }
    plain.model.dispose();
    scored.model.dispose();
  });

  it('refuses to evaluate without the features, or with too few', () => {
    const net = scoringNetwork([5], 1);
    const { observations, mask } = inputs(2);
    expect(() => evaluatePolicyValue(net, observations, mask)).toThrow(/scores actions from 4 features each: give them/);
    expect(() => evaluatePolicyValueWithPenalty(net, observations, mask, new Float32Array(3))).toThrow(/expected 6 × 9 × 4/);
    expect(() => new SinglePolicyValueEvaluator(net).evaluate(observations.subarray(0, OBS), mask.subarray(0, ACTIONS))).toThrow(
      /give 9 × 4 of them/,
    );
    net.model.dispose();
  });

  it('a saved network that scores actions keeps its features version, and one of another version is refused by name', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yaniv-scoring-'));
    try {
      const net = scoringNetwork([5], 2);
      const versions = { observationVersion: 'obs/1', actionSpaceVersion: 'act/1' };
      const metadata = await saveNetwork(net, dir, { ...versions, actionFeaturesVersion: 'feat/1' });
      expect(metadata.actionFeaturesVersion).toBe('feat/1');
      const loaded = await loadNetwork(dir, { ...versions, actionFeaturesVersion: 'feat/1' });
      expect(loaded.network.config.actionFeatures).toBe(K);
      await expect(loadNetwork(dir, { ...versions, actionFeaturesVersion: 'feat/2' })).rejects.toThrow(
        /action-features version differs: saved "feat\/1", expected "feat\/2"/,
      );
      net.model.dispose();
      loaded.network.model.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
