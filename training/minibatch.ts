/** Rows of a trajectory batch gathered into the tensors of one gradient step (both algorithms use it). */
import * as tf from '@tensorflow/tfjs';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import type { TrajectoryBatch } from './rollout.js';

/** Reusable host buffers for minibatches of up to `size` rows. */
export class MinibatchBuffers {
  readonly observations: Float32Array;
  readonly masks: Float32Array;
  constructor(readonly size: number) {
    this.observations = new Float32Array(size * OBSERVATION_SIZE);
    this.masks = new Float32Array(size * ACTION_COUNT);
  }
}

/** Observations [n, OBSERVATION_SIZE] and float legal masks [n, ACTION_COUNT] of the rows `indices[from..to)`. */
export function gatherInputs(batch: TrajectoryBatch, indices: Int32Array, from: number, to: number, buffers: MinibatchBuffers): { observations: tf.Tensor2D; legalMask: tf.Tensor2D } {
  const n = to - from;
  for (let k = 0; k < n; k++) {
    const row = indices[from + k];
    buffers.observations.set(batch.observations.subarray(row * OBSERVATION_SIZE, (row + 1) * OBSERVATION_SIZE), k * OBSERVATION_SIZE);
    const mask = batch.masks.subarray(row * ACTION_COUNT, (row + 1) * ACTION_COUNT);
    const out = k * ACTION_COUNT;
    for (let a = 0; a < ACTION_COUNT; a++) buffers.masks[out + a] = mask[a];
  }
  return {
    observations: tf.tensor2d(buffers.observations.subarray(0, n * OBSERVATION_SIZE), [n, OBSERVATION_SIZE]),
    legalMask: tf.tensor2d(buffers.masks.subarray(0, n * ACTION_COUNT), [n, ACTION_COUNT]),
  };
}

/** Values of `source` at the rows `indices[from..to)`. */
export function gatherValues(source: ArrayLike<number>, indices: Int32Array, from: number, to: number): Float32Array {
  const out = new Float32Array(to - from);
  for (let k = from; k < to; k++) out[k - from] = source[indices[k]];
  return out;
}

/** A permutation of 0..n−1 drawn with `random` (uniform in [0, 1)). */
export function shuffledIndices(n: number, random: () => number): Int32Array {
  const indices = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = indices[i];
    indices[i] = indices[j];
    indices[j] = t;
  }
  return indices;
}
