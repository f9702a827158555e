// Adam over flat vectors: see FastAdam.
import * as tf from '@tensorflow/tfjs';
import { z } from 'zod';
import { parseConfig } from '../nn/config.js';

export const OptimizerConfigSchema = z.strictObject({
  kind: z.literal('adam').describe('optimizer algorithm'),
  learningRate: z.number().positive().default(1e-3).describe('step size'),
  beta1: z.number().min(0).max(1).default(0.9).describe('decay of the first-moment estimate'),
  beta2: z.number().min(0).max(1).default(0.999).describe('decay of the second-moment estimate'),
  epsilon: z.number().positive().default(1e-7).describe('added to the root of the second moment'),
});
export type OptimizerConfig = z.output<typeof OptimizerConfigSchema>;
export type OptimizerConfigInput = z.input<typeof OptimizerConfigSchema>;

/** Everything an exact resume needs. Moments are by position in the variable list the optimizer is given. */
export interface AdamState {
  iterations: number;
  /** Running product β₁ᵗ (float32), as tfjs keeps it; recomputing it with pow could differ in the last bit. */
  accBeta1: number;
  accBeta2: number;
  firstMoments: Float32Array[];
  secondMoments: Float32Array[];
}

const f32 = Math.fround;

/** Where each variable sits in the flat vectors. */
interface Layout {
  sizes: number[];
  /** The data each variable held right after the last step, to tell whether someone assigned it since. */
  dataIds: object[] | null;
}

/**
 * Adam over all variables at once: gradients, moments and weights as one flat vector each, so a step
 * is the ~13 elementwise ops of tfjs's Adam once over ~300k numbers instead of once per variable
 * (130 kernel calls for the policy-value MLP), plus one concat, one read and an upload per variable. The ops are
 * tfjs's, in its order, on float32, so the weights equal tf.train.adam's bit for bit (the tests check).
 * Adam in a plain JS loop over Float32Arrays was tried first: bit-exact too, but about twice as slow as
 * tfjs's own Adam on wasm (6.5 against 3.3 ms a step), whose elementwise kernels are SIMD.
 */
export class FastAdam {
  readonly config: OptimizerConfig;
  private iter = 0;
  private accBeta1: number;
  private accBeta2: number;
  private layout: Layout | null = null;
  private weights: tf.Tensor1D | null = null;
  private first: tf.Tensor1D | null = null;
  private second: tf.Tensor1D | null = null;

  constructor(config: OptimizerConfigInput = { kind: 'adam' }) {
    this.config = parseConfig(OptimizerConfigSchema, structuredClone(config), 'optimizer config');
    // tfjs starts the running products at β (not 1) and multiplies after each step.
    this.accBeta1 = f32(this.config.beta1);
    this.accBeta2 = f32(this.config.beta2);
  }

  get iterations(): number {
    return this.iter;
  }

