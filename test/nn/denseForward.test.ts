import { describe, expect, it } from 'vitest';
import { type Dense, denseForward } from '../../nn/denseForward.js';
import { seededRng } from '../../env/rules/random.js';
import { randomLayer } from './randomLayer.js';

/** The plain reference: each input's row added into `out` in turn. */
function plainForward({ kernel, bias, inputs, units }: Dense, input: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(bias);
  for (let i = 0; i < inputs; i++) {
    const x = input[i];
    if (x === 0) continue;
    for (let j = 0; j < units; j++) out[j] += x * kernel[i * units + j];
  }
  return out;
}

describe('denseForward', () => {
  it('gives the plain loop’s numbers bit for bit, sparse or dense, any width', () => {
    const rng = seededRng(41);
    for (const [inputs, units] of [
      [1184, 256],
      [256, 128],
      [37, 7],
      [5, 3],
      [2000, 1],
    ]) {
      const layer = randomLayer(inputs, units, rng);
      for (const zeros of [0, 0.5, 0.95, 1]) {
        const input = Float64Array.from({ length: inputs }, () => (rng.next() < zeros ? 0 : (rng.next() - 0.5) * 10));
        const out = new Float64Array(units);
        denseForward(layer, input, out);
        expect(Array.from(out)).toEqual(Array.from(plainForward(layer, input)));
        const f32 = Float32Array.from(input);
        denseForward(layer, f32, out);
        expect(Array.from(out)).toEqual(Array.from(plainForward(layer, f32)));
      }
    }
  });

  it('refuses an input of the wrong length', () => {
    expect(() => denseForward(randomLayer(4, 2, seededRng(1)), [1, 2, 3], new Float64Array(2))).toThrow(/takes 4 inputs, got 3/);
  });
});
