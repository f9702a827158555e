import type { Dense } from '../../nn/denseForward.js';
import type { Rng } from '../../env/rules/random.js';

/** A dense layer of 32-bit weights in [−1, 1). */
export function randomLayer(inputs: number, units: number, rng: Rng): Dense {
  const signed = () => (rng.next() - 0.5) * 2;
  return {
    kernel: Float32Array.from({ length: inputs * units }, signed),
    bias: Float32Array.from({ length: units }, signed),
    inputs,
    units,
  };
}
