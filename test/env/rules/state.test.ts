// The state's arrays: one list (STATE_ARRAYS) names every array a state owns, and a copy
// shares no buffer with its original, packed VecEnv states included.
import { describe, expect, it } from 'vitest';
import { VecEnv } from '../../../env/gym/vecEnv.js';
import { newGame, startRound } from '../../../env/rules/engine.js';
import { resolveRules } from '../../../env/rules/rules.js';
import { type GameState, STATE_ARRAYS, cloneState } from '../../../env/rules/state.js';

const SHARED_TABLES = ['values', 'composition'];

/** The state's own typed arrays, found by looking at it rather than at the list. */
function arrayKeys(s: GameState): string[] {
  return Object.entries(s)
    .filter(([key, value]) => ArrayBuffer.isView(value) && !SHARED_TABLES.includes(key))
    .map(([key]) => key);
}

function expectIndependent(copy: GameState, original: GameState): void {
  const buffers = new Set(arrayKeys(original).map((key) => (original[key as keyof GameState] as Uint8Array).buffer));
  for (const key of arrayKeys(copy)) {
    const array = copy[key as keyof GameState] as Uint8Array;
    expect(buffers.has(array.buffer), `${key} shares its buffer with the original`).toBe(false);
    expect(Array.from(array), key).toEqual(Array.from(original[key as keyof GameState] as Uint8Array));
  }
  for (const key of SHARED_TABLES) expect(copy[key as keyof GameState]).toBe(original[key as keyof GameState]);
  expect(copy.rng).not.toBe(original.rng);
  expect(copy.rng.getState()).toEqual(original.rng.getState());
}

describe('the state arrays', () => {
  const s = newGame({ rules: resolveRules({ players: 5 }), players: 5, seed: 3 });
  startRound(s);

  it('are all listed in STATE_ARRAYS, once', () => {
    expect([...STATE_ARRAYS].sort()).toEqual(arrayKeys(s).sort());
    expect(new Set(STATE_ARRAYS).size).toBe(STATE_ARRAYS.length);
  });

  it('are copied by cloneState: a clone shares no buffer and changing it leaves the original alone', () => {
    const copy = cloneState(s);
    expectIndependent(copy, s);
    const before = cloneState(s);
    for (const key of STATE_ARRAYS) copy[key].fill(9);
    for (const key of STATE_ARRAYS) expect(Array.from(s[key]), key).toEqual(Array.from(before[key]));
  });

  it('are copied out of a VecEnv game, whose arrays share one packed buffer', () => {
    const vec = new VecEnv({ num: 2, players: 3 });
    vec.reset(1);
    const packed = vec.state(1);
    expect(new Set(STATE_ARRAYS.map((key) => packed[key].buffer)).size).toBe(1);
    expectIndependent(cloneState(packed), packed);
  });
});
