/**
 * The trajectory batch that crosses the actor ↔ learner boundary, defined once: `TRAJECTORY_COLUMNS`
 * names each column with its element type and its width (values per decision). Allocation, the
 * rollout's slot store, merging the actors' parts, the transfer list of a worker thread and the wire
 * encoding (MessagePack) are all derived from it, and so is the `TrajectoryBatch` type; a new column
 * is one line here.
 *
 * The rollout statistics that travel with a batch have one list too: `SUMMED_STATS` (added up over
 * the actors), beside `seconds` (the slowest actor's) and `outcomes` (added per opponent).
 */
import { Packr } from 'msgpackr';
import { ACTION_CONTEXT_SIZE } from '../env/gym/actionFeatures.js';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import { WHOLE_DEAL_HIDDEN_SIZE } from '../env/gym/wholeDeal.js';

/** The element types a column may have, by their wire name. */
const ARRAY_TYPES = { f32: Float32Array, u8: Uint8Array, i16: Int16Array } as const;
type ElementType = keyof typeof ARRAY_TYPES;
interface ElementArrays {
  f32: Float32Array;
  u8: Uint8Array;
  i16: Int16Array;
}
type ArrayOf<E extends ElementType> = ElementArrays[E];
type AnyColumnArray = ArrayOf<ElementType>;

interface ColumnSpec {
  readonly type: ElementType;
  readonly width: number;
  /** Present only in some batches (null in the others). */
  readonly optional?: true;
  readonly doc: string;
}

/** The columns of a trajectory batch, in wire order (see rollout.ts for what each value means). */
export const TRAJECTORY_COLUMNS = {
  observations: { type: 'f32', width: OBSERVATION_SIZE, doc: 'the observation of the decision' },
  masks: { type: 'u8', width: ACTION_COUNT, doc: 'legal actions, 1 = legal' },
  actionContexts: {
    type: 'i16',
    width: ACTION_CONTEXT_SIZE,
    doc: "the seat's action context (env/gym/actionFeatures.ts): its actions' features derive from it",
  },
  actions: { type: 'i16', width: 1, doc: 'the action taken' },
  adviserActions: { type: 'i16', width: 1, doc: "the adviser's choice, a feature of networks trained with one (−1: no adviser)" },
  logProbs: { type: 'f32', width: 1, doc: 'log p(action) under the acting weights' },
  values: { type: 'f32', width: 1, doc: "the value head's estimate" },
  rewards: { type: 'f32', width: 1, doc: "the seat's rewards up to its next decision" },
  nextValues: { type: 'f32', width: 1, doc: 'the value the return bootstraps from' },
  dones: { type: 'u8', width: 1, doc: '1 where the return ends, 2 where the game was cut short (the next value is then its own)' },
  segmentEnds: { type: 'u8', width: 1, doc: "1 on a stream's last decision in this batch" },
  teacherActions: { type: 'i16', width: 1, optional: true, doc: "imitation batches: the teacher's action (−1: no label)" },
  wholeDeal: {
    type: 'f32',
    width: WHOLE_DEAL_HIDDEN_SIZE,
    optional: true,
    doc: 'runs with --critic whole-deal: what the seat cannot see (env/gym/wholeDeal.ts), the critic reads it after the observation',
  },
  rolloutValues: {
    type: 'f32',
    width: 1,
    optional: true,
    doc: "runs with --critic rollout: the mean equity change of the round played out from the decision's true state (training/rolloutCritic.ts)",
  },
} as const satisfies Record<string, ColumnSpec>;

type Columns = typeof TRAJECTORY_COLUMNS;
export type ColumnName = keyof Columns;
export type OptionalName = { [N in ColumnName]: Columns[N] extends { optional: true } ? N : never }[ColumnName];
type ColumnArray<N extends ColumnName> = ArrayOf<Columns[N]['type']>;

/** Every column, allocated (the rollout's store). */
export type TrajectoryColumnArrays = { [N in ColumnName]: ColumnArray<N> };

/** The learner's decisions of one batch, stream by stream (see rollout.ts): `count` rows of every column. */
export type TrajectoryBatch = { count: number } & { [N in Exclude<ColumnName, OptionalName>]: ColumnArray<N> } & {
  [N in OptionalName]: ColumnArray<N> | null;
};

export const COLUMN_NAMES = Object.keys(TRAJECTORY_COLUMNS) as ColumnName[];

function spec(name: ColumnName): ColumnSpec {
  return TRAJECTORY_COLUMNS[name];
}

function allocate(name: ColumnName, rows: number): AnyColumnArray {
  const { type, width } = spec(name);
  return new ARRAY_TYPES[type](rows * width);
}

