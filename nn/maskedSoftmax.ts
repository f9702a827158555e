// Softmax restricted to legal actions. Illegal actions get exactly zero probability; nothing is NaN for
// any finite logits (clipped to ±LOGIT_LIMIT) however few actions are legal. A row with no legal
// action gives all zeros. Written with few elementwise ops, and the exponentials go through the
// Softmax kernel: on wasm that is XNNPACK's vectorised softmax, while the Exp kernel is a scalar loop
// about 6× slower than the whole softmax (1024×512: masked softmax from 10 ms down to about 2 ms).
import * as tf from '@tensorflow/tfjs';

/** Logits are clipped to this magnitude, so that differences of two logits stay finite in float32. */
export const LOGIT_LIMIT = 1e30;
/** Pushes every illegal logit below every clipped legal one, so a row's max is a legal logit when there is one; exp of the difference is exactly 0. */
export const ILLEGAL_PENALTY = 4 * LOGIT_LIMIT;

function checkShapes(logits: tf.Tensor, mask: tf.Tensor): void {
  if (logits.shape.join() !== mask.shape.join()) {
    throw new Error(`mask shape [${mask.shape.join(', ')}] differs from logits shape [${logits.shape.join(', ')}]`);
  }
}

/** 1 for legal (mask > 0), 0 for illegal, as float32. */
function legalOnes(mask: tf.Tensor): tf.Tensor {
  return mask.dtype === 'float32' ? tf.step(mask) : tf.cast(tf.greater(mask, 0), 'float32');
}

/** Clipped logits with ILLEGAL_PENALTY subtracted at illegal actions. */
function penalise(logits: tf.Tensor, legal: tf.Tensor): tf.Tensor {
  return tf.add(tf.clipByValue(logits, -LOGIT_LIMIT, LOGIT_LIMIT), tf.mul(tf.sub(legal, 1), ILLEGAL_PENALTY));
}

/** Probabilities over the last axis; mask is bool or numeric (> 0 means legal), same shape as logits. */
export function maskedSoftmax<T extends tf.Tensor>(logits: T, mask: tf.Tensor): T {
  checkShapes(logits, mask);
  return tf.tidy(() => {
    const legal = legalOnes(mask);
    // Illegal entries come out of the softmax as exactly 0 whenever the row has a legal action; the
    // product zeroes rows without one (which the softmax spreads uniformly).
    return tf.mul<T>(tf.softmax(penalise(logits, legal)), legal);
  });
}

/** Log-probabilities over the last axis, with 0 (not -inf) at illegal actions so that products with zero targets stay 0. */
export function maskedLogSoftmax<T extends tf.Tensor>(logits: T, mask: tf.Tensor): T {
  checkShapes(logits, mask);
  return tf.tidy(() => {
    const legal = legalOnes(mask);
    const penalised = penalise(logits, legal);
    const shifted = tf.sub(penalised, tf.max(penalised, -1, true));
    // The row's largest legal entry contributes exp(0) = 1, so the sum is ≥ 1 unless no action is legal.
    const sums = tf.maximum(tf.sum(tf.mul(tf.exp(shifted), legal), -1, true), 1);
    return tf.mul<T>(tf.sub(shifted, tf.log(sums)), legal);
  });
}

/**
 * The masked softmax cross-entropy, mean over rows of −Σ target·log p, and its gradient with respect
 * to the logits, (p·Σtarget − target)/rows, both from one softmax. Targets at illegal actions are ignored.
 */
export function maskedSoftmaxCrossEntropyAndGradient(
  logits: tf.Tensor2D,
  mask: tf.Tensor2D,
  targets: tf.Tensor2D,
): { loss: tf.Scalar; gradient: tf.Tensor2D } {
  checkShapes(logits, mask);
  checkShapes(logits, targets);
  const rows = logits.shape[0];
  return tf.tidy(() => {
    const legal = legalOnes(mask);
    const penalised = penalise(logits, legal);
    const probs = tf.softmax(penalised);
    const legalTargets = tf.mul(targets, legal);
    const targetSums = tf.sum(legalTargets, -1, true);
    // log p = (x − max x) − log Σexp(x − max x), and the row's largest entry has p = 1/Σexp(x − max x).
    // Shifting first keeps log p exact next to huge logits (adding log Σ to max x ≈ 1e30 would lose it);
    // illegal entries are finite (about −4e30) and meet t = 0.
    const shifted = tf.sub(penalised, tf.max(penalised, -1, true));
    const logLikelihood = tf.add(tf.sum(tf.mul(legalTargets, shifted)), tf.sum(tf.mul(tf.log(tf.max(probs, -1, true)), targetSums)));
    const loss = tf.mul<tf.Scalar>(logLikelihood, -1 / rows);
    // Rows without a legal action have Σt = 0 and t = 0, so their gradient is 0 whatever the softmax gave.
    const gradient = tf.mul<tf.Tensor2D>(tf.sub(tf.mul(probs, targetSums), legalTargets), 1 / rows);
    return { loss, gradient };
  });
}

/**
 * Mean over rows of −Σ target·log p with p the masked softmax of logits [rows, actions]; targets at
 * illegal actions are ignored. Its gradient, (p·Σtarget − target)/rows, is written out by hand: autodiff
 * through the masked log-softmax costs about as many elementwise passes again.
 */
export function maskedSoftmaxCrossEntropy(logits: tf.Tensor2D, mask: tf.Tensor2D, targets: tf.Tensor2D): tf.Scalar {
  const loss = tf.customGrad((x, save) => {
    const { loss: value, gradient } = maskedSoftmaxCrossEntropyAndGradient(x as tf.Tensor2D, mask, targets);
    (save as tf.GradSaveFunc)([gradient]);
    return { value, gradFunc: (dy, saved) => tf.mul(saved[0], dy) };
  });
  return loss(logits) as tf.Scalar;
}
