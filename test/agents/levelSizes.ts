import { shippedLevelSizes } from '../../agents/level.js';
import { nearestSize } from '../../env/rules/tableSizes.js';

/** The first table size (of 5–8) the preset ships no levels for, and the rated size a level there plays. */
export function unratedSize(preset: string): { unrated: number; nearest: number } {
  const sizes = shippedLevelSizes(preset);
  const unrated = [5, 6, 7, 8].find((n) => !sizes.includes(n));
  if (unrated === undefined) throw new Error(`levels ship for ${preset} at every size: pick another unrated table for this test`);
  return { unrated, nearest: nearestSize(sizes, unrated) ?? 0 };
}
