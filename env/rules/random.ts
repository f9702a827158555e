/**
 * Seeded randomness for the rules core: pure-rand's xoroshiro128+ (the generator fast-check
 * uses), carried inside the game state so that a game is a function of its seed.
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

export interface Rng {
  next(): number;
  clone(): Rng;
  getState(): readonly number[];
}

export function seededRng(seed: number): Rng {
  return xoroshiro128plus(seed | 0);
}

export function rngFromState(state: readonly number[]): Rng {
  return xoroshiro128plusFromState(state);
}

/** Uniform integer in [from, to]. */
export function randomInt(rng: Rng, from: number, to: number): number {
  return uniformInt(rng, from, to);
}

/** Fisher–Yates shuffle of `cards[0..length)` in place. */
export function shuffleInPlace(rng: Rng, cards: Uint8Array | number[], length = cards.length): void {
  for (let i = length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    const t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
}

/**
 * A 32-bit mix of integers (splitmix-style finaliser over each part): seeds derived from a seed and
 * counters, so that every game, deal and decision is independent of the order they run in.
 */
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
