/**
 * The whole deal, for a critic that only trains (issue 44 item 2, perfect-information
 * distillation): what the seat's observation (observation.ts) hides — every other hand and the
 * deck's order — laid out as named segments, relative to the acting seat. The critic reads the
 * seat's observation followed by these features (`WHOLE_DEAL_SIZE` inputs); the policy never
 * does (a network that plays reads `OBSERVATION_SIZE` inputs, and nothing here is in them).
 *
 * What is kept: each other seat's hand (counts per kind) and its value, clockwise after the seat
 * as the observation's opponent blocks; the next `DECK_LOOKAHEAD` cards to be drawn, each one-hot
 * by position from the top; and the whole deck's contents (counts per kind). The discard pile's
 * top (the previous group and what may be taken of it) and every seat's score are in the
 * observation already, so they are not repeated. Eight cards ahead are two laps of draws at four
 * seats — what decides the rest of a typical round (the value's horizon) — and cost 424 inputs;
 * the counts say what lies deeper. Pure: a function of the state, no I/O.
 */
import { KIND_COUNT } from '../rules/cards.js';
import { type GameState, HAND_CAP } from '../rules/state.js';
import { HAND_VALUE_SCALE, OBSERVATION_SIZE, OPPONENTS, encodeObservation } from './observation.js';
import { COUNT_SCALE, PER_HAND_VALUE } from './observationParts.js';
import { type Placed, type SegmentSpec, segmentLayout } from './segments.js';

/** The version of this encoding; a critic saved for another is refused. */
export const WHOLE_DEAL_VERSION = 'yaniv-whole-deal/1';

/** Cards of the deck's top encoded one by one, in drawing order. */
export const DECK_LOOKAHEAD = 8;

const HIDDEN_SPECS = [
  {
    name: 'opponentHands',
    size: OPPONENTS * KIND_COUNT,
    description: `Each other seat's hand, count × ${COUNT_SCALE} per kind, clockwise after the seat (blocks past the table size are 0).`,
  },
  {
    name: 'opponentHandValues',
    size: OPPONENTS,
    description: `Each other seat's hand value / ${HAND_VALUE_SCALE}, clockwise after the seat.`,
  },
  {
    name: 'deckNext',
    size: DECK_LOOKAHEAD * KIND_COUNT,
    description: `The next ${DECK_LOOKAHEAD} cards to be drawn, top first, each one-hot by kind (0 past the deck's end).`,
  },
  {
    name: 'deckCounts',
    size: KIND_COUNT,
    description: `The whole deck, count × ${COUNT_SCALE} per kind.`,
  },
] as const satisfies readonly SegmentSpec<string>[];

export type HiddenSegmentName = (typeof HIDDEN_SPECS)[number]['name'];
const HIDDEN_LAYOUT = segmentLayout<HiddenSegmentName>(HIDDEN_SPECS);
export const WHOLE_DEAL_HIDDEN_SEGMENTS: readonly Placed<SegmentSpec<HiddenSegmentName>>[] = HIDDEN_LAYOUT.segments;
/** The hidden features' length (a trajectory column: the observation beside them is one already). */
export const WHOLE_DEAL_HIDDEN_SIZE = HIDDEN_LAYOUT.size;
/** The critic's input: the seat's observation, then the hidden features. */
export const WHOLE_DEAL_SIZE = OBSERVATION_SIZE + WHOLE_DEAL_HIDDEN_SIZE;
const AT = HIDDEN_LAYOUT.offsets;

/** Writes what the seat cannot see into `out[offset .. +WHOLE_DEAL_HIDDEN_SIZE)`. Allocation-free. */
export function encodeHiddenDeal(s: GameState, seat: number, out: Float32Array, offset = 0): void {
  out.fill(0, offset, offset + WHOLE_DEAL_HIDDEN_SIZE);
  const { hands, handLength, values, players } = s;
  for (let i = 1; i < players; i++) {
    const other = (seat + i) % players;
    const block = offset + AT.opponentHands + (i - 1) * KIND_COUNT;
    let value = 0;
    for (let j = 0; j < handLength[other]; j++) {
      const card = hands[other * HAND_CAP + j];
      out[block + card] += COUNT_SCALE;
      value += values[card];
    }
    out[offset + AT.opponentHandValues + i - 1] = value * PER_HAND_VALUE;
  }
  const { deck, deckLength } = s;
  for (let i = 0; i < DECK_LOOKAHEAD && i < deckLength; i++) out[offset + AT.deckNext + i * KIND_COUNT + deck[deckLength - 1 - i]] = 1;
  for (let i = 0; i < deckLength; i++) out[offset + AT.deckCounts + deck[i]] += COUNT_SCALE;
}

/** The critic's whole input for the seat: its observation, then the hidden features. */
export function encodeWholeDeal(s: GameState, seat: number, out = new Float32Array(WHOLE_DEAL_SIZE), offset = 0): Float32Array {
  encodeObservation(s, seat, out, offset);
  encodeHiddenDeal(s, seat, out, offset + OBSERVATION_SIZE);
  return out;
}

/**
 * The critic's inputs of `rows` decisions from the two trajectory columns they are kept in
 * (observations, the hidden features), rows `order[from .. to)` (all rows in order without `order`).
 */
export function joinWholeDeal(
  observations: Float32Array,
  hidden: Float32Array,
  from: number,
  to: number,
  order?: ArrayLike<number>,
): Float32Array {
  const out = new Float32Array((to - from) * WHOLE_DEAL_SIZE);
  for (let k = from; k < to; k++) {
    const row = order === undefined ? k : order[k];
    const at = (k - from) * WHOLE_DEAL_SIZE;
    out.set(observations.subarray(row * OBSERVATION_SIZE, (row + 1) * OBSERVATION_SIZE), at);
    out.set(hidden.subarray(row * WHOLE_DEAL_HIDDEN_SIZE, (row + 1) * WHOLE_DEAL_HIDDEN_SIZE), at + OBSERVATION_SIZE);
  }
  return out;
}
