// Adam in plain JS over Float32Arrays. tfjs's Adam runs ~13 elementwise ops per variable, and on wasm
// each is a kernel call with its own pass and allocation; here one loop per variable does the whole
// update. Every operation is rounded to float32 in the order tfjs's AdamOptimizer uses, so the result
// equals tf.train.adam step for step (the tests compare them), and the state layout (iteration, β₁ᵗ,
// β₂ᵗ, first and second moments by variable position) is the one checkpoints already store.
import * as tf from '@tensorflow/tfjs';
import { z } from 'zod';

export const OptimizerConfigSchema = z.object({
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

/** A variable's values as last written by this optimizer, valid while the variable still holds that data. */
interface MasterCopy {
  dataId: object;
  values: Float32Array;
}

export class JsAdam {
  readonly config: OptimizerConfig;
  private iter = 0;
  private accBeta1: number;
  private accBeta2: number;
  private firstMoments: Float32Array[] = [];
  private secondMoments: Float32Array[] = [];
  private readonly masters = new WeakMap<tf.Variable, MasterCopy>();

  constructor(config: OptimizerConfigInput = { kind: 'adam' }) {
    this.config = OptimizerConfigSchema.parse(structuredClone(config));
    // tfjs starts the running products at β (not 1) and multiplies after each step.
    this.accBeta1 = f32(this.config.beta1);
    this.accBeta2 = f32(this.config.beta2);
  }

  get iterations(): number {
    return this.iter;
  }

  /**
   * One Adam step: grads[i] (a Float32Array or tensor of the variable's size, or null to skip it, as
   * tfjs does for a variable without gradient) updates vars[i]. The moments belong to positions, so
   * always pass the same variables in the same order (trainableVariables(model) does).
   */
  applyGradients(vars: readonly tf.Variable[], grads: readonly (Float32Array | tf.Tensor | null)[]): void {
    if (vars.length !== grads.length) throw new Error(`${vars.length} variables but ${grads.length} gradients`);
    const { beta1, beta2, epsilon, learningRate } = this.config;
    const b1 = f32(beta1);
    const b2 = f32(beta2);
    const oneMinusB1 = f32(1 - beta1);
    const oneMinusB2 = f32(1 - beta2);
    const eps = f32(epsilon);
    const negLr = f32(-learningRate);
    const corr1 = f32(1 - this.accBeta1);
    const corr2 = f32(1 - this.accBeta2);
    vars.forEach((variable, i) => {
      const given = grads[i];
      if (given === null) return;
      if (variable.dtype !== 'float32') throw new Error(`variable ${variable.name} is ${variable.dtype}, not float32`);
      const g = given instanceof Float32Array ? given : (given.dataSync() as Float32Array);
      const w = this.master(variable);
      if (g.length !== w.length) throw new Error(`gradient of ${variable.name} has ${g.length} numbers, the variable ${w.length}`);
      const m = (this.firstMoments[i] ??= new Float32Array(w.length));
      const v = (this.secondMoments[i] ??= new Float32Array(w.length));
      if (m.length !== w.length) throw new Error(`optimizer state at position ${i} has ${m.length} numbers, ${variable.name} ${w.length}`);
      for (let j = 0; j < w.length; j++) {
        const gj = g[j];
        const mj = f32(f32(m[j] * b1) + f32(gj * oneMinusB1));
        const vj = f32(f32(v[j] * b2) + f32(f32(gj * gj) * oneMinusB2));
        m[j] = mj;
        v[j] = vj;
        const mHat = f32(mj / corr1);
        const vHat = f32(vj / corr2);
        w[j] = f32(f32(f32(mHat / f32(f32(Math.sqrt(vHat)) + eps)) * negLr) + w[j]);
      }
      this.write(variable, w);
    });
    this.accBeta1 = f32(this.accBeta1 * b1);
    this.accBeta2 = f32(this.accBeta2 * b2);
    this.iter++;
  }

  /**
   * Computes the gradients of loss() over vars with tf.variableGrads, reads them once (outside any
   * tidy: reading inside one is several times slower on wasm), and applies them. Returns the loss
   * tensor for the caller to read and dispose.
   */
  minimize(loss: () => tf.Scalar, vars: readonly tf.Variable[]): tf.Scalar {
    const { value, grads } = tf.variableGrads(loss, [...vars]);
    try {
      this.applyGradients(vars, vars.map((v) => grads[v.name] ?? null));
    } finally {
      tf.dispose(Object.values(grads));
    }
    return value;
  }

  /** A copy of the state. */
  getState(): AdamState {
    return {
      iterations: this.iter,
      accBeta1: this.accBeta1,
      accBeta2: this.accBeta2,
      firstMoments: this.firstMoments.map((m) => m.slice()),
      secondMoments: this.secondMoments.map((v) => v.slice()),
    };
  }

  /** Replaces the state with a copy of the given one. */
  setState(state: AdamState): void {
    if (state.firstMoments.length !== state.secondMoments.length) throw new Error('first and second moments differ in count');
    state.firstMoments.forEach((m, i) => {
      if (m.length !== state.secondMoments[i].length) throw new Error(`moments at position ${i} differ in size`);
    });
    this.iter = state.iterations;
    this.accBeta1 = f32(state.accBeta1);
    this.accBeta2 = f32(state.accBeta2);
    this.firstMoments = state.firstMoments.map((m) => m.slice());
    this.secondMoments = state.secondMoments.map((v) => v.slice());
  }

  /** The variable's current values, from the copy this optimizer last wrote unless something else assigned it since. */
  private master(variable: tf.Variable): Float32Array {
    const known = this.masters.get(variable);
    if (known !== undefined && known.dataId === variable.dataId) return known.values;
    // dataSync may return the backend's own storage (the CPU backend does): copy before writing into it.
    return new Float32Array(variable.dataSync() as Float32Array);
  }

  private write(variable: tf.Variable, values: Float32Array): void {
    // The wasm backend copies into its heap on upload; backends that keep the array itself get a copy,
    // so the next step's in-place update cannot change a tensor someone else may hold.
    const upload = tf.getBackend() === 'wasm' ? values : values.slice();
    // Writing into the variable's wasm buffer in place would be cheaper, but XNNPACK caches packed
    // weights by tensor id (batch_mat_mul_impl.cc), so a matmul would keep using the old values.
    const fresh = tf.tensor(upload, variable.shape, 'float32');
    variable.assign(fresh);
    fresh.dispose();
    this.masters.set(variable, { dataId: variable.dataId, values });
  }
}
