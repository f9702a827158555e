// Whole-batch inference. model.predict would cut batches into chunks of 32, and reading tensor data
// inside tf.tidy is several times slower on wasm, so outputs leave the tidy as tensors and are read after.
import * as tf from '@tensorflow/tfjs';
import { maskedSoftmax } from './maskedSoftmax.js';
import type { ActionScoringConfig, Network, PolicyValueConfig } from './networks.js';

export interface PolicyValueOutput {
  /** Row-major [rows, actionCount]; zero at illegal actions. */
  probabilities: Float32Array;
  /** One value per row. */
  values: Float32Array;
  rows: number;
}

export interface ActionScoresOutput {
  /** One score per (observation, action) row. */
  scores: Float32Array;
  /** One value per row, from the observation alone. */
  values: Float32Array;
  rows: number;
}

function rowsOf(data: ArrayLike<number>, width: number, what: string): number {
  if (data.length === 0 || data.length % width !== 0) throw new Error(`${what} has ${data.length} numbers, not a positive multiple of ${width}`);
  return data.length / width;
}

/** Runs tensors out of a tidy, reads them, and disposes of them. */
function readAll(run: () => tf.Tensor[]): Float32Array[] {
  const outputs = tf.tidy(run);
  try {
    return outputs.map((t) => t.dataSync() as Float32Array);
  } finally {
    tf.dispose(outputs);
  }
}

/** Policy and value for a batch of observations; legalMask is [rows, actionCount], nonzero = legal. */
export function evaluatePolicyValue(net: Network<PolicyValueConfig>, observations: Float32Array, legalMask: ArrayLike<number>): PolicyValueOutput {
  const { observationSize, actionCount } = net.config;
  const rows = rowsOf(observations, observationSize, 'observations');
  if (legalMask.length !== rows * actionCount) throw new Error(`legalMask has ${legalMask.length} entries, expected ${rows} × ${actionCount}`);
  const [probabilities, values] = readAll(() => {
    const x = tf.tensor2d(observations, [rows, observationSize]);
    const mask = tf.tensor2d(Float32Array.from(legalMask), [rows, actionCount]);
    const [logits, value] = net.model.apply(x) as tf.Tensor[];
    return [maskedSoftmax(logits, mask), value];
  });
  return { probabilities, values, rows };
}

/** Scores (observation, action) pairs given row by row: observations [rows, observationSize], actionFeatures [rows, actionFeatureSize]. */
export function scoreActions(net: Network<ActionScoringConfig>, observations: Float32Array, actionFeatures: Float32Array): ActionScoresOutput {
  const { observationSize, actionFeatureSize } = net.config;
  const rows = rowsOf(observations, observationSize, 'observations');
  if (rowsOf(actionFeatures, actionFeatureSize, 'actionFeatures') !== rows) throw new Error(`actionFeatures has ${actionFeatures.length / actionFeatureSize} rows, observations ${rows}`);
  const [scores, values] = readAll(() => {
    const x = tf.tensor2d(observations, [rows, observationSize]);
    const a = tf.tensor2d(actionFeatures, [rows, actionFeatureSize]);
    return net.model.apply([x, a]) as tf.Tensor[];
  });
  return { scores, values, rows };
}

/** Scores every candidate action of one decision in one batch: candidates is [count, actionFeatureSize]. */
export function scoreCandidates(net: Network<ActionScoringConfig>, observation: Float32Array, candidates: Float32Array): ActionScoresOutput {
  const { observationSize } = net.config;
  if (observation.length !== observationSize) throw new Error(`observation has ${observation.length} numbers, expected ${observationSize}`);
  const count = rowsOf(candidates, net.config.actionFeatureSize, 'candidates');
  const tiled = new Float32Array(count * observationSize);
  for (let i = 0; i < count; i++) tiled.set(observation, i * observationSize);
  return scoreActions(net, tiled, candidates);
}
