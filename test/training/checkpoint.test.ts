import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { createOptimizer, loadCheckpoint, saveCheckpoint } from '../../training/checkpoint.js';
import type { FastAdam } from '../../training/fastAdam.js';
import { buildNetwork, type Network, type PolicyValueConfig } from '../../nn/networks.js';
import { policyValueLoss, trainStep } from '../../training/losses.js';

const versions = { observationVersion: 'obs-test/1', actionSpaceVersion: 'actions-test/1' };
let dir: string;

function makeBatch(): Parameters<typeof policyValueLoss>[1] {
  return {
    observations: tf.tensor2d([0.5, -1, 2, 0.1, 0, 1, -0.5, 0.3], [2, 4]),
    legalMask: tf.tensor2d([1, 1, 0, 0, 1, 1], [2, 3]),
    targetPolicy: tf.tensor2d([0.7, 0.3, 0, 0, 0.5, 0.5], [2, 3]),
    targetValue: tf.tensor2d([1, -1], [2, 1]),
  };
}

function train(net: Network<PolicyValueConfig>, optimizer: FastAdam, batch: ReturnType<typeof makeBatch>, steps: number): void {
  for (let i = 0; i < steps; i++) tf.dispose(trainStep(optimizer, net.model, () => policyValueLoss(net, batch)));
}

const weightsOf = (net: Network): number[][] => net.model.getWeights().map((t) => Array.from(t.dataSync()));

describe('checkpoint', () => {
  beforeAll(async () => {
    await initBackend('wasm');
    dir = await mkdtemp(path.join(os.tmpdir(), 'yaniv-ckpt-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('does not leak tensors when saving and loading', async () => {
    const net = buildNetwork({ kind: 'policy-value', observationSize: 4, actionCount: 3, hiddenUnits: [5], seed: 9 });
    const { optimizer, config } = createOptimizer({ kind: 'adam' });
    const batch = makeBatch();
    train(net, optimizer, batch, 2);
    const where = path.join(dir, 'leak');
    const before = tf.memory().numTensors;
    await saveCheckpoint(where, { network: net, optimizer, optimizerConfig: config }, versions);
    expect(tf.memory().numTensors).toBe(before);
    const loaded = await loadCheckpoint(where, versions);
    const weights = net.model.getWeights().length;
    // The loaded network's weights, and Adam's two flat moment vectors.
    expect(tf.memory().numTensors - before).toBe(weights + 2);
    expect(loaded.optimizer.getState()).toEqual(optimizer.getState());
    loaded.network.model.dispose();
    loaded.optimizer.dispose();
    net.model.dispose();
    optimizer.dispose();
    tf.dispose(Object.values(batch));
  });

  it('restores optimizer state so that resuming continues exactly', async () => {
    const batch = makeBatch();
    const net = buildNetwork({ kind: 'policy-value', observationSize: 4, actionCount: 3, hiddenUnits: [5], seed: 9 });
    const { optimizer, config } = createOptimizer({ kind: 'adam', learningRate: 0.05 });
    train(net, optimizer, batch, 7);
    await saveCheckpoint(dir, { network: net, optimizer, optimizerConfig: config }, { ...versions, training: { steps: 7 } });
    train(net, optimizer, batch, 5);
    const continued = weightsOf(net);

    const resumed = await loadCheckpoint(dir, versions);
    expect(resumed.optimizerConfig).toEqual(config);
    expect(resumed.optimizer.iterations).toBe(7);
    expect(resumed.metadata.training).toEqual({ steps: 7 });
    train(resumed.network, resumed.optimizer, batch, 5);
    expect(weightsOf(resumed.network)).toEqual(continued);

    // A fresh optimizer on the same weights would not continue the same way.
    const naive = await loadCheckpoint(dir, versions);
    train(naive.network, createOptimizer(config).optimizer, batch, 5);
    expect(weightsOf(naive.network)).not.toEqual(continued);

    // optimizer.json holds exactly what its strict schema reads; another key is refused by name.
    const optimizerJson = path.join(dir, 'optimizer.json');
    const saved = JSON.parse(await readFile(optimizerJson, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual(['accBeta1', 'accBeta2', 'optimizer', 'weightSpecs']);
    await writeFile(optimizerJson, JSON.stringify({ ...saved, optimizer: { ...(saved.optimizer as object), momentum: 0.9 } }));
    await expect(loadCheckpoint(dir, versions)).rejects.toThrow(`optimizer.json in ${dir}: optimizer: Unrecognized key: "momentum"`);

    [net, resumed.network, naive.network].forEach((n) => n.model.dispose());
    tf.dispose(Object.values(batch));
  });
});
