import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KIND_COUNT } from '../../../env/rules/cards.js';
import {
  OBS, OBSERVATION_SEGMENTS, OBSERVATION_SIZE, OBSERVATION_VERSION, OPPONENT_BLOCK, encodeObservation, encodeView,
  splitObservation,
} from '../../../env/gym/observation.js';
import { seededRng, shuffleInPlace } from '../../../env/rules/random.js';
import { type GameState, HAND_CAP, cloneState } from '../../../env/rules/state.js';
import { playerView } from '../../../env/rules/view.js';
import { RUNS, VARIANTS, randomPositions } from './envPositions.js';

const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

describe('the observation layout', () => {
  it('is the sum of its named segments', () => {
    expect(OBSERVATION_VERSION).toBe('yaniv-obs/1');
    let start = 0;
    for (const segment of OBSERVATION_SEGMENTS) {
      expect(segment.start).toBe(start);
      start += segment.size;
    }
    expect(start).toBe(OBSERVATION_SIZE);
    expect(OBSERVATION_SIZE).toBe(1174);
    expect(OPPONENT_BLOCK).toBe(5 + KIND_COUNT);
  });
});

describe('the fast encoder', () => {
  for (const { name, options } of VARIANTS) {
    it(`writes the bytes the view encoder computes from playerView alone, for every seat (${name})`, () => {
      const out = new Float32Array(OBSERVATION_SIZE * 2);
      for (const s of randomPositions(options, 5, 300 * RUNS)) {
        for (let seat = 0; seat < s.players; seat++) {
          out.fill(7);
          encodeObservation(s, seat, out, OBSERVATION_SIZE);
          expect(bytes(out.subarray(OBSERVATION_SIZE))).toBe(bytes(encodeView(playerView(s, seat))));
          expect(out[OBSERVATION_SIZE - 1]).toBe(7);
        }
      }
    });
  }

  it('puts the hand by slot, the opponents clockwise, and pads the missing seats', () => {
    const [s] = randomPositions({ players: 3 }, 1, 0);
    const obs = new Float32Array(OBSERVATION_SIZE);
    encodeObservation(s, 1, obs);
    const parts = splitObservation(obs);
    const view = playerView(s, 1);
    view.hand.forEach((card, slot) => expect(parts.handSlots[slot * KIND_COUNT + card]).toBe(1));
    expect(parts.opponents[0]).toBe(1);
    expect(parts.opponents[2]).toBeCloseTo(view.handSizes[2] / 7);
    expect(parts.opponents[OPPONENT_BLOCK + 2]).toBeCloseTo(view.handSizes[0] / 7);
    expect(Array.from(parts.opponents.subarray(2 * OPPONENT_BLOCK)).every((v) => v === 0)).toBe(true);
    expect(obs[OBS.phase]).toBe(1);
  });
});

/** The same position with everything `seat` cannot know dealt afresh: opponents' unknown cards, the deck order, the PRNG. */
function scrambleHidden(s: GameState, seat: number, seed: number): GameState {
  const t = cloneState(s);
  const rng = seededRng(seed);
  const pool: number[] = [];
  const slots: [number, number][] = [];
  for (let p = 0; p < t.players; p++) {
    if (p === seat) continue;
    const known = new Map<number, number>();
    for (let k = 0; k < KIND_COUNT; k++) if (t.known[p * KIND_COUNT + k]) known.set(k, t.known[p * KIND_COUNT + k]);
    for (let i = 0; i < t.handLength[p]; i++) {
      const card = t.hands[p * HAND_CAP + i];
      const left = known.get(card) ?? 0;
      if (left > 0) known.set(card, left - 1);
      else {
        pool.push(card);
        slots.push([p, i]);
      }
    }
  }
  for (let i = 0; i < t.deckLength; i++) pool.push(t.deck[i]);
  shuffleInPlace(rng, pool);
  slots.forEach(([p, i], j) => { t.hands[p * HAND_CAP + i] = pool[j]; });
  for (let i = 0; i < t.deckLength; i++) t.deck[i] = pool[slots.length + i];
  // Hand order is hidden too, even for one's own hand.
  const own = Array.from(t.hands.subarray(seat * HAND_CAP, seat * HAND_CAP + t.handLength[seat]));
  shuffleInPlace(rng, own);
  own.forEach((card, i) => { t.hands[seat * HAND_CAP + i] = card; });
  t.rng = seededRng(seed + 1);
  return t;
}

describe('no hidden information in the observation', () => {
  it('gives byte-identical observations for positions that differ only in what the seat cannot know', () => {
    const positions = VARIANTS.flatMap(({ options }, v) => randomPositions(options, 100 + v, 60));
    let changed = 0;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: positions.length - 1 }), fc.integer({ min: 0, max: 7 }), fc.integer(),
      (index, seatPick, seed) => {
        const s = positions[index];
        const seat = seatPick % s.players;
        const t = scrambleHidden(s, seat, seed);
        if (t.hands.some((c, i) => c !== s.hands[i]) || t.deck.some((c, i) => c !== s.deck[i])) changed++;
        const a = new Float32Array(OBSERVATION_SIZE);
        const b = new Float32Array(OBSERVATION_SIZE);
        encodeObservation(s, seat, a);
        encodeObservation(t, seat, b);
        expect(bytes(a)).toBe(bytes(b));
        expect(playerView(t, seat)).toEqual(playerView(s, seat));
      },
    ), { numRuns: 300 * RUNS, seed: 42 });
    expect(changed).toBeGreaterThan(100);
  });
});
