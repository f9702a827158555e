/**
 * One dense layer for one input, in plain JS (nn/singleEvaluator.ts): out = bias + input · kernel,
 * the rows of inputs that are 0 skipped (most of an observation, and the hidden units at 0 after
 * ReLU). Each output is summed in a local in the plain order (its bias, then input 0, 1, …),
 * four outputs at a time over the inputs that are not 0: the same additions in the same order
 * as the loop that adds each input's row into `out`, so the same numbers bit for bit (a test holds
 * it to that loop), in about 60% of its time (the sums stay in registers).
 */

/** A layer's weights: a network's as stored (32-bit), or a head's read from JSON (64-bit, agents/equity/qHead.ts). */
export interface Dense {
  readonly kernel: Float32Array | Float64Array;
  readonly bias: Float32Array | Float64Array;
  readonly inputs: number;
  readonly units: number;
}

/** The inputs that are not 0: each one's kernel row offset and value (grown on demand, one per thread). */
let rows = new Int32Array(1024);
let values = new Float64Array(1024);

/** out = bias + input · kernel, skipping the rows of inputs that are 0. */
export function denseForward({ kernel, bias, inputs, units }: Dense, input: ArrayLike<number>, out: Float64Array): void {
  if (input.length !== inputs) throw new Error(`layer takes ${inputs} inputs, got ${input.length}`);
  if (rows.length < inputs) [rows, values] = [new Int32Array(inputs), new Float64Array(inputs)];
  let n = 0;
  for (let i = 0; i < inputs; i++) {
    const x = input[i];
    if (x === 0) continue;
    rows[n] = i * units;
    values[n++] = x;
  }
  let j = 0;
  for (; j + 4 <= units; j += 4) {
    let a0 = bias[j];
    let a1 = bias[j + 1];
    let a2 = bias[j + 2];
    let a3 = bias[j + 3];
    for (let m = 0; m < n; m++) {
      const x = values[m];
      const k = rows[m] + j;
      a0 += x * kernel[k];
      a1 += x * kernel[k + 1];
      a2 += x * kernel[k + 2];
      a3 += x * kernel[k + 3];
    }
    out[j] = a0;
    out[j + 1] = a1;
    out[j + 2] = a2;
    out[j + 3] = a3;
  }
  for (; j < units; j++) {
    let a = bias[j];
    for (let m = 0; m < n; m++) a += values[m] * kernel[rows[m] + j];
    out[j] = a;
  }
}
