// evaluatePolicyValue's wasm path (mask written into the logits in the wasm heap) against the
// uploaded-penalty path it replaced, the masked-softmax properties with extreme logits, and leaks.
import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { evaluatePolicyValue, evaluatePolicyValueWithPenalty } from '../../nn/inference.js';
import { LOGIT_LIMIT } from '../../nn/maskedSoftmax.js';
import { buildNetwork, type Network, type PolicyValueConfig } from '../../nn/networks.js';

const OBS = 5;
const ACTIONS = 7;

const netOf = (seed: number, actionCount = ACTIONS): Network<PolicyValueConfig> =>
  buildNetwork({ kind: 'policy-value', observationSize: OBS, actionCount, hiddenUnits: [8, 6], seed });

function observationsOf(rows: number, seed: number): Float32Array {
  return Float32Array.from({ length: rows * OBS }, (_, i) => 3 * Math.sin(seed * 7.3 + i * 1.7));
}

/** Makes every row's logits equal `logits`: zero policy kernel, bias = logits. */
function withLogits(net: Network<PolicyValueConfig>, logits: number[]): void {
  const layer = net.model.getLayer('policy_logits');
  const [kernel] = layer.getWeights();
  const weights = [tf.zerosLike(kernel), tf.tensor1d(logits)];
  layer.setWeights(weights);
  tf.dispose(weights);
}

const extremeLogit = fc.oneof(
  fc.float({ min: -50, max: 50, noNaN: true }),
  fc.constantFrom(-3.4e38, 3.4e38, -1e30, 1e30, 0, Infinity, -Infinity),
  fc.float({ noNaN: true }),
);
const maskRows = fc.array(fc.array(fc.boolean(), { minLength: ACTIONS, maxLength: ACTIONS }), { minLength: 1, maxLength: 6 });