/** A column of a batch, or null where an optional column is absent. */
export function column(batch: TrajectoryBatch | TrajectoryColumnArrays, name: ColumnName): AnyColumnArray | null {
  return (batch as Record<ColumnName, AnyColumnArray | null>)[name];
}

/** Builds a batch of `count` rows from one array (or null) per column. */
function assemble(count: number, make: (name: ColumnName) => AnyColumnArray | null): TrajectoryBatch {
  const batch: Record<string, unknown> = { count };
  for (const name of COLUMN_NAMES) batch[name] = make(name);
  return batch as TrajectoryBatch;
}

/** Whether an optional column is wanted: `true` every one, else those listed. */
function wanted(name: ColumnName, optional: boolean | readonly OptionalName[]): boolean {
  return !spec(name).optional || optional === true || (optional !== false && (optional as readonly ColumnName[]).includes(name));
}

/** A batch of `count` decisions, all zero; of the optional columns those `optional` asks for (true: all). */
export function emptyTrajectoryBatch(count: number, optional: boolean | readonly OptionalName[]): TrajectoryBatch {
  return assemble(count, (name) => (wanted(name, optional) ? allocate(name, count) : null));
}

/**
 * Every column with room for `rows` decisions, `old`'s rows copied in front (growing a store); the
 * optional columns not asked for (`optional`, true: all) are left empty.
 */
export function growColumns(
  old: TrajectoryColumnArrays | null,
  rows: number,
  optional: boolean | readonly OptionalName[] = true,
): TrajectoryColumnArrays {
  const grown: Record<string, AnyColumnArray> = {};
  for (const name of COLUMN_NAMES) {
    const next = allocate(name, wanted(name, optional) ? rows : 0);
    if (old) next.set(old[name]);
    grown[name] = next;
  }
  return grown as TrajectoryColumnArrays;
}

/** Copies row `from` of `source` into row `to` of `target`, every column `target` has. */
export function copyRow(source: TrajectoryColumnArrays, from: number, target: TrajectoryBatch, to: number): void {
  for (const name of COLUMN_NAMES) {
    const into = column(target, name);
    if (into === null) continue;
    const { width } = spec(name);
    const out = source[name];
    if (width === 1) into[to] = out[from];
    else into.set(out.subarray(from * width, (from + 1) * width), to * width);
  }
}

/** Concatenates the actors' parts of one batch (each stream-ordered with its own segment ends); an optional column survives only if every part has it. */
export function mergeTrajectoryBatches(parts: readonly TrajectoryBatch[]): TrajectoryBatch {
  if (parts.length === 1) return parts[0];
  const count = parts.reduce((n, p) => n + p.count, 0);
  return assemble(count, (name) => {
    const pieces = parts.map((p) => column(p, name));
    if (pieces.some((piece) => piece === null)) return null;
    const out = allocate(name, count);
    let at = 0;
    for (const piece of pieces as AnyColumnArray[]) {
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  });
}

/** The buffers of a batch, for a worker thread's transfer list. */
export function trajectoryBuffers(batch: TrajectoryBatch): ArrayBuffer[] {
  return COLUMN_NAMES.flatMap((name) => {
    const array = column(batch, name);
    return array === null ? [] : [array.buffer as ArrayBuffer];
  });
}

// ---- The wire encoding ----

/** Bumped when the columns or the encoding change: an actor and a learner of different formats refuse each other's batches. */
export const TRAJECTORY_WIRE_FORMAT = 'yaniv-trajectories/4';

/** A batch that cannot be read (truncated, foreign, or of another format); the message names what is wrong. */
export class TrajectoryDecodeError extends Error {
  override name = 'TrajectoryDecodeError';
}

/** The one MessagePack setup of the wire: plain maps, no records, no extension types. */
export const wirePackr = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false });

/** Unpacks wire bytes, or throws a TrajectoryDecodeError saying they are not MessagePack. */
export function unpackWire(bytes: Uint8Array): unknown {
  try {
    return wirePackr.unpack(bytes);
  } catch (error) {
    throw new TrajectoryDecodeError(`not MessagePack: ${(error as Error).message.slice(0, 200)}`);
  }
}

function bytesOf(array: AnyColumnArray): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * A batch as plain MessagePack: `{ format, count, columns: { name: [type, width, bytes] } }`, the
 * bytes little-endian (every platform Node runs on), so any language's decoder reads it.
 */
