// Whole-batch inference. model.predict would cut batches into chunks of 32, and reading tensor data
// inside tf.tidy is several times slower on wasm, so outputs leave the tidy as tensors and are read after.
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { ILLEGAL_PENALTY, LOGIT_LIMIT } from './maskedSoftmax.js';
import type { Network, PolicyValueConfig } from './networks.js';

export interface PolicyValueOutput {
  /** Row-major [rows, actionCount]; zero at illegal actions. */
  probabilities: Float32Array;
  /** One value per row. */
  values: Float32Array;
  rows: number;
}

function rowsOf(data: ArrayLike<number>, width: number, what: string): number {
  if (data.length === 0 || data.length % width !== 0)
    throw new Error(`${what} has ${data.length} numbers, not a positive multiple of ${width}`);
  return data.length / width;
}

/** Runs tensors out of a tidy, reads them, and disposes of them. */
function readAll(run: () => tf.Tensor[]): Float32Array[] {
  return readOut(tf.tidy(run));
}

/** Reads tensors and disposes of them. */
function readOut(outputs: tf.Tensor[]): Float32Array[] {
  try {
    return outputs.map((t) => t.dataSync() as Float32Array);
  } finally {
    tf.dispose(outputs);
  }
}

/** Logits and value for a batch of observations, without the softmax: the bare forward pass, read back (without the action-scoring term). */
export function evaluateLogitsValue(
  net: Network<PolicyValueConfig>,
  observations: Float32Array,
): { logits: Float32Array; values: Float32Array; rows: number } {
  const rows = rowsOf(observations, net.config.observationSize, 'observations');
  const [logits, values] = readAll(() => net.model.apply(tf.tensor2d(observations, [rows, net.config.observationSize])) as tf.Tensor[]);
  return { logits, values, rows };
}

/**
 * Per-action features for a network with an action-scoring head (config.actionFeatures = K):
 * `[rows, actionCount, K]` row-major, read at legal entries only (the others may hold anything).
 */
export type ActionFeatureRows = Float32Array;

function checkActionFeatures(net: Network<PolicyValueConfig>, rows: number, features: ActionFeatureRows | undefined): void {
  const { actionFeatures, actionCount } = net.config;
  if (actionFeatures === 0) return;
  if (features === undefined) throw new Error(`the network scores actions from ${actionFeatures} features each: give them`);
  if (features.length !== rows * actionCount * actionFeatures)
    throw new Error(`action features have ${features.length} numbers, expected ${rows} × ${actionCount} × ${actionFeatures}`);
}

/** Adds gate[r] · features[r, a] to target[r, a] at every legal entry: the action-scoring term of the logits. */
function addActionTerms(
  target: Float32Array,
  legalMask: ArrayLike<number>,
  rows: number,
  actionCount: number,
  gate: Float32Array,
  features: ActionFeatureRows,
): void {
  const width = gate.length / rows;
  for (let r = 0; r < rows; r++) {
    const g = r * width;
    for (let i = r * actionCount, end = i + actionCount; i < end; i++) {
      if (!(legalMask[i] > 0)) continue;
      let term = 0;
      for (let k = 0, f = i * width; k < width; k++, f++) term += gate[g + k] * features[f];
      target[i] += term;
    }
  }
}

/** Writes fill into target at every illegal entry of legalMask ([rows, actionCount], > 0 = legal); returns the rows without a legal action. */
function scanMask(legalMask: ArrayLike<number>, rows: number, actionCount: number, target: Float32Array, fill: number): number[] {
  const emptyRows: number[] = [];
  for (let r = 0; r < rows; r++) {
    let any = false;
    for (let i = r * actionCount, end = i + actionCount; i < end; i++) {
      if (legalMask[i] > 0) any = true;
      else target[i] = fill;
    }
    if (!any) emptyRows.push(r);
  }
  return emptyRows;
}

function checkPolicyInputs(net: Network<PolicyValueConfig>, observations: Float32Array, legalMask: ArrayLike<number>): number {
  const { observationSize, actionCount } = net.config;
  const rows = rowsOf(observations, observationSize, 'observations');
  if (legalMask.length !== rows * actionCount)
    throw new Error(`legalMask has ${legalMask.length} entries, expected ${rows} × ${actionCount}`);
  return rows;
}

function finishPolicy(
  probabilities: Float32Array,
  values: Float32Array,
  rows: number,
  actionCount: number,
  emptyRows: number[],
): PolicyValueOutput {
  for (const r of emptyRows) probabilities.fill(0, r * actionCount, (r + 1) * actionCount);
  return { probabilities, values, rows };
}

/** The wasm backend when it is the active one, else null. */
function activeWasmBackend(): BackendWasm | null {
  return tf.getBackend() === 'wasm' ? (tf.backend() as unknown as BackendWasm) : null;
}

