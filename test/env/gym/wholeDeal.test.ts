import { describe, expect, it } from 'vitest';
import { KIND_COUNT } from '../../../env/rules/cards.js';
import { HAND_CAP, handValue } from '../../../env/rules/state.js';
import { OBSERVATION_SIZE, OPPONENTS, encodeObservation } from '../../../env/gym/observation.js';
import {
  DECK_LOOKAHEAD,
  WHOLE_DEAL_HIDDEN_SEGMENTS,
  WHOLE_DEAL_HIDDEN_SIZE,
  WHOLE_DEAL_SIZE,
  encodeHiddenDeal,
  encodeWholeDeal,
  joinWholeDeal,
} from '../../../env/gym/wholeDeal.js';
import { randomPositions, scrambleHidden } from './envPositions.js';

const segment = (name: string) => {
  const found = WHOLE_DEAL_HIDDEN_SEGMENTS.find((s) => s.name === name);
  if (!found) throw new Error(`no segment ${name}`);
  return found;
};

const positions = randomPositions({ players: 4, rules: { decks: 1 } }, 7, 300);

describe('the whole deal', () => {
  it('is the observation followed by named hidden segments laid end to end', () => {
    const sizes = WHOLE_DEAL_HIDDEN_SEGMENTS.map((segment) => segment.size);
    const ends = sizes.map((_, i) => sizes.slice(0, i + 1).reduce((n, size) => n + size, 0));
    expect(WHOLE_DEAL_HIDDEN_SEGMENTS.map((segment, i) => segment.start + sizes[i])).toEqual(ends);
    expect(WHOLE_DEAL_HIDDEN_SIZE).toBe(ends[ends.length - 1]);
    expect(WHOLE_DEAL_HIDDEN_SIZE).toBe(OPPONENTS * KIND_COUNT + OPPONENTS + DECK_LOOKAHEAD * KIND_COUNT + KIND_COUNT);
    expect(WHOLE_DEAL_SIZE).toBe(OBSERVATION_SIZE + WHOLE_DEAL_HIDDEN_SIZE);
    const s = positions[40];
    const whole = encodeWholeDeal(s, 1);
    const observation = new Float32Array(OBSERVATION_SIZE);
    encodeObservation(s, 1, observation);
    expect(whole.subarray(0, OBSERVATION_SIZE)).toEqual(observation);
  });

  it('holds every other hand clockwise, their values, the deck top in drawing order and the deck counts', () => {
    for (const s of positions.slice(0, 60)) {
      const seat = s.current;
      const hidden = new Float32Array(WHOLE_DEAL_HIDDEN_SIZE);
      encodeHiddenDeal(s, seat, hidden);
      for (let i = 1; i < s.players; i++) {
        const other = (seat + i) % s.players;
        const block = hidden.subarray(
          segment('opponentHands').start + (i - 1) * KIND_COUNT,
          segment('opponentHands').start + i * KIND_COUNT,
        );
        const counts = new Float32Array(KIND_COUNT);
        for (let j = 0; j < s.handLength[other]; j++) counts[s.hands[other * HAND_CAP + j]] += 0.5;
        expect(block).toEqual(counts);
        expect(hidden[segment('opponentHandValues').start + i - 1]).toBeCloseTo(handValue(s, other) / 70, 6);
      }
      const next = segment('deckNext').start;
      for (let i = 0; i < Math.min(DECK_LOOKAHEAD, s.deckLength); i++)
        expect(hidden[next + i * KIND_COUNT + s.deck[s.deckLength - 1 - i]]).toBe(1);
      const ones = hidden.subarray(next, next + DECK_LOOKAHEAD * KIND_COUNT).reduce((n, x) => n + x, 0);
      expect(ones).toBe(Math.min(DECK_LOOKAHEAD, s.deckLength));
      const deck = hidden.subarray(segment('deckCounts').start, segment('deckCounts').start + KIND_COUNT);
      expect(deck.reduce((n, x) => n + x, 0)).toBe(s.deckLength * 0.5);
    }
  });

  it('changes when a hidden card changes while the seat’s observation does not', () => {
    let changed = 0;
    positions.forEach((s, index) => {
      const seat = index % s.players;
      const t = scrambleHidden(s, seat, 1000 + index);
      const [a, b] = [s, t].map((state) => encodeWholeDeal(state, seat));
      expect(b.subarray(0, OBSERVATION_SIZE)).toEqual(a.subarray(0, OBSERVATION_SIZE));
      if (t.deck.some((c, i) => c !== s.deck[i] && i >= t.deckLength - DECK_LOOKAHEAD)) {
        changed++;
        expect(b.subarray(OBSERVATION_SIZE)).not.toEqual(a.subarray(OBSERVATION_SIZE));
      }
    });
    expect(changed).toBeGreaterThan(200);
  });

  it('joins the two trajectory columns into the critic’s rows, in any order', () => {
    const observations = Float32Array.from({ length: 3 * OBSERVATION_SIZE }, (_, i) => Math.floor(i / OBSERVATION_SIZE));
    const hidden = Float32Array.from({ length: 3 * WHOLE_DEAL_HIDDEN_SIZE }, (_, i) => 10 + Math.floor(i / WHOLE_DEAL_HIDDEN_SIZE));
    const rows = joinWholeDeal(observations, hidden, 1, 3, [2, 0, 1]);
    expect(rows.length).toBe(2 * WHOLE_DEAL_SIZE);
    expect([rows[0], rows[OBSERVATION_SIZE], rows[WHOLE_DEAL_SIZE], rows[WHOLE_DEAL_SIZE + OBSERVATION_SIZE]]).toEqual([0, 10, 1, 11]);
  });
});
