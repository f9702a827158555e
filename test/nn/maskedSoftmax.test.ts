import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { LOGIT_LIMIT, maskedLogSoftmax, maskedSoftmax, maskedSoftmaxCrossEntropy } from '../../nn/maskedSoftmax.js';

const ACTIONS = 7;
const extremeLogit = fc.oneof(
  fc.float({ min: -50, max: 50, noNaN: true }),
  fc.constantFrom(-3.4e38, 3.4e38, -1e30, 1e30, 0),
  fc.float({ noNaN: true, noDefaultInfinity: true }),
);
const rows = fc.array(
  fc.tuple(
    fc.array(extremeLogit, { minLength: ACTIONS, maxLength: ACTIONS }),
    fc.array(fc.boolean(), { minLength: ACTIONS, maxLength: ACTIONS }),
  ),
  { minLength: 1, maxLength: 5 },
);

function run(logitRows: number[][], maskRows: boolean[][]): { probs: Float32Array; logProbs: Float32Array } {
  const logits = tf.tensor2d(logitRows);
  const mask = tf.tensor2d(maskRows.map((r) => r.map(Number)));
  const out = [maskedSoftmax(logits, mask), maskedLogSoftmax(logits, mask)];
  const [probs, logProbs] = out.map((t) => t.dataSync() as Float32Array);
  tf.dispose([logits, mask, ...out]);
  return { probs, logProbs };
}

