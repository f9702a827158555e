// Whole-batch inference. model.predict would cut batches into chunks of 32, and reading tensor data
// inside tf.tidy is several times slower on wasm, so outputs leave the tidy as tensors and are read after.
import * as tf from '@tensorflow/tfjs';
import { ILLEGAL_PENALTY, LOGIT_LIMIT } from './maskedSoftmax.js';
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

/** Logits and value for a batch of observations, without the softmax: the bare forward pass, read back. */
export function evaluateLogitsValue(net: Network<PolicyValueConfig>, observations: Float32Array): { logits: Float32Array; values: Float32Array; rows: number } {
  const rows = rowsOf(observations, net.config.observationSize, 'observations');
  const [logits, values] = readAll(() => net.model.apply(tf.tensor2d(observations, [rows, net.config.observationSize])) as tf.Tensor[]);
  return { logits, values, rows };
}

/**
 * Policy and value for a batch of observations; legalMask is [rows, actionCount], > 0 = legal.
 * The same masked softmax as maskedSoftmax, with the mask turned into an additive penalty here in JS
 * (one pass, which also finds rows without a legal action) so the backend runs only clip, add and its
 * Softmax kernel (XNNPACK on wasm).
 */
export function evaluatePolicyValue(net: Network<PolicyValueConfig>, observations: Float32Array, legalMask: ArrayLike<number>): PolicyValueOutput {
  const { observationSize, actionCount } = net.config;
  const rows = rowsOf(observations, observationSize, 'observations');
  if (legalMask.length !== rows * actionCount) throw new Error(`legalMask has ${legalMask.length} entries, expected ${rows} × ${actionCount}`);
  const penalty = new Float32Array(rows * actionCount);
  const emptyRows: number[] = [];
  for (let r = 0; r < rows; r++) {
    let any = false;
    for (let i = r * actionCount, end = i + actionCount; i < end; i++) {
      if (legalMask[i] > 0) any = true;
      else penalty[i] = -ILLEGAL_PENALTY;
    }
    if (!any) emptyRows.push(r);
  }
  const [probabilities, values] = readAll(() => {
    const x = tf.tensor2d(observations, [rows, observationSize]);
    const [logits, value] = net.model.apply(x) as tf.Tensor[];
    // A row with a legal action has its max at a legal entry, and every illegal entry lies ≥ 2e30
    // below it, so the softmax gives those exactly 0.
    const penalised = tf.add(tf.clipByValue(logits, -LOGIT_LIMIT, LOGIT_LIMIT), tf.tensor2d(penalty, [rows, actionCount]));
    return [tf.softmax(penalised), value];
  });
  for (const r of emptyRows) probabilities.fill(0, r * actionCount, (r + 1) * actionCount);
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