export function encodeTrajectoryBatch(batch: TrajectoryBatch): Uint8Array {
  const columns: Record<string, [ElementType, number, Uint8Array]> = {};
  for (const name of COLUMN_NAMES) {
    const array = column(batch, name);
    if (array !== null) columns[name] = [spec(name).type, spec(name).width, bytesOf(array)];
  }
  return wirePackr.pack({ format: TRAJECTORY_WIRE_FORMAT, count: batch.count, columns });
}

function decodeColumn(name: ColumnName, entry: unknown, count: number): AnyColumnArray {
  const { type, width } = spec(name);
  if (!Array.isArray(entry) || entry.length !== 3 || !(entry[2] instanceof Uint8Array))
    throw new TrajectoryDecodeError(`column ${name} is not [type, width, bytes]`);
  const [gotType, gotWidth, bytes] = entry as [unknown, unknown, Uint8Array];
  if (gotType !== type || gotWidth !== width)
    throw new TrajectoryDecodeError(`column ${name} is ${String(gotType)}×${String(gotWidth)}, expected ${type}×${width}`);
  const out = allocate(name, count);
  if (bytes.byteLength !== out.byteLength)
    throw new TrajectoryDecodeError(`column ${name} has ${bytes.byteLength} bytes, expected ${out.byteLength} for ${count} rows`);
  // A copy: the decoded bytes may sit at an offset that is no multiple of the element size.
  bytesOf(out).set(bytes);
  return out;
}

/** Reads `encodeTrajectoryBatch`'s bytes; anything else is a TrajectoryDecodeError, never a crash. */
export function decodeTrajectoryBatch(bytes: Uint8Array): TrajectoryBatch {
  const value = unpackWire(bytes);
  if (typeof value !== 'object' || value === null) throw new TrajectoryDecodeError('not a trajectory batch (no map)');
  const { format, count, columns } = value as Record<string, unknown>;
  if (format !== TRAJECTORY_WIRE_FORMAT)
    throw new TrajectoryDecodeError(`format ${JSON.stringify(format)} is not ${TRAJECTORY_WIRE_FORMAT}`);
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
    throw new TrajectoryDecodeError(`count ${JSON.stringify(count)} is not a whole number ≥ 0`);
  if (typeof columns !== 'object' || columns === null) throw new TrajectoryDecodeError('no columns');
  const entries = columns as Record<string, unknown>;
  const unknown = Object.keys(entries).filter((name) => !Object.hasOwn(TRAJECTORY_COLUMNS, name));
  if (unknown.length > 0) throw new TrajectoryDecodeError(`unknown column ${unknown.join(', ')}`);
  return assemble(count, (name) => {
    if (entries[name] === undefined) {
      if (spec(name).optional) return null;
      throw new TrajectoryDecodeError(`column ${name} is missing`);
    }
    return decodeColumn(name, entries[name], count);
  });
}

// ---- Rollout statistics ----

/** The statistics that add up over actors and batches. */
export const SUMMED_STATS = {
  episodes: 'Episodes that ended (all games, all opponents).',
  truncated: 'Of which cut short by the turn cap.',
  decisions: 'Decisions of every seat (env steps).',
  learnerDecisions: "Decisions taken by the learner's network.",
  rewardSum: "Sum of the learner's rewards over the decisions emitted (the mean return per emitted decision is a health check).",
  teacherAgreement: "Imitation: decisions where the network's most probable action was the teacher's.",
  inferenceSeconds: 'Time in batched inference.',
  opponentSeconds: 'Time in the opponents and the teacher.',
  rolloutSeconds: "Time in the rollout critic's rollouts (--critic rollout).",
} as const;
export type SummedStat = keyof typeof SUMMED_STATS;
const SUMMED_STAT_NAMES = Object.keys(SUMMED_STATS) as SummedStat[];

export type RolloutStats = Record<SummedStat, number> & {
  /** Wall time of the collect (of the slowest actor once merged). */
  seconds: number;
  /** Episodes ended per opponent spec with the learner's wins (not for "self"). */
  outcomes: Record<string, { games: number; wins: number }>;
};

export function emptyRolloutStats(): RolloutStats {
  const stats = { seconds: 0, outcomes: {} } as RolloutStats;
  for (const name of SUMMED_STAT_NAMES) stats[name] = 0;
  return stats;
}

export function mergeRolloutStats(parts: readonly RolloutStats[]): RolloutStats {
  const merged = emptyRolloutStats();
  for (const part of parts) {
    for (const name of SUMMED_STAT_NAMES) merged[name] += part[name];
    merged.seconds = Math.max(merged.seconds, part.seconds);
    for (const [spec, o] of Object.entries(part.outcomes)) {
      const m = (merged.outcomes[spec] ??= { games: 0, wins: 0 });
      m.games += o.games;
      m.wins += o.wins;
    }
  }
  return merged;
}
