/**
 * A stack of dense layers in WebAssembly SIMD for one input at a time (the trunk of
 * nn/singleEvaluator.ts): the same sums as `denseForward` (nn/denseForward.ts) — each output its
 * bias, then input · kernel over the inputs that are not 0, in order, every product and sum in
 * 64 bits — two outputs to a 128-bit lane pair, eight at a time. f64x2 multiplies and adds round
 * each lane as the scalar code rounds each number (WebAssembly has no fused multiply-add), and a
 * 32-bit weight widens to 64 bits exactly, so the numbers are the same bit for bit (a test holds
 * the trunk to the plain one) in about 40% of the time: the kernels are read as packed floats, not
 * one typed-array element at a time. The weights are copied once into the stack's own memory.
 */
import type { Dense } from './denseForward.js';

/** Each output of a layer, in place (the network's activation). */
type Activation = (x: number) => number;

/** Outputs computed per pass over a layer's nonzero inputs: a layer's units must be a multiple. */
const OUTPUTS_AT_ONCE = 8;
const PAGE = 65536;

// The instructions used (WebAssembly 2.0 with SIMD), and the function's locals by index.
const OP = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  i32Const: (value: number) => [0x41, value], // 0..63: one byte of signed LEB128
  i32Add: [0x6a],
  i32Shl: [0x74],
  i32GeU: [0x4f],
  i32Load: [0x28, 2, 0],
  f64Load: [0x2b, 3, 0],
  /** Two 32-bit floats at `offset` into the low half (v128.load64_zero), widened to two 64-bit ones (f64x2.promote_low_f32x4). */
  load2f32: (offset: number) => [0xfd, 0x5d, 0, offset, 0xfd, 0x5f],
  v128Store: (offset: number) => [0xfd, 0x0b, 0, offset],
  f64x2Splat: [0xfd, 0x14],
  f64x2Add: [0xfd, 0xf0, 0x01],
  f64x2Mul: [0xfd, 0xf2, 0x01],
};
// dense(rows, values, n, bias, units, out): params 0–5, then j, m, k (i32), x, acc0..acc3 (v128).
const [ROWS, VALUES, N, BIAS, UNITS, OUT, J, M, K, X, ACC] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const LANE_PAIRS = OUTPUTS_AT_ONCE / 2;

/**
 * out[j] = bias[j] + Σ values[m] · kernel-row m [j] over m = 0 … n−1, in that order: `rows` holds
 * each nonzero input's row address (kernel rows of `units` 32-bit floats), `values` its value
 * (64-bit), `bias` 32-bit, `out` 64-bit. For each eight outputs j: the accumulators from the bias,
 * then for each m the value splat times the row's eight weights added, then stored.
 */
function denseBody(): number[] {
  const pairs = Array.from({ length: LANE_PAIRS }, (_, i) => i);
  const at = (base: number, index: number, shift: number) => [
    ...OP.get(base),
    ...OP.get(index),
    ...OP.i32Const(shift),
    ...OP.i32Shl,
    ...OP.i32Add,
  ];
  // prettier-ignore
  return [
    ...OP.i32Const(0), ...OP.set(J),
    ...OP.block, ...OP.loop,
    ...OP.get(J), ...OP.get(UNITS), ...OP.i32GeU, ...OP.brIf(1),
    ...pairs.flatMap((i) => [...at(BIAS, J, 2), ...OP.load2f32(8 * i), ...OP.set(ACC + i)]),
    ...OP.i32Const(0), ...OP.set(M),
    ...OP.block, ...OP.loop,
    ...OP.get(M), ...OP.get(N), ...OP.i32GeU, ...OP.brIf(1),
    ...at(ROWS, M, 2), ...OP.i32Load, ...OP.get(J), ...OP.i32Const(2), ...OP.i32Shl, ...OP.i32Add, ...OP.set(K),
    ...at(VALUES, M, 3), ...OP.f64Load, ...OP.f64x2Splat, ...OP.set(X),
    ...pairs.flatMap((i) => [...OP.get(ACC + i), ...OP.get(X), ...OP.get(K), ...OP.load2f32(8 * i), ...OP.f64x2Mul, ...OP.f64x2Add, ...OP.set(ACC + i)]),
    ...OP.get(M), ...OP.i32Const(1), ...OP.i32Add, ...OP.set(M), ...OP.br(0),
    ...OP.end, ...OP.end,
    ...pairs.flatMap((i) => [...at(OUT, J, 3), ...OP.get(ACC + i), ...OP.v128Store(16 * i)]),
    ...OP.get(J), ...OP.i32Const(OUTPUTS_AT_ONCE), ...OP.i32Add, ...OP.set(J), ...OP.br(0),
    ...OP.end, ...OP.end,
    ...OP.end,
  ];
}

