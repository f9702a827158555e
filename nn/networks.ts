// Network builders for the learners. Only built-in tfjs layers, so saved models load in any tfjs runtime.
import * as tf from '@tensorflow/tfjs';
import { z } from 'zod';
import { parseConfig } from './config.js';

const units = z.array(z.number().int().positive()).min(1);
const activation = z.enum(['relu', 'tanh', 'elu']).default('relu').describe('activation of every hidden layer');
const seed = z.number().int().optional().describe('seed for the weight initialisers; omit for a random start');

/** The kind of network this layer builds, stated in every saved config. */
export const NETWORK_KIND = 'policy-value';

export const PolicyValueConfigSchema = z.strictObject({
  kind: z.literal(NETWORK_KIND).describe('MLP over a fixed observation, with policy logits over a fixed action space and a value'),
  observationSize: z.number().int().positive().describe('length of the observation vector'),
  actionCount: z.number().int().positive().describe('size of the fixed action space (one logit each)'),
  hiddenUnits: units.describe('widths of the shared hidden layers, input side first'),
  actionFeatures: z
    .number()
    .int()
    .nonnegative()
    .default(0)
    .describe(
      "features per action of the action-scoring head (0: none): an action's logit gains (the top hidden layer · W + b) · the action's features, which the caller supplies",
    ),
  activation,
  seed,
});

/** The one network kind (the trainer's PPO drives it); `kind` stays in saved configs, so another kind is refused on load. */
export const NetworkConfigSchema = PolicyValueConfigSchema;

export type PolicyValueConfig = z.output<typeof PolicyValueConfigSchema>;
export type NetworkConfig = z.output<typeof NetworkConfigSchema>;
export type NetworkConfigInput = z.input<typeof NetworkConfigSchema>;

export interface Network<C extends NetworkConfig = NetworkConfig> {
  /** The validated config, a copy owned by the network. */
  readonly config: C;
  /**
   * Input [N, observationSize] → outputs [logits [N, actionCount], value [N, 1]], and with
   * actionFeatures > 0 a third, the action gate [N, actionFeatures]: the full logit of action a is
   * logits[a] + gate · features(a) (nn/inference.ts adds it).
   */
  readonly model: tf.LayersModel;
}

class SeedSequence {
  private next: number | undefined;
  constructor(start: number | undefined) {
    this.next = start;
  }
  initializer(): ReturnType<typeof tf.initializers.glorotUniform> {
    const s = this.next === undefined ? undefined : this.next++;
    return tf.initializers.glorotUniform({ seed: s });
  }
}

function denseStack(
  x: tf.SymbolicTensor,
  widths: number[],
  config: { activation: 'relu' | 'tanh' | 'elu' },
  prefix: string,
  seeds: SeedSequence,
): tf.SymbolicTensor {
  return widths.reduce(
    (h, width, i) =>
      tf.layers
        .dense({ units: width, activation: config.activation, kernelInitializer: seeds.initializer(), name: `${prefix}_${i + 1}` })
        .apply(h) as tf.SymbolicTensor,
    x,
  );
}

function head(x: tf.SymbolicTensor, width: number, name: string, seeds: SeedSequence): tf.SymbolicTensor {
  return tf.layers.dense({ units: width, kernelInitializer: seeds.initializer(), name }).apply(x) as tf.SymbolicTensor;
}

function buildPolicyValue(config: PolicyValueConfig): tf.LayersModel {
  const seeds = new SeedSequence(config.seed);
  const observation = tf.input({ shape: [config.observationSize], name: 'observation' });
  const trunk = denseStack(observation, config.hiddenUnits, config, 'trunk', seeds);
  const logits = head(trunk, config.actionCount, 'policy_logits', seeds);
  const value = head(trunk, 1, 'value', seeds);
  const outputs = [logits, value];
  if (config.actionFeatures > 0) outputs.push(head(trunk, config.actionFeatures, ACTION_GATE, seeds));
  return tf.model({ inputs: observation, outputs, name: 'policy_value' });
}

/** The name of the action-scoring head's layer. */
export const ACTION_GATE = 'action_gate';

