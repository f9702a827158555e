// A checkpoint is a saved network (see persistence.ts) plus the optimizer state beside it, so that a
// resumed run continues exactly: optimizer.json (config, iteration, bias-correction powers, weight
// specs) and optimizer.bin (moment tensors in the model's trainable-variable order).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { z } from 'zod';
import type { Network } from './networks.js';
import { loadNetwork, saveNetwork, type ExpectedMetadata, type ModelMetadata, type SaveOptions } from './persistence.js';

export const OPTIMIZER_JSON = 'optimizer.json';
export const OPTIMIZER_BIN = 'optimizer.bin';

export const OptimizerConfigSchema = z.object({
  kind: z.literal('adam').describe('optimizer algorithm'),
  learningRate: z.number().positive().default(1e-3).describe('step size'),
  beta1: z.number().min(0).max(1).default(0.9).describe('decay of the first-moment estimate'),
  beta2: z.number().min(0).max(1).default(0.999).describe('decay of the second-moment estimate'),
  epsilon: z.number().positive().default(1e-7).describe('added to the root of the second moment'),
});
export type OptimizerConfig = z.output<typeof OptimizerConfigSchema>;

const WeightSpecSchema = z.object({ name: z.string(), shape: z.array(z.number().int()), dtype: z.enum(['float32', 'int32', 'bool', 'string', 'complex64']) }).loose();

const OptimizerStateSchema = z.object({
  optimizer: OptimizerConfigSchema,
  /** Adam keeps β₁ᵗ and β₂ᵗ as running products; recomputing them with pow on restore could differ in the last bit. */
  accBeta1: z.number().describe('running product β₁ᵗ'),
  accBeta2: z.number().describe('running product β₂ᵗ'),
  weightSpecs: z.array(WeightSpecSchema).describe('iteration counter and moment tensors in optimizer.bin'),
});

/** The Adam internals tfjs keeps protected, needed for an exact restore. */
interface AdamInternals {
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
}

export function createOptimizer(config: z.input<typeof OptimizerConfigSchema>): { optimizer: tf.AdamOptimizer; config: OptimizerConfig } {
  const c = OptimizerConfigSchema.parse(structuredClone(config));
  return { optimizer: tf.train.adam(c.learningRate, c.beta1, c.beta2, c.epsilon), config: c };
}

export interface Checkpoint {
  network: Network;
  optimizer: tf.AdamOptimizer;
  optimizerConfig: OptimizerConfig;
}

export async function saveCheckpoint(dir: string, checkpoint: Checkpoint, options: SaveOptions): Promise<ModelMetadata> {
  const metadata = await saveNetwork(checkpoint.network, dir, options);
  const named = await checkpoint.optimizer.getWeights();
  const { data, specs } = await tf.io.encodeWeights(named);
  const internals = checkpoint.optimizer as unknown as AdamInternals;
  const state: z.output<typeof OptimizerStateSchema> = {
    optimizer: checkpoint.optimizerConfig,
    accBeta1: internals.accBeta1.dataSync()[0],
    accBeta2: internals.accBeta2.dataSync()[0],
    weightSpecs: specs as z.output<typeof WeightSpecSchema>[],
  };
  // getWeights wraps the iteration count in a fresh scalar; the moments are the optimizer's own variables.
  tf.dispose(named.filter((w) => w.name === 'iter').map((w) => w.tensor));
  await writeFile(path.join(dir, OPTIMIZER_BIN), new Uint8Array(data));
  await writeFile(path.join(dir, OPTIMIZER_JSON), JSON.stringify(state, null, 2) + '\n');
  return metadata;
}

export async function loadCheckpoint(dir: string, expected: ExpectedMetadata): Promise<Checkpoint & { metadata: ModelMetadata }> {
  const { network, metadata } = await loadNetwork(dir, expected);
  const state = OptimizerStateSchema.parse(JSON.parse(await readFile(path.join(dir, OPTIMIZER_JSON), 'utf8')));
  const bytes = await readFile(path.join(dir, OPTIMIZER_BIN));
  const tensors = tf.io.decodeWeights(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, state.weightSpecs as tf.io.WeightsManifestEntry[]);
  const { optimizer, config } = createOptimizer(state.optimizer);
  // setWeights copies the moments into new variables, and reads the iteration count.
  await optimizer.setWeights(state.weightSpecs.map((spec) => ({ name: spec.name, tensor: tensors[spec.name] })));
  tf.dispose(Object.values(tensors));
  const internals = optimizer as unknown as AdamInternals;
  tf.tidy(() => {
    internals.accBeta1.assign(tf.scalar(state.accBeta1));
    internals.accBeta2.assign(tf.scalar(state.accBeta2));
  });
  return { network, optimizer, optimizerConfig: config, metadata };
}
