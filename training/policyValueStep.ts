// The policy-value MLP driven without the layers graph and without autodiff: the forward pass runs the
// same fused matmuls the Dense layers run, and the backward pass is written out with the transposes
// materialised once per step, so every matmul is a plain one XNNPACK takes. Against tf.variableGrads
// through model.apply it skips the first layer's input gradient (autodiff of the fused matmul computes
// it eagerly and throws it away), shares hᵀ between the two heads, and runs the value head's input
// gradient as a broadcast product. The gradients equal the autodiff ones (see the tests).
import * as tf from '@tensorflow/tfjs';
import { FastAdam } from './fastAdam.js';
import { ILLEGAL_PENALTY, LOGIT_LIMIT, maskedSoftmaxCrossEntropyAndGradient } from '../nn/maskedSoftmax.js';
import { ACTION_GATE, trainableVariables, type Network, type PolicyValueConfig } from '../nn/networks.js';
import type { PolicyValueBatch } from './losses.js';

interface Dense {
  kernel: tf.Variable;
  bias: tf.Variable;
}

interface PolicyValueLayers {
  trunk: Dense[];
  policy: Dense;
  value: Dense;
  /** The action-scoring head, when the network has one. */
  gate: Dense | null;
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
    gate: net.config.actionFeatures > 0 ? dense(net.model, ACTION_GATE) : null,
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

/** The action-scoring network's per-action features, [rows, columns (or actionCount), K]: what the logits' extra term reads. */
export type ActionFeatureTensor = tf.Tensor3D;

/** logits + Σ_k gate[:, k] · features[:, :, k]: the action-scoring term (features at illegal entries are 0 or ignored by the mask). */
function withActionTerm(logits: tf.Tensor2D, gate: tf.Tensor2D, features: ActionFeatureTensor): tf.Tensor2D {
  return tf.add(logits, tf.sum(tf.mul(features, tf.expandDims(gate, 1)), 2));
}

function checkFeatures(net: Network<PolicyValueConfig>, features: ActionFeatureTensor | undefined): void {
  if (net.config.actionFeatures > 0 && features === undefined)
    throw new Error(`the network scores actions from ${net.config.actionFeatures} features each: the batch has none`);
}

/** The policy head restricted to some actions: its kernel's and bias's columns at `columns`. */
function policyColumns(layer: Dense, columns: tf.Tensor1D | undefined): Dense | { kernel: tf.Tensor2D; bias: tf.Tensor1D } {
  if (columns === undefined) return layer;
  return { kernel: tf.gather(layer.kernel, columns, 1) as tf.Tensor2D, bias: tf.gather(layer.bias, columns) as tf.Tensor1D };
}

/**
 * The policy-value network's forward pass on the whole batch: what model.apply computes, with the
 * trunk's activations kept. With `columns` (int32 action ids), the logits are those actions' only,
 * in that order: a minibatch's legal actions are a few dozen of the 1409, and the masked softmax
 * and its gradient never look at the others.
 */
export function policyValueForward(
  net: Network<PolicyValueConfig>,
  observations: tf.Tensor2D,
  columns?: tf.Tensor1D,
  actionFeatures?: ActionFeatureTensor,
): PolicyValueForward {
  const layers = layersOf(net);
  checkFeatures(net, actionFeatures);
  return tf.tidy(() => {
    const activations = [observations];
    for (const layer of layers.trunk) activations.push(hidden(activations[activations.length - 1], layer, layers.activation));
    const top = activations[activations.length - 1];
    // A gathered bias cannot go into the wasm fused matmul (tfjs 4.22's GatherV2 records its output as
    // rank 4 in the backend, and _FusedMatMul reads that rank), so the restricted head adds it.
    const policy = policyColumns(layers.policy, columns);
    const base = columns === undefined ? linear(top, layers.policy) : tf.add<tf.Tensor2D>(tf.matMul(top, policy.kernel), policy.bias);
    const logits =
      layers.gate !== null && actionFeatures !== undefined ? withActionTerm(base, linear(top, layers.gate), actionFeatures) : base;
    // activations[0] is the caller's tensor; tidy leaves it alone.
    return { activations, logits, value: linear(top, layers.value) };
  });
}

export interface PolicyValueGradients {
  loss: tf.Scalar;
  /** Same order as trainableVariables(net.model). */
  gradients: tf.Tensor[];
}

/**
 * Backpropagates dL/dlogits and dL/dvalue through the heads and the trunk, by hand; returns the
 * gradients in trainableVariables order. Call inside a tidy.
 */
function backward(
  net: Network<PolicyValueConfig>,
  activations: tf.Tensor2D[],
  dLogits: tf.Tensor2D,
  dValue: tf.Tensor2D,
  columns?: tf.Tensor1D,
  actionFeatures?: ActionFeatureTensor,
): tf.Tensor[] {
  const layers = layersOf(net);
  const rows = activations[0].shape[0];
  const grads = new Map<tf.Variable, tf.Tensor>();
  // Column sums as a [1, rows]·[rows, width] matmul: the wasm Sum over axis 0 transposes first.
  const ones = tf.ones<tf.Rank.R2>([1, rows]);
  const columnSum = (t: tf.Tensor2D) => tf.reshape(tf.matMul(ones, t), [-1]);
  const top = activations[activations.length - 1];
  const topT = tf.transpose(top);
  const policy = policyColumns(layers.policy, columns);
  const policyKernelGrad = tf.matMul(topT, dLogits);
  const policyBiasGrad = columnSum(dLogits);
  if (columns === undefined) {
    grads.set(layers.policy.kernel, policyKernelGrad);
    grads.set(layers.policy.bias, policyBiasGrad);
  } else {
    // Back to every action: a product with the one-hot rows of the columns puts each in its place, the others 0 (exactly: one term per entry).
    const place = tf.cast(tf.oneHot(columns, net.config.actionCount), 'float32') as tf.Tensor2D;
    grads.set(layers.policy.kernel, tf.matMul(policyKernelGrad, place));
    grads.set(layers.policy.bias, tf.reshape(tf.matMul(tf.reshape(policyBiasGrad, [1, -1]), place), [-1]));
  }
  grads.set(layers.value.kernel, tf.matMul(topT, dValue));
  grads.set(layers.value.bias, tf.sum(dValue, 0));
  // dValue · Wvᵀ is an outer product [rows, 1]·[1, width]: a broadcast multiply, no matmul.
  let dTop = tf.add<tf.Tensor2D>(tf.matMul(dLogits, tf.transpose(policy.kernel)), tf.mul(dValue, tf.reshape(layers.value.kernel, [1, -1])));
  if (layers.gate !== null && actionFeatures !== undefined) {
    // The gate's gradient: dL/dgate[n, k] = Σ_a dL/dlogit[n, a] · features[n, a, k].
    const dGate = tf.sum<tf.Tensor2D>(tf.mul(actionFeatures, tf.expandDims(dLogits, 2)), 1);
    grads.set(layers.gate.kernel, tf.matMul(topT, dGate));
    grads.set(layers.gate.bias, columnSum(dGate));
    dTop = tf.add(dTop, tf.matMul(dGate, tf.transpose(layers.gate.kernel)));
  }
  for (let i = layers.trunk.length - 1; i >= 0; i--) {
    const layer = layers.trunk[i];
    const dz = activationGradient(dTop, activations[i + 1], layers.activation);
    grads.set(layer.kernel, tf.matMul(tf.transpose(activations[i]), dz));
    grads.set(layer.bias, columnSum(dz));
    // The observations need no gradient.
    if (i > 0) dTop = tf.matMul(dz, tf.transpose(layer.kernel));
  }
  return trainableVariables(net.model).map((v) => {
    const g = grads.get(v);
    if (g === undefined) throw new Error(`no gradient for ${v.name}: not a policy-value network built by buildNetwork?`);
    return g;
  });
}

/**
 * The policy-value loss (masked softmax cross-entropy + valueWeight × mean squared value error, as
 * policyValueLoss) and its gradients with respect to every trainable variable, by hand. With
 * `batch.columns` the legal mask and the targets cover those actions only (see policyValueForward).
 */
export function policyValueGradients(
  net: Network<PolicyValueConfig>,
  batch: PolicyValueBatch & { columns?: tf.Tensor1D; actionFeatures?: ActionFeatureTensor },
  valueWeight = 1,
): PolicyValueGradients {
  const rows = batch.observations.shape[0];
  return tf.tidy(() => {
    const { activations, logits, value } = policyValueForward(net, batch.observations, batch.columns, batch.actionFeatures);
    const policy = maskedSoftmaxCrossEntropyAndGradient(logits, batch.legalMask, batch.targetPolicy);
    const valueError = tf.sub(value, batch.targetValue);
    const loss = tf.add<tf.Scalar>(policy.loss, tf.mul(tf.mean(tf.square(valueError)), valueWeight));
    const dValue = tf.mul<tf.Tensor2D>(valueError, (2 * valueWeight) / rows);
    return { loss, gradients: backward(net, activations, policy.gradient, dValue, batch.columns, batch.actionFeatures) };
  });
}

/** A minibatch for the clipped objective: what the actor recorded and the targets computed from it. */
export interface PpoBatch {
  observations: tf.Tensor2D;
  /** [rows, actionCount] float32 (or [rows, columns] with `columns`), 1 = legal. Every row has a legal action, and its action is legal. */
  legalMask: tf.Tensor2D;
  /** [rows] int32: the action taken (with `columns`, its position in them). */
  actions: tf.Tensor1D;
  /** Optional int32 action ids: the logits computed, those of every action legal in some row (the others cannot matter). */
  columns?: tf.Tensor1D;
  /** The action-scoring network's features, [rows, columns (or actionCount), K]. */
  actionFeatures?: ActionFeatureTensor;
  /** [rows]: log-probability of the action under the policy that took it. */
  oldLogProbs: tf.Tensor1D;
  /** [rows]: advantage estimates (already normalised if wanted). */
  advantages: tf.Tensor1D;
  /** [rows]: value targets. */
  returns: tf.Tensor1D;
}

export interface PpoCoefficients {
  /** ε of the clipped ratio. */
  clip: number;
  /** Weight of the mean squared value error. */
  valueCoef: number;
  /** Weight of the mean policy entropy (a bonus: subtracted from the loss). */
  entropyCoef: number;
}

/** The statistics of one PPO minibatch, in this order in PpoGradients.stats. */
export const PPO_STATS = ['loss', 'policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction'] as const;
export type PpoStats = Record<(typeof PPO_STATS)[number], number>;

export interface PpoGradients {
  /** PPO_STATS as one vector, read once. */
  stats: tf.Tensor1D;
  gradients: tf.Tensor[];
}

/**
 * PPO's clipped surrogate with an entropy bonus and a value error, and its gradients, by hand:
 *   loss = −mean(min(r·A, clip(r, 1−ε, 1+ε)·A)) + valueCoef·mean((v − R)²) − entropyCoef·mean(H),
 * r = exp(log p(a) − old log p(a)), H = −Σ p log p over the legal actions.
 * With respect to the logits, the surrogate's gradient is (w/n)·(p − onehot(a)) with w = r·A where the
 * unclipped term is the smaller one and 0 where the clipped one is (the min's and the clip's own
 * gradients, as autodiff takes them), and the entropy's (c/n)·p·(log p + H): both have the shape of the
 * masked cross-entropy gradient p·Σt − t, for the targets t = w·onehot(a) and t = −c·p·log p. The log
 * probabilities come from the softmax kernel's output: log p = (x − max x) + log max p, so no Exp kernel
 * (a scalar loop on wasm) runs. The tests compare it with autodiff of ppoLoss.
 */
export function ppoGradients(net: Network<PolicyValueConfig>, batch: PpoBatch, coefficients: PpoCoefficients): PpoGradients {
  const { clip, valueCoef, entropyCoef } = coefficients;
  const rows = batch.observations.shape[0];
  const actionCount = batch.columns?.shape[0] ?? net.config.actionCount;
  return tf.tidy(() => {
    const { activations, logits, value } = policyValueForward(net, batch.observations, batch.columns, batch.actionFeatures);
    const penalised = tf.add(tf.clipByValue(logits, -LOGIT_LIMIT, LOGIT_LIMIT), tf.mul(tf.sub(batch.legalMask, 1), ILLEGAL_PENALTY));
    const probs = tf.softmax(penalised);
    // log p at every entry (finite: about −4e30 at illegal ones, where p = 0).
    const logProbs = tf.add(tf.sub(penalised, tf.max(penalised, -1, true)), tf.log(tf.max(probs, -1, true)));
    // tf.oneHot(…, 'float32') gives all zeros on wasm (tfjs 4.22); an int32 one-hot cast is right.
    const chosen = tf.cast(tf.oneHot(batch.actions, actionCount), 'float32');
    const logProbA = tf.sum(tf.mul(chosen, logProbs), -1);
    const logRatio = tf.sub(logProbA, batch.oldLogProbs);
    const ratio = tf.exp(logRatio);
    const surrogate = tf.mul(ratio, batch.advantages);
    const clipped = tf.mul(tf.clipByValue(ratio, 1 - clip, 1 + clip), batch.advantages);
    const policyLoss = tf.neg(tf.mean(tf.minimum(surrogate, clipped)));
    const entropyRows = tf.neg(tf.sum(tf.mul(probs, logProbs), -1));
    const entropy = tf.mean(entropyRows);
    const valueError = tf.sub(tf.reshape(value, [-1]), batch.returns);
    const valueLoss = tf.mean(tf.square(valueError));
    const loss = tf.sub(tf.add(policyLoss, tf.mul(valueLoss, valueCoef)), tf.mul(entropy, entropyCoef));
    // Gradients with respect to the logits and the value.
    const weight = tf.mul(surrogate, tf.cast(tf.lessEqual(surrogate, clipped), 'float32'));
    const dSurrogate = tf.mul(tf.sub(probs, chosen), tf.reshape(weight, [-1, 1]));
    const dEntropy = tf.mul(probs, tf.add(logProbs, tf.reshape(entropyRows, [-1, 1])));
    const dLogits = tf.mul<tf.Tensor2D>(tf.add(dSurrogate, tf.mul(dEntropy, entropyCoef)), 1 / rows);
    const dValue = tf.reshape<tf.Rank.R2>(tf.mul(valueError, (2 * valueCoef) / rows), [-1, 1]);
    const approxKl = tf.mean(tf.sub(tf.sub(ratio, 1), logRatio));
    const clipFraction = tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), clip), 'float32'));
    const stats = tf.stack([loss, policyLoss, valueLoss, entropy, approxKl, clipFraction]) as tf.Tensor1D;
    return { stats, gradients: backward(net, activations, dLogits, dValue, batch.columns, batch.actionFeatures) };
  });
}

