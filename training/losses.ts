// One optimisation step and the standard losses of the two network kinds.
import * as tf from '@tensorflow/tfjs';
import { maskedLogSoftmax, maskedSoftmax, maskedSoftmaxCrossEntropy } from '../nn/maskedSoftmax.js';
import { FastAdam } from './fastAdam.js';
import { trainableVariables, type Network, type PolicyValueConfig } from '../nn/networks.js';

/**
 * Minimises loss() over the model's trainable variables and returns the loss as a tensor, for the
 * caller to read (outside any tidy) and dispose. The explicit variable list keeps optimizer state in
 * layer order, which is what lets checkpoints restore it.
 */
export function trainStep(optimizer: tf.Optimizer | FastAdam, model: tf.LayersModel, loss: () => tf.Scalar): tf.Scalar {
  if (optimizer instanceof FastAdam) return optimizer.minimize(loss, trainableVariables(model));
  const value = optimizer.minimize(loss, true, trainableVariables(model));
  if (value === null) throw new Error('optimizer returned no loss');
  return value;
}

export interface PolicyValueBatch {
  observations: tf.Tensor2D;
  /** [rows, actionCount], nonzero = legal. */
  legalMask: tf.Tensor2D;
  /** [rows, actionCount] target distribution over legal actions. */
  targetPolicy: tf.Tensor2D;
  /** [rows, 1]. */
  targetValue: tf.Tensor2D;
  /** [rows, actionCount, K]: a network with an action-scoring head needs its actions' features. */
  actionFeatures?: tf.Tensor3D;
}

/** The model's logits, with the action-scoring term gate · features(a) when the network has a head and the batch features. */
function fullLogits(outputs: tf.Tensor[], actionFeatures: tf.Tensor3D | undefined): tf.Tensor2D {
  const [logits, , gate] = outputs as tf.Tensor2D[];
  if (gate === undefined || actionFeatures === undefined) return logits;
  return tf.add(logits, tf.sum(tf.mul(actionFeatures, tf.expandDims(gate, 1)), 2));
}

/** Cross-entropy of the masked policy against the target distribution plus valueWeight × squared value error, both averaged over rows. */
export function policyValueLoss(net: Network<PolicyValueConfig>, batch: PolicyValueBatch, valueWeight = 1): tf.Scalar {
  return tf.tidy(() => {
    const outputs = net.model.apply(batch.observations, { training: true }) as tf.Tensor[];
    const value = outputs[1];
    const policyLoss = maskedSoftmaxCrossEntropy(fullLogits(outputs, batch.actionFeatures), batch.legalMask, batch.targetPolicy);
    const valueLoss = tf.mean(tf.square(tf.sub(value, batch.targetValue)));
    return tf.add<tf.Scalar>(policyLoss, tf.mul(valueLoss, valueWeight));
  });
}

/**
 * PPO's loss written plainly for autodiff, the reference for ppoGradients (policyValueStep.ts):
 * −mean(min(r·A, clip(r, 1−ε, 1+ε)·A)) + valueCoef·mean((v − R)²) − entropyCoef·mean(H).
 */
export function ppoLoss(
  net: Network<PolicyValueConfig>,
  batch: {
    observations: tf.Tensor2D;
    legalMask: tf.Tensor2D;
    actions: tf.Tensor1D;
    oldLogProbs: tf.Tensor1D;
    advantages: tf.Tensor1D;
    returns: tf.Tensor1D;
    actionFeatures?: tf.Tensor3D;
  },
  coefficients: { clip: number; valueCoef: number; entropyCoef: number },
): tf.Scalar {
  return tf.tidy(() => {
    const outputs = net.model.apply(batch.observations, { training: true }) as tf.Tensor2D[];
    const value = outputs[1];
    const logits = fullLogits(outputs, batch.actionFeatures);
    const logProbs = maskedLogSoftmax(logits, batch.legalMask);
    const probs = maskedSoftmax(logits, batch.legalMask);
    const logProbA = tf.sum(tf.mul(logProbs, tf.cast(tf.oneHot(batch.actions, net.config.actionCount), 'float32')), -1);
    const ratio = tf.exp(tf.sub(logProbA, batch.oldLogProbs));
    const surrogate = tf.minimum(
      tf.mul(ratio, batch.advantages),
      tf.mul(tf.clipByValue(ratio, 1 - coefficients.clip, 1 + coefficients.clip), batch.advantages),
    );
    const entropy = tf.mean(tf.neg(tf.sum(tf.mul(probs, logProbs), -1)));
    const valueLoss = tf.mean(tf.square(tf.sub(tf.reshape(value, [-1]), batch.returns)));
    return tf.sub<tf.Scalar>(
      tf.add(tf.neg(tf.mean(surrogate)), tf.mul(valueLoss, coefficients.valueCoef)),
      tf.mul(entropy, coefficients.entropyCoef),
    );
  });
}
