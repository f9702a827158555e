import { describe, expect, it } from 'vitest';
import { nearestSize } from '../../../env/rules/tableSizes.js';

describe('nearestSize', () => {
  it('is the size itself where made for it, else the nearest, the larger on a tie, and none without sizes', () => {
    expect(nearestSize([2, 3, 4], 3)).toBe(3);
    expect(nearestSize([2, 3, 4], 7)).toBe(4);
    expect(nearestSize([2, 4], 3)).toBe(4);
    expect(nearestSize([4, 2], 3)).toBe(4);
    expect(nearestSize([2, 8], 5)).toBe(8);
    expect(nearestSize([], 5)).toBeUndefined();
  });
});