export function buildNetwork(input: NetworkConfigInput): Network {
  const config = parseConfig(NetworkConfigSchema, structuredClone(input), 'network config');
  return { config, model: buildPolicyValue(config) };
}

/**
 * The same policy-value network taking `observationSize` ≥ its own inputs: the first layer's
 * kernel gets zero rows for the inputs appended at the end, every other weight is copied. On
 * the old inputs it computes exactly what the old network did, whatever the new ones hold, so
 * training can go on from it and learn to use them (a migration after an observation grows).
 */
export function widenInputs(net: Network<PolicyValueConfig>, observationSize: number): Network<PolicyValueConfig> {
  const old = net.config.observationSize;
  if (observationSize < old) throw new Error(`cannot narrow a network's inputs from ${old} to ${observationSize}`);
  const wide = buildNetwork({ ...net.config, observationSize });
  const weights = net.model.getWeights();
  const [kernel, ...rest] = weights;
  const padded = tf.tidy(() => tf.concat([kernel, tf.zeros([observationSize - old, kernel.shape[1] as number])], 0));
  wide.model.setWeights([padded, ...rest]);
  padded.dispose();
  return wide;
}

/**
 * The same network with an action-scoring head of `actionFeatures` features, all its weights 0 but
 * the biases given (`gateBias`: feature index → bias; none: it plays exactly as the network did
 * until training moves them). Every other weight is copied.
 */
export function withActionScoring(
  net: Network<PolicyValueConfig>,
  actionFeatures: number,
  gateBias: ReadonlyMap<number, number> = new Map(),
): Network<PolicyValueConfig> {
  if (net.config.actionFeatures !== 0) throw new Error(`the network already scores actions (${net.config.actionFeatures} features)`);
  const scored = buildNetwork({ ...net.config, actionFeatures });
  for (const layer of net.model.layers) {
    const weights = layer.getWeights();
    if (weights.length > 0) scored.model.getLayer(layer.name).setWeights(weights);
  }
  const gate = scored.model.getLayer(ACTION_GATE);
  const zeros = gate.getWeights().map((w) => tf.zerosLike(w));
  gate.setWeights(zeros);
  tf.dispose(zeros);
  setGateBias(scored, gateBias);
  return scored;
}

/** Sets biases of the action-scoring head (feature index → bias), its kernel left as it is. */
export function setGateBias(net: Network<PolicyValueConfig>, gateBias: ReadonlyMap<number, number>): void {
  const gate = net.model.getLayer(ACTION_GATE);
  const [kernel, old] = gate.getWeights();
  const bias = old.dataSync().slice() as Float32Array;
  for (const [index, value] of gateBias) bias[index] = value;
  const next = tf.tensor1d(bias);
  gate.setWeights([kernel, next]);
  next.dispose();
}

/** The model's trainable variables in layer order: the order optimizer state is saved and restored in. */
export function trainableVariables(model: tf.LayersModel): tf.Variable[] {
  return model.trainableWeights.map((w) => w.read() as tf.Variable);
}

/** Every trainable weight as one vector, in trainableVariables order: what actors and snapshots exchange. */
export function getFlatWeights(model: tf.LayersModel): Float32Array {
  const vars = trainableVariables(model);
  const flat = new Float32Array(vars.reduce((n, v) => n + v.size, 0));
  let offset = 0;
  for (const v of vars) {
    flat.set(v.dataSync(), offset);
    offset += v.size;
  }
  return flat;
}

/** Loads a vector written by getFlatWeights (from a network of the same config) into the model. */
export function setFlatWeights(model: tf.LayersModel, flat: Float32Array): void {
  const vars = trainableVariables(model);
  const total = vars.reduce((n, v) => n + v.size, 0);
  if (flat.length !== total) throw new Error(`weight vector has ${flat.length} numbers, the network ${total}`);
  let offset = 0;
  for (const v of vars) {
    const part = tf.tensor(flat.subarray(offset, (offset += v.size)), v.shape, 'float32');
    v.assign(part);
    part.dispose();
  }
}
