// The run folder's layout and its crash safety: a checkpoint written whole and swapped in by renames
// (a kill between them leaves checkpoint.old/, which a resume finds), league weights read back,
// trainer.json checked with the file named, metrics cut back to a checkpoint, evaluation snapshots
// promoted to best/ or deleted.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork } from '../../nn/networks.js';
import { createOptimizer } from '../../training/checkpoint.js';
import { RunFolder } from '../../training/runFolder.js';

let root = '';
const versions = { observationVersion: 'obs-test/1', actionSpaceVersion: 'actions-test/1' };
const stateSchema = z.strictObject({ iteration: z.int() });

beforeAll(async () => {
  await initBackend('wasm');
  root = mkdtempSync(path.join(os.tmpdir(), 'yaniv-run-folder-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function writeOne(folder: RunFolder, iteration: number): Promise<string> {
  const network = buildNetwork({ kind: 'policy-value', observationSize: 4, actionCount: 3, hiddenUnits: [5], seed: iteration });
  const { optimizer, config } = createOptimizer({ kind: 'adam' });
  try {
    return await folder.writeCheckpoint({
      checkpoint: { network, optimizer, optimizerConfig: config },
      metadata: versions,
      league: [{ id: 7, episodes: 3, weights: Float32Array.from([1.5, -2, iteration]) }],
      state: { iteration },
    });
  } finally {
    optimizer.dispose();
    network.model.dispose();
  }
}

describe('run folder', () => {
  it('writes a whole checkpoint, swaps it in, and reads its state and league back', async () => {
    const folder = new RunFolder(path.join(root, 'a'));
    folder.create();
    expect(folder.findCheckpoint()).toBeNull();
    expect(await writeOne(folder, 1)).toBe(folder.checkpointDir);
    expect(await writeOne(folder, 2)).toBe(folder.checkpointDir);
    expect(existsSync(`${folder.checkpointDir}.tmp`)).toBe(false);
    expect(existsSync(`${folder.checkpointDir}.old`)).toBe(false);
    const dir = folder.findCheckpoint() as string;
    expect(dir).toBe(folder.checkpointDir);
    expect(folder.readTrainerState(dir, stateSchema)).toEqual({ iteration: 2 });
    const [snapshot] = folder.readLeague(dir, [{ id: 7, episodes: 3 }]);
    expect(Array.from(snapshot.weights)).toEqual([1.5, -2, 2]);
    expect(existsSync(path.join(dir, 'optimizer.bin'))).toBe(true);
  });

  it('finds checkpoint.old/ after a kill between the two renames, and names a bad trainer.json', async () => {
    const folder = new RunFolder(path.join(root, 'b'));
    folder.create();
    await writeOne(folder, 5);
    // The first rename of the swap done, the second not.
    renameSync(folder.checkpointDir, `${folder.checkpointDir}.old`);
    const dir = folder.findCheckpoint() as string;
    expect(dir).toBe(`${folder.checkpointDir}.old`);
    expect(folder.readTrainerState(dir, stateSchema)).toEqual({ iteration: 5 });
    await writeOne(folder, 6);
    expect(folder.findCheckpoint()).toBe(folder.checkpointDir);
    writeFileSync(path.join(folder.checkpointDir, 'trainer.json'), '{"iteration": "six"}');
    expect(() => folder.readTrainerState(folder.checkpointDir, stateSchema)).toThrow(/trainer\.json: iteration/);
  });

  it('cuts metrics back to a checkpoint and promotes or deletes evaluation snapshots', () => {
    const folder = new RunFolder(path.join(root, 'c'));
    folder.create();
    folder.startMetrics();
    for (const iteration of [1, 2, 3]) folder.appendMetrics({ type: 'iteration', iteration });
    folder.appendMetrics({ type: 'evaluation', iteration: 3 });
    folder.truncateMetrics(2);
    const lines = readFileSync(path.join(folder.root, 'metrics.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { iteration: number }).iteration)).toEqual([1, 2]);

    const first = folder.evaluationSnapshotDir(10);
    expect(first).toBe(path.join(folder.root, 'eval', 'iter-000010'));
    mkdirSync(first, { recursive: true });
    writeFileSync(path.join(first, 'model.json'), '10');
    folder.finishEvaluation(first, true);
    const second = folder.evaluationSnapshotDir(20);
    mkdirSync(second, { recursive: true });
    writeFileSync(path.join(second, 'model.json'), '20');
    folder.finishEvaluation(second, false);
    expect(readFileSync(path.join(folder.root, 'best', 'model.json'), 'utf8')).toBe('10');
    expect(existsSync(path.join(folder.root, 'eval'))).toBe(false);
  });
});
