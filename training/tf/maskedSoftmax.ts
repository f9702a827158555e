// Softmax restricted to legal actions. Illegal actions get exactly zero probability; nothing is NaN for
// any finite logits (clipped to ±LOGIT_LIMIT) however few actions are legal. A row with no legal
// action gives all zeros. Written with few elementwise ops: on wasm each costs a pass over the batch.
import * as tf from '@tensorflow/tfjs';

/** Logits are clipped to this magnitude, so that differences of two logits stay finite in float32. */
export const LOGIT_LIMIT = 1e30;
/** Pushes every illegal logit below every clipped legal one, so a row's max is a legal logit when there is one. */
const ILLEGAL_PENALTY = 4 * LOGIT_LIMIT;

function checkShapes(logits: tf.Tensor, mask: tf.Tensor): void {
  if (logits.shape.join() !== mask.shape.join()) {
    throw new Error(`mask shape [${mask.shape.join(', ')}] differs from logits shape [${logits.shape.join(', ')}]`);
  }
}

/** 1 for legal (mask > 0), 0 for illegal, as float32. */
function legalOnes(mask: tf.Tensor): tf.Tensor {
  return mask.dtype === 'float32' ? tf.step(mask) : tf.cast(tf.greater(mask, 0), 'float32');
}

function shiftedExps(logits: tf.Tensor, legal: tf.Tensor): { shifted: tf.Tensor; exps: tf.Tensor; sums: tf.Tensor } {
  const penalised = tf.add(tf.clipByValue(logits, -LOGIT_LIMIT, LOGIT_LIMIT), tf.mul(tf.sub(legal, 1), ILLEGAL_PENALTY));
  const shifted = tf.sub(penalised, tf.max(penalised, -1, true));
  // Every shifted entry is ≤ 0, so no exp overflows, and zeroing illegal entries by product passes no NaN to gradients.
  const exps = tf.mul(tf.exp(shifted), legal);
  // The row's largest legal entry contributes exp(0) = 1, so the sum is ≥ 1 unless no action is legal.
  const sums = tf.maximum(tf.sum(exps, -1, true), 1);
  return { shifted, exps, sums };
}

/** Probabilities over the last axis; mask is bool or numeric (> 0 means legal), same shape as logits. */
export function maskedSoftmax<T extends tf.Tensor>(logits: T, mask: tf.Tensor): T {
  checkShapes(logits, mask);
  return tf.tidy(() => {
    const { exps, sums } = shiftedExps(logits, legalOnes(mask));
    return tf.div(exps, sums) as T;
  });
}

/** Log-probabilities over the last axis, with 0 (not -inf) at illegal actions so that products with zero targets stay 0. */
export function maskedLogSoftmax<T extends tf.Tensor>(logits: T, mask: tf.Tensor): T {
  checkShapes(logits, mask);
  return tf.tidy(() => {
    const legal = legalOnes(mask);
    const { shifted, sums } = shiftedExps(logits, legal);
    return tf.mul(tf.sub(shifted, tf.log(sums)), legal) as T;
  });
}

/**
 * Mean over rows of −Σ target·log p with p the masked softmax of logits [rows, actions]; targets at
 * illegal actions are ignored. Its gradient, (p·Σtarget − target)/rows, is written out by hand: autodiff
 * through the masked log-softmax costs about as many elementwise passes again.
 */
export function maskedSoftmaxCrossEntropy(logits: tf.Tensor2D, mask: tf.Tensor2D, targets: tf.Tensor2D): tf.Scalar {
  checkShapes(logits, mask);
  checkShapes(logits, targets);
  const rows = logits.shape[0];
  const loss = tf.customGrad((x, save) => {
    const legal = legalOnes(mask);
    const { shifted, exps, sums } = shiftedExps(x as tf.Tensor, legal);
    const legalTargets = tf.mul(targets, legal);
    const logProbs = tf.sub(shifted, tf.log(sums));
    const value = tf.div(tf.neg(tf.sum(tf.mul(legalTargets, logProbs))), rows) as tf.Scalar;
    (save as tf.GradSaveFunc)([tf.div(exps, sums), legalTargets]);
    return {
      value,
      gradFunc: (dy, saved) => {
        const [probs, t] = saved;
        return tf.mul(tf.sub(tf.mul(probs, tf.sum(t, -1, true)), t), tf.div(dy, rows));
      },
    };
  });
  return loss(logits) as tf.Scalar;
}
