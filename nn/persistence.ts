// Networks on disk in the standard tfjs layout (model.json + weights.bin, as tfjs-node's file:// and
// tf.loadLayersModel over http read it), written by a handler for plain Node, plus metadata.json.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { z } from 'zod';
import { parseConfig } from './config.js';
import { METADATA_JSON, MODEL_JSON, WEIGHTS_BIN } from './modelFiles.js';
import { NETWORK_KIND, NetworkConfigSchema, type Network } from './networks.js';

export const MODEL_FORMAT_VERSION = 1;
export { METADATA_JSON, MODEL_JSON, WEIGHTS_BIN } from './modelFiles.js';

export const ModelMetadataSchema = z.strictObject({
  formatVersion: z.number().int().describe('version of this directory layout and metadata schema'),
  observationVersion: z.string().min(1).describe('version of the observation encoding the network was trained on'),
  actionSpaceVersion: z.string().min(1).describe('version of the action space the network was trained on'),
  actionFeaturesVersion: z
    .string()
    .min(1)
    .optional()
    .describe('version of the per-action features an action-scoring network (network.actionFeatures > 0) was trained on'),
  network: NetworkConfigSchema.describe('config the network was built from'),
  training: z.record(z.string(), z.unknown()).describe('training config of the run that produced it, opaque here'),
  qHead: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("the model's move-evaluation head beside it, opaque here (agents/models/modelCard.ts reads it)"),
  panel: z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .describe('results measured of the model and kept with it, opaque here (agents/models/modelCard.ts reads them)'),
  backend: z.string().describe('tfjs backend that wrote it'),
  tfjsVersion: z.string().describe('tfjs version that wrote it'),
  createdAt: z.string().describe('ISO time of writing'),
});
export type ModelMetadata = z.output<typeof ModelMetadataSchema>;

export const SaveOptionsSchema = z.strictObject({
  observationVersion: z.string().min(1).describe('version string supplied by the observation encoder'),
  actionSpaceVersion: z.string().min(1).describe('version string supplied by the action space'),
  actionFeaturesVersion: z
    .string()
    .min(1)
    .optional()
    .describe('version string supplied by the action features (kept for networks that score actions)'),
  training: z.record(z.string(), z.unknown()).default({}).describe('training config to record, opaque here'),
});
export type SaveOptions = z.input<typeof SaveOptionsSchema>;

/** What the loading side needs; each given field must equal the saved one. */
export const ExpectedMetadataSchema = z.strictObject({
  observationVersion: z.string().min(1).describe('observation version this build produces'),
  actionSpaceVersion: z.string().min(1).describe('action-space version this build uses'),
  actionFeaturesVersion: z
    .string()
    .min(1)
    .optional()
    .describe('action-features version this build computes (checked for networks that score actions)'),
});
export type ExpectedMetadata = z.input<typeof ExpectedMetadataSchema>;

export class MetadataMismatchError extends Error {
  constructor(
    readonly field: string,
    readonly saved: unknown,
    readonly expected: unknown,
    dir: string,
  ) {
    super(`model in ${dir}: ${field} differs: saved ${JSON.stringify(saved)}, expected ${JSON.stringify(expected)}`);
    this.name = 'MetadataMismatchError';
  }
}

/** tf.io handler reading and writing model.json + weights.bin in a directory with node:fs. */
export function nodeFileHandler(dir: string): tf.io.IOHandler {
  return {
    async save(artifacts: tf.io.ModelArtifacts): Promise<tf.io.SaveResult> {
      if (artifacts.modelTopology === undefined || artifacts.modelTopology instanceof ArrayBuffer) {
        throw new Error('only JSON model topologies can be saved');
      }
      await mkdir(dir, { recursive: true });
      const weights = artifacts.weightData === undefined ? new ArrayBuffer(0) : tf.io.CompositeArrayBuffer.join(artifacts.weightData);
      const modelJson: tf.io.ModelJSON = {
        modelTopology: artifacts.modelTopology,
        format: artifacts.format,
        generatedBy: artifacts.generatedBy,
        convertedBy: artifacts.convertedBy,
        weightsManifest: [{ paths: [WEIGHTS_BIN], weights: artifacts.weightSpecs ?? [] }],
      };
      if (artifacts.trainingConfig !== undefined) modelJson.trainingConfig = artifacts.trainingConfig;
      if (artifacts.userDefinedMetadata !== undefined) modelJson.userDefinedMetadata = artifacts.userDefinedMetadata;
      await writeFile(path.join(dir, WEIGHTS_BIN), new Uint8Array(weights));
      await writeFile(path.join(dir, MODEL_JSON), JSON.stringify(modelJson));
      return { modelArtifactsInfo: tf.io.getModelArtifactsInfoForJSON(modelJson) };
    },
    async load(): Promise<tf.io.ModelArtifacts> {
      const modelJson = JSON.parse(await readFile(path.join(dir, MODEL_JSON), 'utf8')) as tf.io.ModelJSON;
      return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
        const specs = manifest.flatMap((group) => group.weights);
        const buffers: ArrayBuffer[] = [];
        for (const group of manifest) {
          for (const file of group.paths) {
            const bytes = await readFile(path.join(dir, file));
            buffers.push(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
          }
        }
        return [specs, tf.io.CompositeArrayBuffer.join(buffers)];
      });
    },
  };
}

