import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { evaluatePolicyValue } from '../../nn/inference.js';
import { buildNetwork } from '../../nn/networks.js';
import { loadNetwork, MetadataMismatchError, saveNetwork } from '../../nn/persistence.js';

const versions = { observationVersion: 'obs-test/1', actionSpaceVersion: 'actions-test/1' };
let dir: string;

describe('persistence', () => {
  beforeAll(async () => {
    await initBackend('wasm');
    dir = await mkdtemp(path.join(os.tmpdir(), 'yaniv-tf-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('save → load gives identical outputs (policy-value), in the standard tfjs layout with metadata', async () => {
    const net = buildNetwork({ kind: 'policy-value', observationSize: 5, actionCount: 4, hiddenUnits: [6], seed: 1 });
    const where = path.join(dir, 'pv');
    const training = { learningRate: 0.01, note: 'test' };
    await saveNetwork(net, where, { ...versions, training });
    const { network, metadata } = await loadNetwork(where, versions);
    const obs = Float32Array.from([0.1, -0.4, 2, 0, 1, 3, -1, 0.5, 0.25, -2]);
    const mask = [1, 1, 0, 1, 0, 1, 1, 1];
    expect(evaluatePolicyValue(network, obs, mask)).toEqual(evaluatePolicyValue(net, obs, mask));
    expect(metadata).toMatchObject({
      formatVersion: 1,
      ...versions,
      network: net.config,
      training,
      backend: 'wasm',
      tfjsVersion: tf.version.tfjs,
    });

    const modelJson = JSON.parse(await readFile(path.join(where, 'model.json'), 'utf8'));
    expect(modelJson.format).toBe('layers-model');
    expect(modelJson.weightsManifest[0].paths).toEqual(['weights.bin']);
    // The same files through tfjs's own loader (what a browser does over http): fromMemory with the raw bytes.
    const weights = await readFile(path.join(where, 'weights.bin'));
    const viaTfjs = await tf.loadLayersModel(
      tf.io.fromMemory(
        modelJson.modelTopology,
        modelJson.weightsManifest[0].weights,
        weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      ),
    );
    const x = tf.tensor2d(obs, [2, 5]);
    const [a, b] = [viaTfjs.predict(x) as tf.Tensor[], net.model.predict(x) as tf.Tensor[]];
    expect(Array.from(a[0].dataSync())).toEqual(Array.from(b[0].dataSync()));
    tf.dispose([x, ...a, ...b]);
    [net.model, network.model, viaTfjs].forEach((m) => m.dispose());
  });

  it('refuses a mismatch and says which version differs', async () => {
    const net = buildNetwork({ kind: 'policy-value', observationSize: 2, actionCount: 2, hiddenUnits: [2], seed: 1 });
    const where = path.join(dir, 'mismatch');
    await saveNetwork(net, where, versions);
    net.model.dispose();
    await expect(loadNetwork(where, { ...versions, observationVersion: 'obs-test/2' })).rejects.toThrow(
      'observation version differs: saved "obs-test/1", expected "obs-test/2"',
    );
    await expect(loadNetwork(where, { ...versions, actionSpaceVersion: 'actions-test/9' })).rejects.toThrow(
      'action-space version differs: saved "actions-test/1", expected "actions-test/9"',
    );
    const metaPath = path.join(where, 'metadata.json');
    const meta = JSON.parse(await readFile(metaPath, 'utf8'));
    // A network of another kind (the action-scoring kind this layer no longer builds) is refused by name.
    await writeFile(metaPath, JSON.stringify({ ...meta, network: { ...meta.network, kind: 'action-scoring' } }));
    await expect(loadNetwork(where, versions)).rejects.toBeInstanceOf(MetadataMismatchError);
    await expect(loadNetwork(where, versions)).rejects.toThrow('network kind differs: saved "action-scoring", expected "policy-value"');
    await writeFile(metaPath, JSON.stringify({ ...meta, formatVersion: 2 }));
    await expect(loadNetwork(where, versions)).rejects.toThrow('format version differs: saved 2, expected 1');
  });

  it('writes only the keys its strict schema reads back, and refuses others by name', async () => {
    // Every writer of metadata.json (saveNetwork, since format 1) parses it through ModelMetadataSchema, whose
    // network config comes from NetworkConfigSchema: files written before the schemas were strict hold no other key.
    const net = buildNetwork({ kind: 'policy-value', observationSize: 2, actionCount: 2, hiddenUnits: [2], seed: 1 });
    const where = path.join(dir, 'strict');
    await saveNetwork(net, where, { ...versions, training: { anything: { goes: 'here' } } });
    net.model.dispose();
    const metaPath = path.join(where, 'metadata.json');
    const meta = JSON.parse(await readFile(metaPath, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(meta).sort()).toEqual([
      'actionSpaceVersion',
      'backend',
      'createdAt',
      'formatVersion',
      'network',
      'observationVersion',
      'tfjsVersion',
      'training',
    ]);
    expect(Object.keys(meta.network).sort()).toEqual([
      'actionCount',
      'actionFeatures',
      'activation',
      'hiddenUnits',
      'kind',
      'observationSize',
      'seed',
    ]);

    await writeFile(metaPath, JSON.stringify({ ...meta, network: { ...meta.network, hiddenUnit: [3] } }));
    await expect(loadNetwork(where, versions)).rejects.toThrow(`metadata.json in ${where}: network: Unrecognized key: "hiddenUnit"`);
    await writeFile(metaPath, JSON.stringify({ ...meta, createdBy: 'someone' }));
    await expect(loadNetwork(where, versions)).rejects.toThrow(`metadata.json in ${where}: Unrecognized key: "createdBy"`);
    await expect(loadNetwork(where, { ...versions, observationVerison: 'x' } as never)).rejects.toThrow(
      'expected metadata: Unrecognized key: "observationVerison"',
    );
    await expect(saveNetwork(net, where, { ...versions, trainig: {} } as never)).rejects.toThrow(
      'save options: Unrecognized key: "trainig"',
    );
  });
});
