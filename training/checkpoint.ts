// A checkpoint is a saved network (see persistence.ts) plus the optimizer state beside it, so that a
// resumed run continues exactly: optimizer.json (config, bias-correction powers, weight specs) and
// optimizer.bin (iteration count, then the first and the second moments in the model's
// trainable-variable order, named "<variable>/m" and "<variable>/v", the layout tfjs's Adam getWeights uses).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { z } from 'zod';
import { FastAdam, OptimizerConfigSchema, type OptimizerConfig, type OptimizerConfigInput } from './fastAdam.js';
import { parseConfig } from '../nn/config.js';
import { trainableVariables, type Network } from '../nn/networks.js';
import { loadNetwork, saveNetwork, type ExpectedMetadata, type ModelMetadata, type SaveOptions } from '../nn/persistence.js';

export { OptimizerConfigSchema, type OptimizerConfig } from './fastAdam.js';

export const OPTIMIZER_JSON = 'optimizer.json';
export const OPTIMIZER_BIN = 'optimizer.bin';

const WeightSpecSchema = z
  .object({ name: z.string(), shape: z.array(z.number().int()), dtype: z.enum(['float32', 'int32', 'bool', 'string', 'complex64']) })
  .loose();

const OptimizerStateSchema = z.strictObject({
  optimizer: OptimizerConfigSchema,
  accBeta1: z.number().describe('running product β₁ᵗ'),
  accBeta2: z.number().describe('running product β₂ᵗ'),
  weightSpecs: z.array(WeightSpecSchema).describe('iteration counter and moment tensors in optimizer.bin'),
});

export function createOptimizer(config: OptimizerConfigInput): { optimizer: FastAdam; config: OptimizerConfig } {
  const optimizer = new FastAdam(config);
  return { optimizer, config: optimizer.config };
}

export interface Checkpoint {
  network: Network;
  optimizer: FastAdam;
  optimizerConfig: OptimizerConfig;
}

export async function saveCheckpoint(dir: string, checkpoint: Checkpoint, options: SaveOptions): Promise<ModelMetadata> {
  const metadata = await saveNetwork(checkpoint.network, dir, options);
  const state = checkpoint.optimizer.getState();
  const vars = trainableVariables(checkpoint.network.model);
  if (state.firstMoments.length > vars.length)
    throw new Error(`optimizer holds ${state.firstMoments.length} moments, the network has ${vars.length} trainable variables`);
  const moments = (suffix: string, list: Float32Array[]): { name: string; tensor: tf.Tensor }[] =>
    list.map((values, i) => ({ name: `${vars[i].name}/${suffix}`, tensor: tf.tensor(values, vars[i].shape, 'float32') }));
  const named: { name: string; tensor: tf.Tensor }[] = [
    { name: 'iter', tensor: tf.scalar(state.iterations, 'int32') },
    ...moments('m', state.firstMoments),
    ...moments('v', state.secondMoments),
  ];
  try {
    const { data, specs } = await tf.io.encodeWeights(named);
    const json: z.output<typeof OptimizerStateSchema> = {
      optimizer: checkpoint.optimizerConfig,
      accBeta1: state.accBeta1,
      accBeta2: state.accBeta2,
      weightSpecs: specs as z.output<typeof WeightSpecSchema>[],
    };
    await writeFile(path.join(dir, OPTIMIZER_BIN), new Uint8Array(data));
    await writeFile(path.join(dir, OPTIMIZER_JSON), JSON.stringify(json, null, 2) + '\n');
  } finally {
    tf.dispose(named.map((w) => w.tensor));
  }
  return metadata;
}

export async function loadCheckpoint(dir: string, expected: ExpectedMetadata): Promise<Checkpoint & { metadata: ModelMetadata }> {
  const { network, metadata } = await loadNetwork(dir, expected);
  const saved = parseConfig(
    OptimizerStateSchema,
    JSON.parse(await readFile(path.join(dir, OPTIMIZER_JSON), 'utf8')),
    `${OPTIMIZER_JSON} in ${dir}`,
  );
  const bytes = await readFile(path.join(dir, OPTIMIZER_BIN));
  const specs = saved.weightSpecs as tf.io.WeightsManifestEntry[];
  const tensors = tf.io.decodeWeights(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), specs);
  try {
    const iter = tensors.iter;
    if (iter === undefined) throw new Error(`${OPTIMIZER_BIN} in ${dir} has no iteration count`);
    const momentSpecs = specs.filter((s) => s.name !== 'iter');
    if (momentSpecs.length % 2 !== 0) throw new Error(`${OPTIMIZER_BIN} in ${dir} has an odd number of moment tensors`);
    const half = momentSpecs.length / 2;
    const read = (s: tf.io.WeightsManifestEntry): Float32Array => new Float32Array(tensors[s.name].dataSync() as Float32Array);
    const { optimizer, config } = createOptimizer(saved.optimizer);
    optimizer.setState({
      iterations: iter.dataSync()[0],
      accBeta1: saved.accBeta1,
      accBeta2: saved.accBeta2,
      firstMoments: momentSpecs.slice(0, half).map(read),
      secondMoments: momentSpecs.slice(half).map(read),
    });
    return { network, optimizer, optimizerConfig: config, metadata };
  } finally {
    tf.dispose(Object.values(tensors));
  }
}