/** Writes the network and its metadata.json into dir (created if missing). */
export async function saveNetwork(network: Network, dir: string, options: SaveOptions): Promise<ModelMetadata> {
  const opts = parseConfig(SaveOptionsSchema, options, 'save options');
  const metadata = parseConfig(
    ModelMetadataSchema,
    {
      formatVersion: MODEL_FORMAT_VERSION,
      observationVersion: opts.observationVersion,
      actionSpaceVersion: opts.actionSpaceVersion,
      ...(network.config.actionFeatures > 0 && opts.actionFeaturesVersion !== undefined
        ? { actionFeaturesVersion: opts.actionFeaturesVersion }
        : {}),
      network: network.config,
      training: structuredClone(opts.training),
      backend: tf.getBackend(),
      tfjsVersion: tf.version.tfjs,
      createdAt: new Date().toISOString(),
    },
    'model metadata',
  );
  await network.model.save(nodeFileHandler(dir));
  await writeFile(path.join(dir, METADATA_JSON), JSON.stringify(metadata, null, 2) + '\n');
  return metadata;
}

/** Reads and validates metadata.json, refusing a directory written for other versions. */
export async function readMetadata(dir: string, expected: ExpectedMetadata): Promise<ModelMetadata> {
  const want = parseConfig(ExpectedMetadataSchema, expected, 'expected metadata');
  const raw: unknown = JSON.parse(await readFile(path.join(dir, METADATA_JSON), 'utf8'));
  const formatVersion = (raw as { formatVersion?: unknown } | null)?.formatVersion;
  if (formatVersion !== MODEL_FORMAT_VERSION) throw new MetadataMismatchError('format version', formatVersion, MODEL_FORMAT_VERSION, dir);
  // One network kind is built and driven here (an action-scoring network once was: refused by name, not by a schema issue).
  const kind = (raw as { network?: { kind?: unknown } }).network?.kind;
  if (kind !== NETWORK_KIND) throw new MetadataMismatchError('network kind', kind, NETWORK_KIND, dir);
  const metadata = parseConfig(ModelMetadataSchema, raw, `${METADATA_JSON} in ${dir}`);
  if (metadata.observationVersion !== want.observationVersion) {
    throw new MetadataMismatchError('observation version', metadata.observationVersion, want.observationVersion, dir);
  }
  if (metadata.actionSpaceVersion !== want.actionSpaceVersion) {
    throw new MetadataMismatchError('action-space version', metadata.actionSpaceVersion, want.actionSpaceVersion, dir);
  }
  if (metadata.network.actionFeatures > 0) {
    // Saved without the field: written before it existed, by builds whose features were the first version.
    const saved = metadata.actionFeaturesVersion ?? FIRST_ACTION_FEATURES_VERSION;
    if (saved !== want.actionFeaturesVersion)
      throw new MetadataMismatchError('action-features version', saved, want.actionFeaturesVersion, dir);
  }
  return metadata;
}

const FIRST_ACTION_FEATURES_VERSION = 'yaniv-action-features/1';

/** Loads a network saved by saveNetwork, after checking its metadata against what the caller expects. */
export async function loadNetwork(dir: string, expected: ExpectedMetadata): Promise<{ network: Network; metadata: ModelMetadata }> {
  const metadata = await readMetadata(dir, expected);
  const model = await tf.loadLayersModel(nodeFileHandler(dir));
  return { network: { config: metadata.network, model }, metadata };
}
