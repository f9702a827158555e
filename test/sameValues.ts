// Typed-array equality for hot test loops: toEqual compares a 1,409-entry mask element by element
// through its generic deep equality, which cost most of the action-space suite's time.
import { expect } from 'vitest';

type NumberArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** The first index at which the arrays differ (Object.is, as toEqual compares numbers), or -1. */
export function firstDifference(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  const n = Math.min(actual.length, expected.length);
  for (let i = 0; i < n; i++) if (!Object.is(actual[i], expected[i])) return i;
  return actual.length === expected.length ? -1 : n;
}

const bytesOf = (a: NumberArray) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * Asserts what `expect(actual).toEqual(expected)` asserts for two typed arrays (same type, same
 * length, same values) with one byte comparison; a failure names the first index that differs.
 */
export function expectSameValues(actual: NumberArray, expected: NumberArray, what = 'array'): void {
  if (actual.constructor === expected.constructor && actual.length === expected.length && bytesOf(actual).equals(bytesOf(expected))) return;
  expect(actual.constructor.name, `${what}: array type`).toBe(expected.constructor.name);
  expect(actual.length, `${what}: length`).toBe(expected.length);
  const i = firstDifference(actual, expected);
  // Equal by value but not by bytes can only be NaNs with different payloads, which toEqual accepts.
  if (i >= 0) expect(actual[i], `${what}[${i}], the first value that differs`).toBe(expected[i]);
}
