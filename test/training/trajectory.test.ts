// The trajectory column table and what is derived from it: allocation, merging the actors' parts,
// the transfer list, the MessagePack wire encoding (read back by an independent decoder too) with
// its errors for truncated and foreign input, and the rollout statistics' merge.
import { decode } from '@msgpack/msgpack';
import { pack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import {
  COLUMN_NAMES,
  TRAJECTORY_COLUMNS,
  TRAJECTORY_WIRE_FORMAT,
  TrajectoryDecodeError,
  type TrajectoryBatch,
  column,
  decodeTrajectoryBatch,
  emptyRolloutStats,
  emptyTrajectoryBatch,
  encodeTrajectoryBatch,
  mergeRolloutStats,
  mergeTrajectoryBatches,
  trajectoryBuffers,
} from '../../training/trajectory.js';
import { WHOLE_DEAL_HIDDEN_SIZE } from '../../env/gym/wholeDeal.js';

/** A batch whose every value says where it is: column index, row and position within the row. */
function filledBatch(count: number, withTeacher: boolean, offset = 0): TrajectoryBatch {
  const batch = emptyTrajectoryBatch(count, withTeacher);
  COLUMN_NAMES.forEach((name, c) => {
    const array = column(batch, name);
    if (array === null) return;
    for (let i = 0; i < array.length; i++) array[i] = (c * 7 + i + offset) % 100;
  });
  return batch;
}

describe('trajectory columns', () => {
  it('allocates every column at its width, the optional ones only when asked', () => {
    const batch = emptyTrajectoryBatch(3, false);
    expect(batch.observations).toBeInstanceOf(Float32Array);
    expect(batch.observations.length).toBe(3 * OBSERVATION_SIZE);
    expect(batch.masks.length).toBe(3 * ACTION_COUNT);
    expect(batch.actions).toBeInstanceOf(Int16Array);
    expect(batch.teacherActions).toBeNull();
    expect(batch.wholeDeal).toBeNull();
    expect(emptyTrajectoryBatch(3, true).teacherActions?.length).toBe(3);
    const critic = emptyTrajectoryBatch(3, ['wholeDeal']);
    expect(critic.teacherActions).toBeNull();
    expect(critic.wholeDeal?.length).toBe(3 * WHOLE_DEAL_HIDDEN_SIZE);
    expect(critic.rolloutValues).toBeNull();
    expect(emptyTrajectoryBatch(3, ['rolloutValues']).rolloutValues?.length).toBe(3);
    expect(trajectoryBuffers(batch).length).toBe(COLUMN_NAMES.filter((n) => !('optional' in TRAJECTORY_COLUMNS[n])).length);
  });

  it('merges parts row after row; an optional column survives only if every part has it', () => {
    const a = filledBatch(2, true, 0);
    const b = filledBatch(3, true, 50);
    const merged = mergeTrajectoryBatches([a, b]);
    expect(merged.count).toBe(5);
    for (const name of COLUMN_NAMES) {
      const width = TRAJECTORY_COLUMNS[name].width;
      const out = column(merged, name) as ArrayLike<number>;
      expect(Array.from(out).slice(0, 2 * width)).toEqual(Array.from(column(a, name) as ArrayLike<number>));
      expect(Array.from(out).slice(2 * width)).toEqual(Array.from(column(b, name) as ArrayLike<number>));
    }
    expect(mergeTrajectoryBatches([a, filledBatch(1, false)]).teacherActions).toBeNull();
  });

  it('round-trips through the wire encoding, with and without the optional column', () => {
    for (const withTeacher of [true, false]) {
      const batch = filledBatch(4, withTeacher);
      const back = decodeTrajectoryBatch(encodeTrajectoryBatch(batch));
      expect(back).toEqual(batch);
    }
    expect(decodeTrajectoryBatch(encodeTrajectoryBatch(emptyTrajectoryBatch(0, false))).count).toBe(0);
  });

  it('is plain MessagePack that another decoder reads', () => {
    const batch = filledBatch(2, false);
    const plain = decode(encodeTrajectoryBatch(batch)) as { format: string; count: number; columns: Record<string, unknown[]> };
    expect(plain.format).toBe(TRAJECTORY_WIRE_FORMAT);
    expect(plain.count).toBe(2);
    expect(Object.keys(plain.columns)).toEqual(COLUMN_NAMES.filter((n) => !('optional' in TRAJECTORY_COLUMNS[n])));
    const [type, width, bytes] = plain.columns.values as [string, number, Uint8Array];
    expect([type, width]).toEqual(['f32', 1]);
    expect(Array.from(new Float32Array(Uint8Array.from(bytes).buffer))).toEqual(Array.from(batch.values));
  });

  it('refuses truncated, foreign and mismatched input with an error naming the problem', () => {
    const good = encodeTrajectoryBatch(filledBatch(2, false));
    const wire = decode(good) as { format: string; count: number; columns: Record<string, unknown> };
    const variant = (change: (w: typeof wire) => unknown) => pack(change(structuredClone(wire)));
    const cases: [Uint8Array, RegExp][] = [
      [good.subarray(0, good.length - 10), /not MessagePack/],
      [new Uint8Array([0xc1]), /format undefined/],
      [pack('hello'), /no map/],
      [pack({ hello: 1 }), /format undefined/],
      [variant((w) => ({ ...w, format: 'yaniv-trajectories/0' })), /format "yaniv-trajectories\/0"/],
      [variant((w) => ({ ...w, count: -1 })), /count -1/],
      [variant((w) => ({ ...w, count: 3 })), /column observations has 9472 bytes, expected 14208 for 3 rows/],
      [variant((w) => ({ ...w, columns: { ...w.columns, values: undefined } })), /column values is missing/],
      [
        variant((w) => ({ ...w, columns: { ...w.columns, values: ['f32', 2, new Uint8Array(16)] } })),
        /column values is f32×2, expected f32×1/,
      ],
      [variant((w) => ({ ...w, columns: { ...w.columns, actions: 'x' } })), /column actions is not \[type, width, bytes\]/],
      [variant((w) => ({ ...w, columns: { ...w.columns, toString: 1 } })), /unknown column toString/],
      [variant((w) => ({ ...w, columns: null })), /no columns/],
    ];
    for (const [bytes, message] of cases) {
      expect(() => decodeTrajectoryBatch(bytes), String(message)).toThrow(TrajectoryDecodeError);
      expect(() => decodeTrajectoryBatch(bytes), String(message)).toThrow(message);
    }
  });
});

describe('rollout statistics', () => {
  it('add up over parts, keep the slowest time and add outcomes per opponent', () => {
    const a = {
      ...emptyRolloutStats(),
      episodes: 2,
      decisions: 10,
      rewardSum: 0.5,
      seconds: 3,
      outcomes: { strong: { games: 2, wins: 1 } },
    };
    const b = {
      ...emptyRolloutStats(),
      episodes: 1,
      decisions: 4,
      rewardSum: -0.25,
      seconds: 5,
      outcomes: { strong: { games: 1, wins: 1 } },
    };
    const merged = mergeRolloutStats([a, b]);
    expect(merged).toMatchObject({ episodes: 3, decisions: 14, rewardSum: 0.25, seconds: 5, truncated: 0 });
    expect(merged.outcomes).toEqual({ strong: { games: 3, wins: 2 } });
    expect(a.outcomes.strong).toEqual({ games: 2, wins: 1 });
  });
});
