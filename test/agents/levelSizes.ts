import { shippedLevelSizes } from '../../agents/level.js';
import { MAX_PLAYERS, MIN_PLAYERS, PRESET_NAMES } from '../../env/rules/rules.js';
import { nearestSize } from '../../env/rules/tableSizes.js';

/** Every table size, smallest first. */
const SIZES = Array.from({ length: MAX_PLAYERS - MIN_PLAYERS + 1 }, (_, i) => MIN_PLAYERS + i);

/**
 * A table the shipped levels do not cover though its preset ships some (standard first), and the
 * rated size a level plays there — derived, so the tests follow as levels ship for more tables.
 */
export function unratedTable(): { preset: string; unrated: number; nearest: number } {
  for (const preset of ['standard', ...PRESET_NAMES.filter((name) => name !== 'standard')]) {
    const sizes = shippedLevelSizes(preset);
    const unrated = SIZES.find((n) => !sizes.includes(n));
    const nearest = unrated === undefined ? undefined : nearestSize(sizes, unrated);
    if (unrated !== undefined && nearest !== undefined) return { preset, unrated, nearest };
  }
  throw new Error('levels ship at every size of every preset that has any: pick another unrated table for these tests');
}

/** A preset no levels ship for, where `level:K` is refused. */
export function presetWithoutLevels(): string {
  const preset = PRESET_NAMES.find((name) => shippedLevelSizes(name).length === 0);
  if (preset === undefined) throw new Error('levels ship for every preset: pick another refusal case for these tests');
  return preset;
}
