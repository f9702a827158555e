import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { installWasmFastMatMul, isWasmFastMatMulInstalled, uninstallWasmFastMatMul } from '../../nn/wasmFastMatMul.js';

interface Case {
  batchA: number[];
  batchB: number[];
  m: number;
  k: number;
  n: number;
  transposeA: boolean;
  transposeB: boolean;
  seed: number;
}

const dim = fc.integer({ min: 1, max: 9 });
const batchShapes = fc.oneof(
  fc.constant<[number[], number[]]>([[], []]),
  fc.integer({ min: 2, max: 4 }).map((b): [number[], number[]] => [[b], [b]]),
  fc.integer({ min: 2, max: 4 }).map((b): [number[], number[]] => [[b], []]),
  fc.integer({ min: 2, max: 4 }).map((b): [number[], number[]] => [[1], [b]]),
  fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 2, max: 3 })).map(([x, y]): [number[], number[]] => [
    [x, y],
    [x, y],
  ]),
);
const cases: fc.Arbitrary<Case> = fc
  .record({
    batches: batchShapes,
    m: dim,
    k: dim,
    n: dim,
    transposeA: fc.boolean(),
    transposeB: fc.boolean(),
    seed: fc.integer({ min: 1, max: 1_000_000 }), // tfjs treats seed 0 as no seed
  })
  .map(({ batches, ...rest }) => ({ batchA: batches[0], batchB: batches[1], ...rest }));

function operands(c: Case): { a: tf.Tensor; b: tf.Tensor } {
  const aShape = [...c.batchA, ...(c.transposeA ? [c.k, c.m] : [c.m, c.k])];
  const bShape = [...c.batchB, ...(c.transposeB ? [c.n, c.k] : [c.k, c.n])];
  return { a: tf.randomNormal(aShape, 0, 1, 'float32', c.seed), b: tf.randomNormal(bShape, 0, 1, 'float32', c.seed + 1) };
}

/**
 * Forward value and gradients with respect to both operands (and the bias for the fused op).
 * tfjs-core's matMul gradient does not reduce broadcast batch dimensions,  and cannot differentiate
 * operands of rank above 3, so gradients are compared only outside those cases.
 */
function evaluate(c: Case, fused: boolean): Float32Array[] {
  const { a, b } = operands(c);
  const bias = tf.randomNormal([c.n], 0, 1, 'float32', c.seed + 2);
  const run = (x: tf.Tensor, y: tf.Tensor, z: tf.Tensor): tf.Tensor =>
    fused
      ? tf.fused.matMul({ a: x, b: y, transposeA: c.transposeA, transposeB: c.transposeB, bias: z, activation: 'relu' })
      : tf.matMul(x, y, c.transposeA, c.transposeB);
  const outs = tf.tidy(() => {
    const forward = run(a, b, bias);
    const weights = tf.randomNormal(forward.shape, 0, 1, 'float32', c.seed + 3);
    if (c.batchA.join() !== c.batchB.join() || c.batchA.length > 1) return [forward];
    const loss = (x: tf.Tensor, y: tf.Tensor, z: tf.Tensor): tf.Tensor => tf.sum(tf.mul(run(x, y, z), weights));
    const grads = fused ? tf.grads(loss)([a, b, bias]) : tf.grads((x: tf.Tensor, y: tf.Tensor) => loss(x, y, bias))([a, b]);
    return [forward, ...grads];
  });
  const values = outs.map((t) => t.dataSync() as Float32Array);
  tf.dispose([a, b, bias, ...outs]);
  return values;
}

/**
 * The stock wasm kernel's scalar fallback (taken for transposes and batches) has two bugs the fast path
 * avoids: it reads past a broadcast right operand, and a fused bias is taken from its last element for
 * every output row after the first. Where those apply the CPU backend is the only reference.
 */
function stockIsCorrect(c: Case, fused: boolean): boolean {
  const batch = c.batchA.reduce((x, y) => x * y, 1);
  const xnnPath = batch === 1 && c.batchB.length <= 1 && !c.transposeA && !c.transposeB;
  return c.batchA.join() === c.batchB.join() && (!fused || c.m === 1 || xnnPath);
}

function expectClose(actual: Float32Array[], expected: Float32Array[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((values, i) => {
    expect(values.length).toBe(expected[i].length);
    values.forEach((v, j) => expect(Math.abs(v - expected[i][j])).toBeLessThanOrEqual(1e-4 * (1 + Math.abs(expected[i][j]))));
  });
}

function liveData(): { tensors: number; dataIds: number } {
  return { tensors: tf.memory().numTensors, dataIds: tf.engine().backend.numDataIds() };
}

describe('wasm fast matmul', () => {
  beforeAll(async () => {
    await initBackend('wasm', { fastMatMul: false });
  });
  afterAll(() => uninstallWasmFastMatMul());

  it('installs and uninstalls idempotently', () => {
    installWasmFastMatMul();
    installWasmFastMatMul();
    expect(isWasmFastMatMulInstalled()).toBe(true);
    uninstallWasmFastMatMul();
    uninstallWasmFastMatMul();
    expect(isWasmFastMatMulInstalled()).toBe(false);
  });

  for (const fused of [false, true]) {
    it(`${fused ? 'fusedMatMul' : 'matMul'}: forward values and gradients equal the stock kernels and the CPU backend`, async () => {
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          await tf.setBackend('cpu');
          const reference = evaluate(c, fused);
          await tf.setBackend('wasm');
          uninstallWasmFastMatMul();
          const stock = evaluate(c, fused);
          installWasmFastMatMul();
          const before = liveData();
          const fast = evaluate(c, fused);
          expect(liveData()).toEqual(before);
          expectClose(fast, reference);
          if (stockIsCorrect(c, fused)) expectClose(fast, stock);
        }),
        { numRuns: 60, seed: fused ? 7 : 5 },
      );
    });
  }
});
