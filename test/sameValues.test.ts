import { describe, expect, it } from 'vitest';
import { expectSameValues, firstDifference } from './sameValues.js';

describe('expectSameValues (typed-array toEqual by one byte comparison)', () => {
  it('accepts equal arrays and views of equal windows', () => {
    expectSameValues(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]));
    expectSameValues(new Int16Array([9, 1, 2, 9]).subarray(1, 3), new Int16Array([1, 2, 7]).subarray(0, 2));
  });

  it('names the first index that differs', () => {
    expect(() => expectSameValues(new Uint8Array(1409).fill(1, 700, 701), new Uint8Array(1409), 'mask')).toThrow(
      /mask\[700\], the first value that differs/,
    );
  });

  it('refuses another array type or length, as toEqual does', () => {
    expect(() => expectSameValues(new Int8Array([1]), new Uint8Array([1]))).toThrow(/array type/);
    expect(() => expectSameValues(new Uint8Array([1, 2]), new Uint8Array([1]))).toThrow(/length/);
    expect(() => expectSameValues(new Float32Array([-0]), new Float32Array([0]))).toThrow(/\[0\]/);
    expect(firstDifference([1, 2], [1, 2, 3])).toBe(2);
    expect(firstDifference([NaN], [NaN])).toBe(-1);
  });
});
