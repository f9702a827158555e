/** Seeds derived from a tournament seed, so that every game and deal is independent of the order they run in. */

/** A 32-bit mix of integers (splitmix-style finaliser over each part). */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h | 0;
}
