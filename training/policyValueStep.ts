// The policy-value MLP driven without the layers graph and without autodiff: the forward pass runs the
// same fused matmuls the Dense layers run, and the backward pass is written out with the transposes
// materialised once per step, so every matmul is a plain one XNNPACK takes. Against tf.variableGrads
// through model.apply it skips the first layer's input gradient (autodiff of the fused matmul computes
// it eagerly and throws it away), shares hᵀ between the two heads, and runs the value head's input
// gradient as a broadcast product. The gradients equal the autodiff ones (see the tests).
import * as tf from '@tensorflow/tfjs';
import { FastAdam } from './fastAdam.js';
import { maskedSoftmaxCrossEntropyAndGradient } from '../nn/maskedSoftmax.js';
import { trainableVariables, type Network, type PolicyValueConfig } from '../nn/networks.js';
import type { PolicyValueBatch } from './losses.js';

interface Dense {
  kernel: tf.Variable;
  bias: tf.Variable;
}

interface PolicyValueLayers {
  trunk: Dense[];
  policy: Dense;
  value: Dense;
  activation: PolicyValueConfig['activation'];
}

function dense(model: tf.LayersModel, name: string): Dense {
  const weights = model.getLayer(name).trainableWeights;
  if (weights.length !== 2) throw new Error(`layer ${name} has ${weights.length} trainable weights, expected kernel and bias`);
  return { kernel: weights[0].read() as tf.Variable, bias: weights[1].read() as tf.Variable };
}

/** The layers buildNetwork made (by name, so a loaded model works too). */
function layersOf(net: Network<PolicyValueConfig>): PolicyValueLayers {
  return {
    trunk: net.config.hiddenUnits.map((_, i) => dense(net.model, `trunk_${i + 1}`)),
    policy: dense(net.model, 'policy_logits'),
    value: dense(net.model, 'value'),
    activation: net.config.activation,
  };
}

function hidden(x: tf.Tensor2D, layer: Dense, activation: PolicyValueConfig['activation']): tf.Tensor2D {
  // Dense fuses relu and elu into the matmul and applies tanh after it; so does this.
  if (activation === 'tanh') return tf.tanh(tf.fused.matMul({ a: x, b: layer.kernel, bias: layer.bias })) as tf.Tensor2D;
  return tf.fused.matMul({ a: x, b: layer.kernel, bias: layer.bias, activation }) as tf.Tensor2D;
}

function linear(x: tf.Tensor2D, layer: Dense): tf.Tensor2D {
  return tf.fused.matMul({ a: x, b: layer.kernel, bias: layer.bias }) as tf.Tensor2D;
}

/** dL/dz from dL/dy and the activation's output y = f(z). */
function activationGradient(dy: tf.Tensor2D, y: tf.Tensor2D, activation: PolicyValueConfig['activation']): tf.Tensor2D {
  switch (activation) {
    case 'relu':
      return tf.mul(dy, tf.step(y));
    case 'tanh':
      return tf.mul(dy, tf.sub(1, tf.square(y)));
    case 'elu':
      return tf.engine().runKernel<tf.Tensor2D>('EluGrad', { dy, y });
  }
}

export interface PolicyValueForward {
  /** The trunk's input and each trunk layer's output, input first. */
  activations: tf.Tensor2D[];
  logits: tf.Tensor2D;
  value: tf.Tensor2D;
}

/** The policy-value network's forward pass on the whole batch: what model.apply computes, with the trunk's activations kept. */
export function policyValueForward(net: Network<PolicyValueConfig>, observations: tf.Tensor2D): PolicyValueForward {
  const layers = layersOf(net);
  return tf.tidy(() => {
    const activations = [observations];
    for (const layer of layers.trunk) activations.push(hidden(activations[activations.length - 1], layer, layers.activation));
    const top = activations[activations.length - 1];
    // activations[0] is the caller's tensor; tidy leaves it alone.
    return { activations, logits: linear(top, layers.policy), value: linear(top, layers.value) };
  });
}

export interface PolicyValueGradients {
  loss: tf.Scalar;
  /** Same order as trainableVariables(net.model). */
  gradients: tf.Tensor[];
}

/**
 * The policy-value loss (masked softmax cross-entropy + valueWeight × mean squared value error, as
 * policyValueLoss) and its gradients with respect to every trainable variable, by hand.
 */
export function policyValueGradients(net: Network<PolicyValueConfig>, batch: PolicyValueBatch, valueWeight = 1): PolicyValueGradients {
  const layers = layersOf(net);
  const rows = batch.observations.shape[0];
  return tf.tidy(() => {
    const { activations, logits, value } = policyValueForward(net, batch.observations);
    const policy = maskedSoftmaxCrossEntropyAndGradient(logits, batch.legalMask, batch.targetPolicy);
    const valueError = tf.sub(value, batch.targetValue);
    const loss = tf.add<tf.Scalar>(policy.loss, tf.mul(tf.mean(tf.square(valueError)), valueWeight));
    const dLogits = policy.gradient;
    const dValue = tf.mul<tf.Tensor2D>(valueError, (2 * valueWeight) / rows);

    const grads = new Map<tf.Variable, tf.Tensor>();
    // Column sums as a [1, rows]·[rows, width] matmul: the wasm Sum over axis 0 transposes first.
    const ones = tf.ones<tf.Rank.R2>([1, rows]);
    const columnSum = (t: tf.Tensor2D) => tf.reshape(tf.matMul(ones, t), [-1]);
    const top = activations[activations.length - 1];
    const topT = tf.transpose(top);
    grads.set(layers.policy.kernel, tf.matMul(topT, dLogits));
    grads.set(layers.policy.bias, columnSum(dLogits));
    grads.set(layers.value.kernel, tf.matMul(topT, dValue));
    grads.set(layers.value.bias, tf.sum(dValue, 0));
    // dValue · Wvᵀ is an outer product [rows, 1]·[1, width]: a broadcast multiply, no matmul.
    let dTop = tf.add<tf.Tensor2D>(tf.matMul(dLogits, tf.transpose(layers.policy.kernel)), tf.mul(dValue, tf.reshape(layers.value.kernel, [1, -1])));
    for (let i = layers.trunk.length - 1; i >= 0; i--) {
      const layer = layers.trunk[i];
      const dz = activationGradient(dTop, activations[i + 1], layers.activation);
      grads.set(layer.kernel, tf.matMul(tf.transpose(activations[i]), dz));
      grads.set(layer.bias, columnSum(dz));
      // The observations need no gradient.
      if (i > 0) dTop = tf.matMul(dz, tf.transpose(layer.kernel));
    }
    const gradients = trainableVariables(net.model).map((v) => {
      const g = grads.get(v);
      if (g === undefined) throw new Error(`no gradient for ${v.name}: not a policy-value network built by buildNetwork?`);
      return g;
    });
    return { loss, gradients };
  });
}

/**
 * One training step of the policy-value network with FastAdam: gradients by hand (policyValueGradients),
 * then one flat Adam update. Same result as trainStep(optimizer, net.model, () =>
 * policyValueLoss(net, batch, valueWeight)) within float rounding. Returns the loss before the step.
 */
export function policyValueTrainStep(net: Network<PolicyValueConfig>, batch: PolicyValueBatch, optimizer: FastAdam, valueWeight = 1): number {
  const { loss, gradients } = policyValueGradients(net, batch, valueWeight);
  try {
    optimizer.applyGradients(trainableVariables(net.model), gradients);
    return loss.dataSync()[0];
  } finally {
    tf.dispose([loss, ...gradients]);
  }
}