describe('masked softmax', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('sums to 1 over legal actions, is 0 elsewhere, and is finite for extreme logits', () => {
    fc.assert(
      fc.property(rows, (data) => {
        const { probs, logProbs } = run(
          data.map((r) => r[0]),
          data.map((r) => r[1]),
        );
        data.forEach(([, legal], r) => {
          const row = Array.from(probs.subarray(r * ACTIONS, (r + 1) * ACTIONS));
          const logRow = Array.from(logProbs.subarray(r * ACTIONS, (r + 1) * ACTIONS));
          row.forEach((p, a) => {
            expect(Number.isFinite(p)).toBe(true);
            expect(Number.isFinite(logRow[a])).toBe(true);
            if (!legal[a]) {
              expect(p + 0).toBe(0); // -0 counts as zero
              expect(logRow[a] + 0).toBe(0);
            } else {
              expect(p).toBeGreaterThanOrEqual(0);
              expect(logRow[a]).toBeLessThanOrEqual(0);
            }
          });
          const total = row.reduce((x, y) => x + y, 0);
          expect(total).toBeCloseTo(legal.some(Boolean) ? 1 : 0, 5);
        });
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('gives probability 1 to the only legal action whatever the logits', () => {
    const { probs, logProbs } = run([[3e38, -3e38, 5, 0]], [[false, true, false, false]]);
    expect(Array.from(probs, (x) => x + 0)).toEqual([0, 1, 0, 0]);
    expect(Array.from(logProbs, (x) => x + 0)).toEqual([0, 0, 0, 0]);
  });

  it('matches the plain softmax when every action is legal', () => {
    const logits = tf.tensor2d([
      [1, 2, 3, -1],
      [0.5, 0.5, -2, 4],
    ]);
    const mask = tf.onesLike(logits);
    const got = maskedSoftmax(logits, mask);
    const want = tf.softmax(logits);
    expect(
      Array.from(got.dataSync())
        .map((x, i) => x - want.dataSync()[i])
        .every((d) => Math.abs(d) < 1e-6),
    ).toBe(true);
    tf.dispose([logits, mask, got, want]);
  });

  it('accepts a bool mask and has finite gradients with zero at illegal actions', () => {
    const logits = tf.tensor2d([[1e30, -2, 3, 40]]);
    const mask = tf.tensor2d([[0, 1, 1, 0]]).cast('bool');
    const target = tf.tensor2d([[0, 0.25, 0.75, 0]]);
    const grad = tf.grad((x: tf.Tensor) => tf.neg(tf.sum(tf.mul(target, maskedLogSoftmax(x, mask)))))(logits);
    const g = Array.from(grad.dataSync());
    expect(g.every(Number.isFinite)).toBe(true);
    expect(g[0] + 0).toBe(0);
    expect(g[3] + 0).toBe(0);
    expect(g[1] + g[2]).toBeCloseTo(0, 5);
    tf.dispose([logits, mask, target, grad]);
  });

  it('refuses a mask of another shape', () => {
    const logits = tf.zeros([2, 3]);
    const mask = tf.ones([2, 4]);
    expect(() => maskedSoftmax(logits, mask)).toThrow('mask shape [2, 4] differs from logits shape [2, 3]');
    tf.dispose([logits, mask]);
  });
});

describe('masked softmax cross-entropy', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('has the value and gradient of −mean Σ target·maskedLogSoftmax', () => {
    const logits = tf.tensor2d([
      [1, -2, 3, 40],
      [0.5, 2, -1, 1e30],
      [3, 1, 2, 0],
    ]);
    const mask = tf.tensor2d([
      [0, 1, 1, 0],
      [1, 1, 1, 0],
      [0, 0, 1, 0],
    ]);
    const target = tf.tensor2d([
      [0, 0.25, 0.75, 0],
      [0.2, 0.2, 0.6, 0],
      [0, 0, 1, 0],
    ]);
    const reference = (x: tf.Tensor): tf.Scalar => tf.neg(tf.mean(tf.sum(tf.mul(target, maskedLogSoftmax(x, mask)), -1)));
    const [want, wantGrad] = [reference(logits), tf.grad(reference)(logits)];
    const fused = (x: tf.Tensor): tf.Scalar => maskedSoftmaxCrossEntropy(x as tf.Tensor2D, mask, target);
    const [got, gotGrad] = [fused(logits), tf.grad(fused)(logits)];
    expect(got.dataSync()[0]).toBeCloseTo(want.dataSync()[0], 5);
    const g = Array.from(gotGrad.dataSync());
    Array.from(wantGrad.dataSync()).forEach((w, i) => expect(g[i]).toBeCloseTo(w, 5));
    expect(g.every(Number.isFinite)).toBe(true);
    tf.dispose([logits, mask, target, want, wantGrad, got, gotGrad]);
  });

  it('agrees with the log-softmax reference for extreme logits and rows without a legal action', () => {
    fc.assert(
      fc.property(rows, (data) => {
        const logits = tf.tensor2d(data.map((r) => r[0]));
        const mask = tf.tensor2d(data.map((r) => r[1].map(Number)));
        const target = tf.tidy(() => tf.mul<tf.Tensor2D>(mask, tf.randomUniform(mask.shape, 0, 1, 'float32', data.length)));
        const reference = (x: tf.Tensor): tf.Scalar => tf.neg(tf.mean(tf.sum(tf.mul(target, maskedLogSoftmax(x, mask)), -1)));
        const fused = (x: tf.Tensor): tf.Scalar => maskedSoftmaxCrossEntropy(x as tf.Tensor2D, mask, target);
        const outs = [reference(logits), fused(logits), tf.grad(reference)(logits), tf.grad(fused)(logits)];
        const [want, got, wantGrad, gotGrad] = outs.map((t) => Array.from(t.dataSync()));
        expect(Number.isFinite(got[0])).toBe(true);
        expect(Math.abs(got[0] - want[0])).toBeLessThanOrEqual(1e-5 * (1 + Math.abs(want[0])));
        // Autodiff through the clip gives 0 beyond ±LOGIT_LIMIT; the hand-written gradient passes through it.
        const flat = data.flatMap((r) => r[0]);
        gotGrad.forEach((g, i) => {
          expect(Number.isFinite(g)).toBe(true);
          if (Math.abs(flat[i]) <= LOGIT_LIMIT) expect(Math.abs(g - wantGrad[i])).toBeLessThanOrEqual(1e-5);
        });
        tf.dispose([logits, mask, target, ...outs]);
      }),
      { numRuns: 100, seed: 13 },
    );
  });
});
