// yaniv average-models: the weight average of models of one network, rules and adviser, the
// first folder's training record kept, and a clear refusal of folders that do not mix.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { MODEL_CONTRACT } from '../../env/gym/modelContract.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork, getFlatWeights } from '../../nn/networks.js';
import { loadNetwork, saveNetwork } from '../../nn/persistence.js';
import { averageModels } from '../../training/averageModels.js';
import { trainingRecord } from '../agents/modelFixtures.js';

let folder = '';

/** A tiny model folder with its own random weights and the given training record. */
async function tinyModel(name: string, seed: number, training: Record<string, unknown>, hiddenUnits = [6]): Promise<string> {
  const net = buildNetwork({ kind: 'policy-value', observationSize: OBSERVATION_SIZE, actionCount: ACTION_COUNT, hiddenUnits, seed });
  const dir = path.join(folder, name);
  await saveNetwork(net, dir, { ...MODEL_CONTRACT, training });
  net.model.dispose();
  return dir;
}

async function flatWeights(dir: string): Promise<Float32Array> {
  const { network } = await loadNetwork(dir, MODEL_CONTRACT);
  const flat = getFlatWeights(network.model);
  network.model.dispose();
  return flat;
}

const withAdviser = (adviser: string, extra: Record<string, unknown> = {}) =>
  trainingRecord({ hyperParameters: { adviser }, episodes: 100, ...extra });

beforeAll(async () => {
  await initBackend('wasm');
  folder = mkdtempSync(path.join(tmpdir(), 'yaniv-average-'));
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('averageModels', () => {
  it('writes the mean of every weight, keeping the first folder’s training record and naming every folder averaged', async () => {
    const a = await tinyModel(
      'a',
      1,
      withAdviser('strong', {
        players: [3],
        benchmark: { rules: 'standard', results: {} },
        commandLines: [['yaniv', 'train', '--players', '3']],
      }),
    );
    const b = await tinyModel('b', 2, withAdviser('strong', { players: [4] }));
    const c = await tinyModel('c', 3, withAdviser('strong', { players: [3] }));
    const out = path.join(folder, 'soup');
    await averageModels([a, b, c], out, ['yaniv', 'average-models', a, b, c, '--out', out]);

    const [wa, wb, wc, mean] = await Promise.all([a, b, c, out].map(flatWeights));
    expect(wa.some((x, i) => x !== wb[i])).toBe(true);
    mean.forEach((x, i) => expect(x).toBeCloseTo((wa[i] + wb[i] + wc[i]) / 3, 6));

    const training = (JSON.parse(readFileSync(path.join(out, 'metadata.json'), 'utf8')) as { training: Record<string, unknown> }).training;
    expect(training.players).toEqual([3]);
    expect(training.hyperParameters).toEqual({ adviser: 'strong' });
    // The base's published figures are not the average's.
    expect(training.benchmark).toBeNull();
    expect(training.averageOf).toEqual([
      { dir: a, players: [3], episodes: 100 },
      { dir: b, players: [4], episodes: 100 },
      { dir: c, players: [3], episodes: 100 },
    ]);
    expect(training.commandLines).toEqual([
      ['yaniv', 'train', '--players', '3'],
      ['yaniv', 'average-models', a, b, c, '--out', out],
    ]);
  });

  it.each([
    ['another adviser', withAdviser('intermediate'), [6], /its adviser is "intermediate", not "strong"/],
    ['other rules', withAdviser('strong', { rules: { preset: 'dutch', rules: {} } }), [6], /its rules is .*dutch.*, not .*standard/],
    ['another network', withAdviser('strong'), [8], /its network \(hidden units\) is \[8\], not \[6\]/],
  ])('refuses a folder with %s, naming it and what differs', async (what, training, hiddenUnits, message) => {
    const base = await tinyModel(`base-${what}`, 4, withAdviser('strong'));
    const other = await tinyModel(`other-${what}`, 5, training, hiddenUnits);
    const out = path.join(folder, `never-${what}`);
    await expect(averageModels([base, other], out, [])).rejects.toThrow(message);
    await expect(averageModels([base, other], out, [])).rejects.toThrow(other);
  });

  it('refuses fewer than two folders and a folder with no model, naming it', async () => {
    const only = await tinyModel('only', 6, withAdviser('strong'));
    await expect(averageModels([only], path.join(folder, 'x'), [])).rejects.toThrow('give two or more model folders to average (got 1)');
    const missing = path.join(folder, 'missing');
    await expect(averageModels([only, missing], path.join(folder, 'y'), [])).rejects.toThrow(`no model in ${missing}`);
  });
});