describe('evaluatePolicyValue on wasm', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('equals the uploaded-penalty path over random masks, rows without a legal action and rows with one', () => {
    const nets = [netOf(1), netOf(2, 512)];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 0, max: 1e6 }),
        (which, rows, seed) => {
          const net = nets[which];
          const { actionCount } = net.config;
          const observations = observationsOf(rows, seed);
          // Per row: all legal, none legal, exactly one legal, or a pseudo-random subset; mask values > 0 of any size are legal.
          const mask = new Float32Array(rows * actionCount);
          for (let r = 0; r < rows; r++) {
            const kind = (seed + r) % 4;
            for (let a = 0; a < actionCount; a++) {
              const h = (Math.imul(seed + 31 * r, 2654435761) ^ Math.imul(a + 1, 40503)) >>> 0;
              const legal = kind === 0 || (kind === 2 && a === (seed + r) % actionCount) || (kind === 3 && h % 3 !== 0);
              mask[r * actionCount + a] = legal ? 0.5 + (h % 4) : -(h % 2);
            }
          }
          const got = evaluatePolicyValue(net, observations, mask);
          const want = evaluatePolicyValueWithPenalty(net, observations, mask);
          expect(got.rows).toBe(rows);
          expect(Array.from(got.values)).toEqual(Array.from(want.values));
          got.probabilities.forEach((p, i) => {
            expect(Math.abs(p - want.probabilities[i])).toBeLessThanOrEqual(1e-6);
            if (!(mask[i] > 0)) expect(p + 0).toBe(0);
          });
        },
      ),
      { numRuns: 60, seed: 17 },
    );
    for (const net of nets) net.model.dispose();
  });

  it('is never NaN, 0 at illegal actions, sums to 1 over legal ones, 1 for a lone legal action, for extreme and infinite logits', () => {
    const net = netOf(3);
    fc.assert(
      fc.property(fc.array(extremeLogit, { minLength: ACTIONS, maxLength: ACTIONS }), maskRows, (logits, legal) => {
        withLogits(net, logits);
        const rows = legal.length;
        const mask = legal.flat().map(Number);
        const out = evaluatePolicyValue(net, observationsOf(rows, 1), mask);
        const reference = evaluatePolicyValueWithPenalty(net, observationsOf(rows, 1), mask);
        legal.forEach((rowLegal, r) => {
          const row = Array.from(out.probabilities.subarray(r * ACTIONS, (r + 1) * ACTIONS));
          row.forEach((p, a) => {
            expect(Number.isFinite(p)).toBe(true);
            if (!rowLegal[a]) expect(p + 0).toBe(0);
            else expect(p).toBeGreaterThanOrEqual(0);
            // Within the clip range the two paths compute the same softmax.
            if (logits.every((x) => Math.abs(x) <= LOGIT_LIMIT))
              expect(Math.abs(p - reference.probabilities[r * ACTIONS + a])).toBeLessThanOrEqual(1e-6);
          });
          const count = rowLegal.filter(Boolean).length;
          expect(row.reduce((x, y) => x + y, 0)).toBeCloseTo(count > 0 ? 1 : 0, 5);
          if (count === 1) expect(row[rowLegal.indexOf(true)]).toBe(1);
        });
      }),
      { numRuns: 200, seed: 19 },
    );
    net.model.dispose();
  });

  it('gives the clipped path’s answer when a legal logit is infinite', () => {
    const net = netOf(4);
    withLogits(net, [Infinity, Infinity, 3, -Infinity, 0, 1e38, -2]);
    const mask = [1, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1];
    const out = evaluatePolicyValue(net, observationsOf(2, 2), mask);
    // Row 0: ∞, ∞ and 1e38 all clip to LOGIT_LIMIT and share the row; row 1 has no infinite legal logit.
    const third = Math.fround(1 / 3);
    expect(Array.from(out.probabilities, (x) => x + 0)).toEqual([third, third, 0, 0, 0, third, 0, 0, 0, 0, 0, 0, 1, 0]);
    expect(out).toEqual(evaluatePolicyValueWithPenalty(net, observationsOf(2, 2), mask));
    net.model.dispose();
  });

  it('leaks no tensor and no wasm memory on either path', () => {
    const net = netOf(5);
    const big = netOf(6, 512);
    const run = (): void => {
      withLogits(net, [1, 2, 3, 4, 5, 6, 7]);
      evaluatePolicyValue(net, observationsOf(3, 3), new Uint8Array(3 * ACTIONS).fill(1));
      withLogits(net, [Infinity, 2, 3, 4, 5, 6, 7]); // NaN row: redone by the penalty path
      evaluatePolicyValue(net, observationsOf(3, 3), new Uint8Array(3 * ACTIONS).fill(1));
      evaluatePolicyValue(big, observationsOf(64, 4), new Float32Array(64 * 512).fill(1));
      evaluatePolicyValueWithPenalty(big, observationsOf(64, 4), new Float32Array(64 * 512).fill(1));
    };
    run();
    const before = tf.memory();
    for (let i = 0; i < 20; i++) run();
    const after = tf.memory();
    expect(after.numTensors).toBe(before.numTensors);
    expect(after.numBytes).toBe(before.numBytes);
    expect(after.numDataBuffers).toBe(before.numDataBuffers);
    net.model.dispose();
    big.model.dispose();
  });

  it('takes the penalty path on another backend, with the same answers', async () => {
    const net = netOf(7);
    const mask = [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1];
    const wasm = evaluatePolicyValue(net, observationsOf(3, 5), mask);
    await tf.setBackend('cpu');
    try {
      const cpu = evaluatePolicyValue(net, observationsOf(3, 5), mask);
      cpu.probabilities.forEach((p, i) => expect(Math.abs(p - wasm.probabilities[i])).toBeLessThanOrEqual(1e-5));
      expect(Array.from(cpu.probabilities.subarray(7, 14))).toEqual(new Array(7).fill(0));
    } finally {
      await tf.setBackend('wasm');
    }
    net.model.dispose();
  });
});