/** Scales the gradients in place of the list so that their global L2 norm is at most maxNorm; returns the norm before. */
export function clipByGlobalNorm(gradients: tf.Tensor[], maxNorm: number): number {
  const total = tf.tidy(() => tf.sqrt(tf.addN(gradients.map((g) => tf.sum(tf.square(g))))));
  const norm = total.dataSync()[0];
  total.dispose();
  if (norm > maxNorm && norm > 0) {
    for (let i = 0; i < gradients.length; i++) {
      const scaled = tf.mul(gradients[i], maxNorm / norm);
      gradients[i].dispose();
      gradients[i] = scaled;
    }
  }
  return norm;
}

/**
 * One PPO step with FastAdam: ppoGradients, the global-norm clip (maxGradNorm, null for none), one flat
 * Adam update. Returns the minibatch statistics (before the step) and the gradient norm.
 */
export function ppoTrainStep(
  net: Network<PolicyValueConfig>,
  batch: PpoBatch,
  optimizer: FastAdam,
  coefficients: PpoCoefficients,
  maxGradNorm: number | null,
): PpoStats & { gradNorm: number } {
  const { stats, gradients } = ppoGradients(net, batch, coefficients);
  try {
    const gradNorm = maxGradNorm === null ? Number.NaN : clipByGlobalNorm(gradients, maxGradNorm);
    optimizer.applyGradients(trainableVariables(net.model), gradients);
    const values = stats.dataSync();
    return { ...(Object.fromEntries(PPO_STATS.map((name, i) => [name, values[i]])) as PpoStats), gradNorm };
  } finally {
    tf.dispose([stats, ...gradients]);
  }
}

/**
 * One training step of the policy-value network with FastAdam: gradients by hand (policyValueGradients),
 * then one flat Adam update. Same result as trainStep(optimizer, net.model, () =>
 * policyValueLoss(net, batch, valueWeight)) within float rounding. Returns the loss before the step.
 */
export function policyValueTrainStep(
  net: Network<PolicyValueConfig>,
  batch: PolicyValueBatch & { columns?: tf.Tensor1D; actionFeatures?: ActionFeatureTensor },
  optimizer: FastAdam,
  valueWeight = 1,
): number {
  const { loss, gradients } = policyValueGradients(net, batch, valueWeight);
  try {
    optimizer.applyGradients(trainableVariables(net.model), gradients);
    return loss.dataSync()[0];
  } finally {
    tf.dispose([loss, ...gradients]);
  }
}
