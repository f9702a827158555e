/**
 * A training run's folder. This module alone knows its layout:
 *
 *   checkpoint/      the latest checkpoint: network and optimizer (checkpoint.ts), trainer.json
 *                    (counters, league, random state), league/<id>.bin (the past snapshots' weights)
 *   best/            the best evaluated network (agents/models/modelFolder.ts looks for best/, then checkpoint/)
 *   eval/iter-N/     the network an evaluation is playing, until it becomes best/ or is deleted
 *   metrics.jsonl    one line per iteration and per evaluation; curve.svg drawn from it (curve.ts)
 *   redis-run.txt    the Redis run ID of a run trained with --redis (a resume keeps it)
 *
 * A checkpoint is written whole to checkpoint.tmp/ and swapped in by two renames (checkpoint/ →
 * checkpoint.old/, then checkpoint.tmp/ → checkpoint/), so a kill at any moment leaves one whole
 * checkpoint: `findCheckpoint` also looks in checkpoint.old/, for a kill between the renames.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { parseConfig } from '../nn/config.js';
import type { SaveOptions } from '../nn/persistence.js';
import { type Checkpoint, saveCheckpoint } from './checkpoint.js';
import { CURVE_FILE, METRICS_FILE, readMetrics, writeCurve } from './curve.js';
import type { Snapshot } from './league.js';

export const CHECKPOINT_DIR = 'checkpoint';
export const BEST_DIR = 'best';
export const TRAINER_STATE = 'trainer.json';
const LEAGUE_DIR = 'league';
const EVAL_DIR = 'eval';
/** The Redis run ID of a run trained with --redis, so that a resume goes on under the same ID. */
const REDIS_RUN_FILE = 'redis-run.txt';

/** What a checkpoint holds besides the network and the optimizer. */
export interface CheckpointContents {
  checkpoint: Checkpoint;
  /** The saved network's metadata (versions, the training record). */
  metadata: SaveOptions;
  league: readonly Snapshot[];
  /** trainer.json. */
  state: object;
  /** The whole-deal critic (critic.ts), saved in the checkpoint's critic/ and nowhere else. */
  critic?: { save(dir: string, training: Record<string, unknown>): Promise<void> };
}

export class RunFolder {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  get checkpointDir(): string {
    return path.join(this.root, CHECKPOINT_DIR);
  }

  get curveFile(): string {
    return path.join(this.root, CURVE_FILE);
  }

  /** Creates the folder (a fresh run) if it is not there. */
  create(): void {
    mkdirSync(this.root, { recursive: true });
  }

  /** The checkpoint to resume from: checkpoint/, or checkpoint.old/ when a kill came between the two renames; null for no run. */
  findCheckpoint(): string | null {
    for (const name of [CHECKPOINT_DIR, `${CHECKPOINT_DIR}.old`]) {
      const dir = path.join(this.root, name);
      if (existsSync(path.join(dir, TRAINER_STATE))) return dir;
    }
    return null;
  }

  /** A checkpoint's trainer.json, checked against `schema` (an error names the file and the fields). */
  readTrainerState<S extends z.ZodType>(dir: string, schema: S): z.output<S> {
    const file = path.join(dir, TRAINER_STATE);
    return parseConfig(schema, JSON.parse(readFileSync(file, 'utf8')), file);
  }

  /** The league snapshots a checkpoint lists, with their weights from its league/ folder. */
  readLeague(dir: string, entries: readonly { id: number; episodes: number }[]): Snapshot[] {
    return entries.map(({ id, episodes }) => {
      const bytes = readFileSync(path.join(dir, LEAGUE_DIR, `${id}.bin`));
      return { id, episodes, weights: new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) };
    });
  }

  /** Writes a whole checkpoint and swaps it in; returns its folder. */
  async writeCheckpoint(contents: CheckpointContents): Promise<string> {
    const tmp = path.join(this.root, `${CHECKPOINT_DIR}.tmp`);
    rmSync(tmp, { recursive: true, force: true });
    await saveCheckpoint(tmp, contents.checkpoint, contents.metadata);
    mkdirSync(path.join(tmp, LEAGUE_DIR));
    for (const { id, weights } of contents.league)
      writeFileSync(path.join(tmp, LEAGUE_DIR, `${id}.bin`), new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength));
    writeFileSync(path.join(tmp, TRAINER_STATE), JSON.stringify(contents.state, null, 1) + '\n');
    await contents.critic?.save(tmp, contents.metadata.training ?? {});
    replaceDir(tmp, this.checkpointDir);
    return this.checkpointDir;
  }

  /** Starts an empty metrics.jsonl (a fresh run). */
  startMetrics(): void {
    writeFileSync(path.join(this.root, METRICS_FILE), '');
  }

  appendMetrics(line: object): void {
    writeFileSync(path.join(this.root, METRICS_FILE), JSON.stringify(line) + '\n', { flag: 'a' });
  }

  /** Keeps only the metrics lines up to the checkpoint's iteration (a killed run may have written more). */
  truncateMetrics(iteration: number): void {
    const kept = readMetrics(this.root).filter((line) => typeof line.iteration === 'number' && line.iteration <= iteration);
    writeFileSync(path.join(this.root, METRICS_FILE), kept.map((line) => JSON.stringify(line) + '\n').join(''));
  }

  /** Where the network of the evaluation at `iteration` is saved while it plays. */
  evaluationSnapshotDir(iteration: number): string {
    return path.join(this.root, EVAL_DIR, `iter-${String(iteration).padStart(6, '0')}`);
  }

  /** An evaluation is over: its network becomes best/ (when `best`) or is deleted. */
  finishEvaluation(snapshot: string, best: boolean): void {
    if (best) {
      rmSync(path.join(this.root, BEST_DIR), { recursive: true, force: true });
      renameSync(snapshot, path.join(this.root, BEST_DIR));
    }
    rmSync(path.join(this.root, EVAL_DIR), { recursive: true, force: true });
  }

  /** The Redis run ID this run was trained under, or null. */
  redisRun(): string | null {
    const file = path.join(this.root, REDIS_RUN_FILE);
    return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
  }

  saveRedisRun(run: string): void {
    writeFileSync(path.join(this.root, REDIS_RUN_FILE), run + '\n');
  }

  /** Redraws curve.svg from metrics.jsonl. */
  writeCurve(): Promise<string> {
    return writeCurve(this.root);
  }
}

/** Replaces folder `to` by `from` with renames only, so a reader never sees half of either. */
function replaceDir(from: string, to: string): void {
  const old = `${to}.old`;
  rmSync(old, { recursive: true, force: true });
  if (existsSync(to)) renameSync(to, old);
  renameSync(from, to);
  rmSync(old, { recursive: true, force: true });
}