function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? low : low | 0x80);
  } while (n !== 0);
  return out;
}

const section = (id: number, bytes: number[]) => [id, ...leb128(bytes.length), ...bytes];
const name = (text: string) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
const I32 = 0x7f;
const V128 = 0x7b;

/** The module: memory imported as m.mem, one function `dense` (six i32 parameters, no result). */
function moduleBytes(): Uint8Array<ArrayBuffer> {
  const locals = [2, 3, I32, 1 + LANE_PAIRS, V128];
  const func = [...locals, ...denseBody()];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 6, ...Array<number>(6).fill(I32), 0]),
    ...section(2, [1, ...name('m'), ...name('mem'), 0x02, 0x00, 1]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('dense'), 0x00, 0]),
    ...section(10, [1, ...leb128(func.length), ...func]),
  ]);
}

/** The compiled module (once per thread), or null where this WebAssembly has no SIMD. */
let compiled: WebAssembly.Module | null | undefined;
function denseModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    const bytes = moduleBytes();
    compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  }
  return compiled;
}

/** Where a layer lives in the stack's memory (byte addresses). */
interface Placed {
  readonly layer: Dense;
  readonly kernel: number;
  readonly bias: number;
  readonly out: number;
}

export class WasmDenseStack {
  private readonly dense: (rows: number, values: number, n: number, bias: number, units: number, out: number) => void;
  private readonly i32: Int32Array;
  private readonly f64: Float64Array;
  private readonly outs: Float64Array[];

  private constructor(
    module: WebAssembly.Module,
    private readonly placed: readonly Placed[],
    private readonly rows: number,
    private readonly values: number,
    bytes: number,
  ) {
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
    const instance = new WebAssembly.Instance(module, { m: { mem: memory } });
    this.dense = instance.exports.dense as WasmDenseStack['dense'];
    const f32 = new Float32Array(memory.buffer);
    for (const { layer, kernel, bias } of placed) {
      f32.set(layer.kernel, kernel / 4);
      f32.set(layer.bias, bias / 4);
    }
    this.i32 = new Int32Array(memory.buffer);
    this.f64 = new Float64Array(memory.buffer);
    this.outs = placed.map(({ out, layer }) => this.f64.subarray(out / 8, out / 8 + layer.units));
  }

  /** The stack in WebAssembly, or null where it cannot be: no SIMD, or a layer that is not 32-bit or not a multiple of eight units wide. */
  static of(layers: readonly Dense[]): WasmDenseStack | null {
    const module = denseModule();
    if (
      !module ||
      layers.length === 0 ||
      layers.some((l) => !(l.kernel instanceof Float32Array) || !(l.bias instanceof Float32Array) || l.units % OUTPUTS_AT_ONCE !== 0)
    )
      return null;
    let bytes = 0;
    const take = (size: number) => {
      const at = bytes;
      bytes += Math.ceil(size / 16) * 16;
      return at;
    };
    const placed = layers.map((layer) => ({
      layer,
      kernel: take(layer.inputs * layer.units * 4),
      bias: take(layer.units * 4),
      out: take(layer.units * 8),
    }));
    const widest = Math.max(...layers.map((l) => l.inputs));
    const rows = take(widest * 4);
    const values = take(widest * 8);
    return new WasmDenseStack(module, placed, rows, values, bytes);
  }

  /** The last layer's outputs for `input`, each layer's through `activation` (a view of the stack's memory, overwritten by the next call). */
  forward(input: ArrayLike<number>, activation: Activation): Float64Array {
    let x = input;
    this.placed.forEach(({ layer, kernel, bias, out }, i) => {
      if (x.length !== layer.inputs) throw new Error(`layer takes ${layer.inputs} inputs, got ${x.length}`);
      const rows = this.rows / 4;
      const values = this.values / 8;
      const stride = layer.units * 4;
      let n = 0;
      for (let k = 0; k < layer.inputs; k++) {
        const value = x[k];
        if (value === 0) continue;
        this.i32[rows + n] = kernel + k * stride;
        this.f64[values + n++] = value;
      }
      this.dense(this.rows, this.values, n, bias, layer.units, out);
      const outputs = this.outs[i];
      for (let j = 0; j < outputs.length; j++) outputs[j] = activation(outputs[j]);
      x = outputs;
    });
    return x as Float64Array;
  }
}