/**
 * Policy and value for a batch of observations; legalMask is [rows, actionCount], > 0 = legal.
 *
 * On wasm the mask never reaches the backend: one JS pass over it writes −Infinity into the logits'
 * own buffer in the wasm heap at every illegal entry (and finds rows without a legal action), then the
 * Softmax kernel (XNNPACK) runs on them. No penalty array is built or uploaded, and no clip or add runs.
 * For finite logits a row with a legal action has a finite max, exp(−∞ − max) is exactly 0 and
 * exp(x − max) never NaN, so illegal actions get 0, a lone legal action 1. Non-finite logits make the
 * whole row NaN (the kernel scales every entry by 1/Σ), which the first entry of each row shows; then
 * the batch is redone by evaluatePolicyValueWithPenalty, whose clip keeps it finite. Rows without a
 * legal action are zeroed after read-back.
 *
 * On other backends, or if the logits' buffer is shared, this is evaluatePolicyValueWithPenalty.
 */
export function evaluatePolicyValue(
  net: Network<PolicyValueConfig>,
  observations: Float32Array,
  legalMask: ArrayLike<number>,
  actionFeatures?: ActionFeatureRows,
): PolicyValueOutput {
  const backend = activeWasmBackend();
  if (backend === null) return evaluatePolicyValueWithPenalty(net, observations, legalMask, actionFeatures);
  const { observationSize, actionCount } = net.config;
  const rows = checkPolicyInputs(net, observations, legalMask);
  checkActionFeatures(net, rows, actionFeatures);
  let emptyRows: number[] | null = null;
  const outputs = tf.tidy(() => {
    const x = tf.tensor2d(observations, [rows, observationSize]);
    const [logits, value, gate] = net.model.apply(x) as tf.Tensor[];
    // Only a buffer nothing else refers to (a fresh kernel output) may be written in place.
    if (logits.dtype !== 'float32' || backend.refCount(logits.dataId) !== 1) return [];
    const gateValues = gate === undefined ? null : (gate.dataSync() as Float32Array);
    // The view is taken just before the loops: a wasm allocation can grow the heap and detach it.
    const heap = backend.typedArrayFromHeap(logits) as Float32Array;
    if (gateValues !== null && actionFeatures !== undefined) addActionTerms(heap, legalMask, rows, actionCount, gateValues, actionFeatures);
    emptyRows = scanMask(legalMask, rows, actionCount, heap, -Infinity);
    return [tf.softmax(logits), value];
  });
  if (emptyRows === null) return evaluatePolicyValueWithPenalty(net, observations, legalMask, actionFeatures);
  const [probabilities, values] = readOut(outputs);
  const empty: number[] = emptyRows;
  for (let r = 0, e = 0; r < rows; r++) {
    if (e < empty.length && empty[e] === r) e++;
    else if (Number.isNaN(probabilities[r * actionCount]))
      return evaluatePolicyValueWithPenalty(net, observations, legalMask, actionFeatures);
  }
  return finishPolicy(probabilities, values, rows, actionCount, empty);
}

/**
 * evaluatePolicyValue on any backend, and the reference for its wasm path: the mask becomes an additive
 * float32 penalty built in JS (the same pass finds rows without a legal action) and uploaded, then clip,
 * add and the Softmax kernel on the backend. Logits are clipped to ±LOGIT_LIMIT, so nothing is NaN even
 * for infinite logits; illegal entries lie ≥ 2e30 below the row's max and come out exactly 0.
 */
export function evaluatePolicyValueWithPenalty(
  net: Network<PolicyValueConfig>,
  observations: Float32Array,
  legalMask: ArrayLike<number>,
  actionFeatures?: ActionFeatureRows,
): PolicyValueOutput {
  const { observationSize, actionCount } = net.config;
  const rows = checkPolicyInputs(net, observations, legalMask);
  checkActionFeatures(net, rows, actionFeatures);
  const penalty = new Float32Array(rows * actionCount);
  const emptyRows = scanMask(legalMask, rows, actionCount, penalty, -ILLEGAL_PENALTY);
  const [probabilities, values] = readAll(() => {
    const x = tf.tensor2d(observations, [rows, observationSize]);
    const [logits, value, gate] = net.model.apply(x) as tf.Tensor[];
    // The action-scoring term rides on the penalty (0 at legal entries): added after the clip.
    if (gate !== undefined && actionFeatures !== undefined)
      addActionTerms(penalty, legalMask, rows, actionCount, gate.dataSync() as Float32Array, actionFeatures);
    // A row with a legal action has its max at a legal entry, and every illegal entry lies ≥ 2e30
    // below it, so the softmax gives those exactly 0.
    const penalised = tf.add(tf.clipByValue(logits, -LOGIT_LIMIT, LOGIT_LIMIT), tf.tensor2d(penalty, [rows, actionCount]));
    return [tf.softmax(penalised), value];
  });
  return finishPolicy(probabilities, values, rows, actionCount, emptyRows);
}
