// The WebAssembly SIMD trunk (nn/denseWasm.ts) against the plain JS one, bit for bit: random
// stacks sparse and dense, every activation, and the shipped model's trunk over observations of
// real play.
import { describe, expect, it } from 'vitest';
import { type Dense, denseForward } from '../../nn/denseForward.js';
import { WasmDenseStack } from '../../nn/denseWasm.js';
import { seededRng } from '../../env/rules/random.js';
import { randomLayer } from './randomLayer.js';
import { YanivEnv, encodeView, randomLegalAction } from '../../env/index.js';
import { tableHead } from '../../agents/equity/headOutlook.js';

/** The stack through denseForward, each layer's outputs through `activation`. */
function plainStack(layers: readonly Dense[], input: ArrayLike<number>, activation: (x: number) => number): number[] {
  let x: ArrayLike<number> = input;
  for (const layer of layers) {
    const out = new Float64Array(layer.units);
    denseForward(layer, x, out);
    x = out.map(activation);
  }
  return Array.from(x);
}

const ACTIVATIONS = { relu: (x: number) => (x > 0 ? x : 0), tanh: Math.tanh, none: (x: number) => x };

describe('WasmDenseStack', () => {
  it('gives the plain stack’s numbers bit for bit, sparse or dense, 32- or 64-bit inputs, every activation', () => {
    const rng = seededRng(43);
    for (const widths of [
      [1184, 256, 128],
      [40, 16, 8],
      [3, 8],
    ]) {
      const layers = widths.slice(1).map((units, i) => randomLayer(widths[i], units, rng));
      const stack = WasmDenseStack.of(layers);
      expect(stack).not.toBeNull();
      for (const [name, activation] of Object.entries(ACTIVATIONS))
        for (const zeros of [0, 0.5, 0.95, 1]) {
          const input = Float64Array.from({ length: widths[0] }, () => (rng.next() < zeros ? 0 : (rng.next() - 0.5) * 10));
          for (const x of [input, Float32Array.from(input)]) {
            const plain = plainStack(layers, x, activation);
            const fast = Array.from(stack?.forward(x, activation) ?? []);
            expect(
              fast.every((v, j) => Object.is(v, plain[j])),
              `${widths.join('→')} ${name} zeros ${zeros}`,
            ).toBe(true);
            expect(fast).toHaveLength(plain.length);
          }
        }
    }
  });

  it('leaves to the JS code what it cannot take: no layers, a width not a multiple of 8, 64-bit weights', () => {
    const rng = seededRng(2);
    expect(WasmDenseStack.of([])).toBeNull();
    expect(WasmDenseStack.of([randomLayer(4, 6, rng)])).toBeNull();
    const wide = randomLayer(4, 8, rng);
    expect(WasmDenseStack.of([{ ...wide, kernel: Float64Array.from(wide.kernel) }])).toBeNull();
  });

  it('refuses an input of the wrong length', () => {
    const stack = WasmDenseStack.of([randomLayer(4, 8, seededRng(1))]);
    expect(() => stack?.forward([1, 2, 3], ACTIVATIONS.relu)).toThrow(/takes 4 inputs, got 3/);
  });

  it('gives the shipped 3-seat model’s trunk as the JS trunk does, bit for bit, over positions of play', async () => {
    const env = new YanivEnv({ players: 3, episode: 'round' });
    const rng = seededRng(7);
    const table = await tableHead(env.view(0));
    if (!table) throw new Error('no q head shipped for standard at 3 seats');
    const trunk = table.trunk;
    expect(trunk.trunkInWasm).toBe(true);
    let positions = 0;
    for (let game = 0; positions < 300; game++) {
      let { info } = env.reset({ seed: game });
      while (!env.done && positions < 300) {
        const observation = encodeView(env.view(info.currentPlayer));
        const fast = Array.from(trunk.trunkOf(observation));
        const plain = Array.from(trunk.trunkInJs(observation));
        expect(fast.every((v, j) => Object.is(v, plain[j]))).toBe(true);
        positions++;
        ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
      }
    }
  });
});