  /**
   * One Adam step: grads[i] updates vars[i]. The moments belong to positions, so always pass the same
   * variables in the same order (trainableVariables(model) does). A variable whose gradient is null
   * (the loss does not reach it) keeps its value and moments, as with tfjs's Adam.
   */
  applyGradients(vars: readonly tf.Variable[], grads: readonly (tf.Tensor | null | undefined)[]): void {
    if (vars.length !== grads.length) throw new Error(`${vars.length} variables but ${grads.length} gradients`);
    vars.forEach((v, i) => {
      const g = grads[i];
      if (v.dtype !== 'float32') throw new Error(`variable ${v.name} is ${v.dtype}, not float32`);
      if (g != null && g.size !== v.size) throw new Error(`gradient of ${v.name} has ${g.size} numbers, the variable ${v.size}`);
    });
    const missing = grads.some((g) => g == null);
    const sizes = vars.map((v) => v.size);
    if (this.layout !== null && this.layout.sizes.join() !== sizes.join()) {
      throw new Error(`optimizer state is for variables of sizes [${this.layout.sizes.join(', ')}], given [${sizes.join(', ')}]`);
    }
    const { beta1, beta2, epsilon, learningRate } = this.config;
    const previous = [this.weights, this.first, this.second];
    const reuseWeights = this.weights !== null && this.layout?.dataIds?.every((id, i) => id === vars[i].dataId) === true;
    const total = sizes.reduce((a, b) => a + b, 0);
    const [w, m, v] = tf.tidy(() => {
      const flat = (ts: readonly tf.Tensor[]): tf.Tensor1D => tf.concat(ts.map((t) => tf.reshape(t, [-1])));
      const g = flat(grads.map((x, i) => x ?? tf.zeros(vars[i].shape)));
      const weights = reuseWeights ? (this.weights as tf.Tensor1D) : flat(vars);
      const first = this.first ?? tf.zeros([total]);
      const second = this.second ?? tf.zeros([total]);
      // tfjs's AdamOptimizer.applyGradients, op for op.
      const newFirst = tf.add<tf.Tensor1D>(tf.mul(first, beta1), tf.mul(g, 1 - beta1));
      const newSecond = tf.add<tf.Tensor1D>(tf.mul(second, beta2), tf.mul(tf.square(g), 1 - beta2));
      const corrected1 = tf.div(newFirst, f32(1 - this.accBeta1));
      const corrected2 = tf.div(newSecond, f32(1 - this.accBeta2));
      const newWeights = tf.add<tf.Tensor1D>(tf.mul(tf.div(corrected1, tf.add(tf.sqrt(corrected2), epsilon)), -learningRate), weights);
      if (!missing) return [newWeights, newFirst, newSecond];
      // As tfjs's Adam, leave a variable without gradient and its moments untouched.
      const present = new Uint8Array(total);
      let at = 0;
      grads.forEach((x, i) => {
        if (x != null) present.fill(1, at, at + sizes[i]);
        at += sizes[i];
      });
      const hasGradient = tf.tensor1d(present, 'bool');
      return [
        tf.where(hasGradient, newWeights, weights),
        tf.where(hasGradient, newFirst, first),
        tf.where(hasGradient, newSecond, second),
      ] as tf.Tensor1D[];
    });
    // Split by reading the vector once: the wasm Slice kernel copies its whole input out of the heap
    // for every slice (8 slices of 300k numbers took 5 ms).
    const values = w.dataSync() as Float32Array;
    let offset = 0;
    vars.forEach((variable, i) => {
      const part = tf.tensor(values.subarray(offset, (offset += sizes[i])), variable.shape, 'float32');
      variable.assign(part);
      part.dispose();
    });
    tf.dispose(previous.filter((t): t is tf.Tensor1D => t !== null));
    this.weights = w;
    this.first = m;
    this.second = v;
    this.layout = { sizes, dataIds: vars.map((x) => x.dataId) };
    this.accBeta1 = f32(this.accBeta1 * f32(beta1));
    this.accBeta2 = f32(this.accBeta2 * f32(beta2));
    this.iter++;
  }

  /** Gradients of loss() over vars by tf.variableGrads, then one step. Returns the loss tensor for the caller to read and dispose. */
  minimize(loss: () => tf.Scalar, vars: readonly tf.Variable[]): tf.Scalar {
    const { value, grads } = tf.variableGrads(loss, [...vars]);
    try {
      this.applyGradients(
        vars,
        vars.map((v) => grads[v.name]),
      );
    } catch (err) {
      value.dispose();
      throw err;
    } finally {
      tf.dispose(Object.values(grads));
    }
    return value;
  }

  /** A copy of the state, moments split per variable position. */
  getState(): AdamState {
    const split = (flat: tf.Tensor1D | null): Float32Array[] => {
      if (flat === null || this.layout === null) return [];
      const all = flat.dataSync() as Float32Array;
      let offset = 0;
      return this.layout.sizes.map((n) => all.slice(offset, (offset += n)));
    };
    return {
      iterations: this.iter,
      accBeta1: this.accBeta1,
      accBeta2: this.accBeta2,
      firstMoments: split(this.first),
      secondMoments: split(this.second),
    };
  }

  /** Replaces the state with a copy of the given one. */
  setState(state: AdamState): void {
    if (state.firstMoments.length !== state.secondMoments.length) throw new Error('first and second moments differ in count');
    const sizes = state.firstMoments.map((m, i) => {
      if (m.length !== state.secondMoments[i].length) throw new Error(`moments at position ${i} differ in size`);
      return m.length;
    });
    const join = (list: Float32Array[]): tf.Tensor1D => {
      const all = new Float32Array(sizes.reduce((a, b) => a + b, 0));
      let offset = 0;
      list.forEach((part) => {
        all.set(part, offset);
        offset += part.length;
      });
      return tf.tensor1d(all, 'float32');
    };
    this.dispose();
    this.iter = state.iterations;
    this.accBeta1 = f32(state.accBeta1);
    this.accBeta2 = f32(state.accBeta2);
    if (sizes.length > 0) {
      this.layout = { sizes, dataIds: null };
      this.first = join(state.firstMoments);
      this.second = join(state.secondMoments);
    }
  }

  /** Frees the tensors it holds (moments and its copy of the weights); the state is then empty. */
  dispose(): void {
    tf.dispose([this.weights, this.first, this.second].filter((t): t is tf.Tensor1D => t !== null));
    this.weights = this.first = this.second = null;
    this.layout = null;
  }
}
