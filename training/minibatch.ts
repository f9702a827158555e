/** Rows of a trajectory batch gathered into the tensors of one gradient step (both algorithms use it). */
import * as tf from '@tensorflow/tfjs';
import { ACTION_CONTEXT_SIZE, readsAdviser, writeActionFeatures } from '../env/gym/actionFeatures.js';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import type { TrajectoryBatch } from './rollout.js';

/** Reusable host buffers for minibatches of up to `size` rows. */
export class MinibatchBuffers {
  readonly observations: Float32Array;
  readonly masks: Float32Array;
  readonly legalAnywhere = new Uint8Array(ACTION_COUNT);
  constructor(readonly size: number) {
    this.observations = new Float32Array(size * OBSERVATION_SIZE);
    this.masks = new Float32Array(size * ACTION_COUNT);
  }
}

/** What a training step reads of a minibatch, as tensors (the caller disposes them). */
export interface MinibatchTensors {
  /** [n, OBSERVATION_SIZE]. */
  observations: tf.Tensor2D;
  /** [n, columns]: 1 where the row's action at that column is legal. */
  legalMask: tf.Tensor2D;
  /** int32 action ids legal in some row of the minibatch, ascending: the only logits the step computes (see policyValueForward). */
  columns: tf.Tensor1D;
  /** [n, columns, K]: the features of each row's legal actions (0 elsewhere), when the network scores actions (K > 0). */
  actionFeatures?: tf.Tensor3D;
}

export interface MinibatchInputs {
  tensors: MinibatchTensors;
  /** Action id → its column, −1 for actions legal nowhere in the minibatch. */
  position: Int16Array;
  width: number;
}

/** The features of the minibatch's legal actions at their columns, [n, width, K], from the rows' action contexts. */
function gatherActionFeatures(
  batch: TrajectoryBatch,
  indices: Int32Array,
  from: number,
  to: number,
  columns: readonly number[],
  features: number,
): tf.Tensor3D {
  const n = to - from;
  const width = columns.length;
  const out = new Float32Array(n * width * features);
  const adviser = readsAdviser(features);
  for (let k = 0; k < n; k++) {
    const row = indices[from + k];
    const at = row * ACTION_COUNT;
    const adviserAction = adviser ? batch.adviserActions[row] : undefined;
    for (let c = 0; c < width; c++) {
      if (batch.masks[at + columns[c]])
        writeActionFeatures(batch.actionContexts, row * ACTION_CONTEXT_SIZE, columns[c], out, (k * width + c) * features, adviserAction);
    }
  }
  return tf.tensor3d(out, [n, width, features]);
}

/**
 * The observations of the rows `indices[from..to)` and their legal masks over the union of their
 * legal actions (a minibatch of 512 decisions has about 86 of the 1409 legal somewhere), and with
 * `actionFeatures` = K > 0 (a network that scores actions) their actions' features.
 */
export function gatherInputs(
  batch: TrajectoryBatch,
  indices: Int32Array,
  from: number,
  to: number,
  buffers: MinibatchBuffers,
  actionFeatures = 0,
): MinibatchInputs {
  const n = to - from;
  const anywhere = buffers.legalAnywhere.fill(0);
  for (let k = 0; k < n; k++) {
    const row = indices[from + k];
    buffers.observations.set(batch.observations.subarray(row * OBSERVATION_SIZE, (row + 1) * OBSERVATION_SIZE), k * OBSERVATION_SIZE);
    const mask = batch.masks.subarray(row * ACTION_COUNT, (row + 1) * ACTION_COUNT);
    for (let a = 0; a < ACTION_COUNT; a++) anywhere[a] |= mask[a];
  }
  // tf.oneHot (the steps' chosen-action mask) needs a depth of 2 at least: a minibatch whose rows
  // all have the same single legal action (a short last minibatch of forced moves) gets a second
  // column, legal in no row.
  if (anywhere.reduce((n, legal) => n + legal, 0) === 1) anywhere[anywhere[0] ? 1 : 0] = 2;
  const position = new Int16Array(ACTION_COUNT).fill(-1);
  const columns: number[] = [];
  for (let a = 0; a < ACTION_COUNT; a++) {
    if (anywhere[a]) {
      position[a] = columns.length;
      columns.push(a);
    }
  }
  const width = columns.length;
  for (let k = 0; k < n; k++) {
    const at = indices[from + k] * ACTION_COUNT;
    for (let c = 0; c < width; c++) buffers.masks[k * width + c] = batch.masks[at + columns[c]];
  }
  const tensors: MinibatchTensors = {
    observations: tf.tensor2d(buffers.observations.subarray(0, n * OBSERVATION_SIZE), [n, OBSERVATION_SIZE]),
    legalMask: tf.tensor2d(buffers.masks.subarray(0, n * width), [n, width]),
    columns: tf.tensor1d(columns, 'int32'),
  };
  if (actionFeatures > 0) tensors.actionFeatures = gatherActionFeatures(batch, indices, from, to, columns, actionFeatures);
  return { tensors, position, width };
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
