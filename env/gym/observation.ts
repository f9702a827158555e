/**
 * The observation: a fixed-length Float32Array from one seat's point of view, built from
 * named segments laid end to end. Each segment carries everything about it — its size, its
 * description (docs), its reference writer and its bounds — so a segment is added in this file
 * and nowhere else: an entry in the table and its lines in the hot path.
 *
 * Two encoders write the same bytes: `encodeObservation` reads the state straight into a buffer
 * (the hot path, at the end of this file), `encodeView` runs each segment's `fromView` writer
 * on `playerView(state, seat)` alone (the reference, and the proof that nothing hidden gets in).
 * Tests compare them byte for byte. Opponents follow in clockwise order after the seat, padded to MAX_PLAYERS − 1
 * blocks, so one network can play every seat of every table size.
 */
import { type Card, KIND_COUNT, MAX_CARD_VALUE, sortByKind } from '../rules/cards.js';
import { HAND_SLOTS } from './actionLayout.js';
import { type Placed, type SegmentSpec, segmentLayout } from './segments.js';
import { groupTypeOf } from '../rules/groups.js';
import type { Rules } from '../rules/rules.js';
import { type GameState, HAND_CAP, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_NAMES, PHASE_TURN } from '../rules/state.js';
import type { PlayerView } from '../rules/view.js';
import {
  COUNT_SCALE,
  DECK_SCALE,
  type Extremes,
  HAND_VALUE_SCALE,
  OPPONENTS,
  PER_DECK,
  PER_HAND_VALUE,
  PER_ROUND,
  PER_SLOT,
  PER_TURN,
  RULE_FEATURES,
  ROUND_SCALE,
  type Range,
  TURN_SCALE,
  capped,
  counts,
  gapTo,
  milestoneGap,
  milestoneTargets,
  oneHotKind,
  perOpponent,
  repeat,
  ruleVector,
  scaledGap,
  unit,
  writeOwnMilestone,
  zero,
} from './observationParts.js';

export {
  COUNT_SCALE,
  DECK_SCALE,
  HAND_VALUE_SCALE,
  OPPONENTS,
  ROUND_SCALE,
  RULE_FEATURES,
  TURN_SCALE,
  milestoneGap,
  milestoneTargets,
} from './observationParts.js';

export const OBSERVATION_VERSION = 'yaniv-obs/2';

/**
 * Earlier observation versions whose observation is the first inputs of this one, with their
 * length, pinned as literals (a test checks them against the segments they were): a model
 * trained for one can be widened to this version (scripts/widenModel.ts).
 */
export const EARLIER_OBSERVATIONS: Readonly<Record<string, number>> = { 'yaniv-obs/1': 1174 };

interface Written<Name extends string> extends SegmentSpec<Name> {
  /** The reference writer: the segment at out[at …] (zero there) from the seat's PlayerView alone. */
  readonly fromView: (view: PlayerView, out: Float32Array, at: number) => void;
  /** Each feature's exact [low, high] for a table (observationBounds.ts). */
  readonly bounds: (x: Extremes) => readonly Range[];
}

/** An opponent's field and its bounds. */
interface OpponentField<Name extends string> extends SegmentSpec<Name> {
  readonly bounds: (x: Extremes) => readonly Range[];
}

function addCounts(out: Float32Array, at: number, cards: readonly Card[]): void {
  for (const card of cards) out[at + card] += COUNT_SCALE;
}

/**
 * One opponent's block, in order, with each field's bounds; the opponents segment writes the
 * block at these fields' offsets (one writer for the block keeps the hot path free of a call per field).
 */
export const OPPONENT_FIELDS = [
  { name: 'present', size: 1, description: '1 if this seat exists at the table.', bounds: () => [unit] },
  { name: 'active', size: 1, description: '1 if the seat is still in the game.', bounds: () => [unit] },
  {
    name: 'handSize',
    size: 1,
    description: 'Cards in its hand / 7.',
    bounds: (x) => [[0, x.options.rules.handSize * (1 / HAND_SLOTS)]],
  },
  { name: 'total', size: 1, description: 'Its total / eliminationLimit.', bounds: (x) => [[0, x.total]] },
  { name: 'yanivWins', size: 1, description: 'Its successful calls / yanivsToWin.', bounds: (x) => [[0, x.calls]] },
  {
    name: 'known',
    size: KIND_COUNT,
    description: `Cards it took from the pile in view of all and still holds, count × ${COUNT_SCALE} per kind.`,
    bounds: (x) => counts(x, x.options.rules.handSize),
  },
] as const satisfies readonly OpponentField<string>[];

type OpponentFieldName = (typeof OPPONENT_FIELDS)[number]['name'];
const OPPONENT_LAYOUT = segmentLayout<OpponentFieldName, OpponentField<OpponentFieldName>>(OPPONENT_FIELDS);
export const OPPONENT_BLOCK = OPPONENT_LAYOUT.size;
/** Field name → offset in an opponent's block (module constants: the hot path reads them per opponent). */
const AT = OPPONENT_LAYOUT.offsets;
const AT_PRESENT = AT.present;
const AT_ACTIVE = AT.active;
const AT_HAND_SIZE = AT.handSize;
const AT_TOTAL = AT.total;
const AT_WINS = AT.yanivWins;
const AT_KNOWN = AT.known;

/** The seat `i` places clockwise after `seat` (i ≥ 1). */
function clockwise(seat: number, i: number, players: number): number {
  const other = seat + i;
  return other >= players ? other - players : other;
}

const SEGMENT_SPECS = [
  {
    name: 'phase',
    size: 3,
    description: 'One-hot turn / draw / afterDraw (all 0 once the round or game is over).',
    fromView: (view, out, at) => {
      const phase = PHASE_NAMES.indexOf(view.phase);
      if (phase <= PHASE_AFTER_DRAW) out[at + phase] = 1;
    },
    bounds: () => repeat(3, unit),
  },
  {
    name: 'hand',
    size: KIND_COUNT,
    description: `Own hand, count × ${COUNT_SCALE} per kind (kind = suit·13 + rank − 1, joker 52).`,
    fromView: (view, out, at) => addCounts(out, at, view.hand),
    bounds: (x) => counts(x, x.options.rules.handSize),
  },
  {
    name: 'handSlots',
    size: HAND_SLOTS * KIND_COUNT,
    description:
      'Own hand sorted by kind (jokers last): for each of the 7 slots the one-hot kind, all 0 when empty. DISCARD ids refer to these slots.',
    fromView: (view, out, at) => view.hand.forEach((card, slot) => void (out[at + slot * KIND_COUNT + card] = 1)),
    bounds: (x) =>
      Array.from({ length: HAND_SLOTS }, (_, slot) => (slot < x.options.rules.handSize ? oneHotKind(x) : repeat(KIND_COUNT, zero))).flat(),
  },
  {
    name: 'handStats',
    size: 2,
    description: `Own hand size / 7, own hand value / ${HAND_VALUE_SCALE}.`,
    fromView: (view, out, at) => {
      out[at] = view.hand.length * PER_SLOT;
      out[at + 1] = view.handValue * PER_HAND_VALUE;
    },
    bounds: (x) => [
      [0, x.options.rules.handSize * (1 / HAND_SLOTS)],
      [0, x.options.rules.handSize * MAX_CARD_VALUE * (1 / HAND_VALUE_SCALE)],
    ],
  },
  {
    name: 'ownKnown',
    size: KIND_COUNT,
    description: `Own cards the others saw taken from the pile, count × ${COUNT_SCALE} per kind.`,
    fromView: (view, out, at) => addCounts(out, at, view.known[view.seat]),
    bounds: (x) => counts(x, x.options.rules.handSize),
  },
  {
    name: 'ownScore',
    size: 2,
    description: 'Own total / eliminationLimit, own successful calls / yanivsToWin.',
    fromView: (view, out, at) => {
      out[at] = view.totals[view.seat] * (1 / view.rules.eliminationLimit);
      out[at + 1] = view.yanivWins[view.seat] * (1 / view.rules.yanivsToWin);
    },
    bounds: (x) => [
      [0, x.total],
      [0, x.calls],
    ],
  },
  {
    name: 'previousCards',
    size: KIND_COUNT,
    description: `The previous group (what is left of it), count × ${COUNT_SCALE} per kind.`,
    fromView: (view, out, at) => addCounts(out, at, view.previous.cards),
    bounds: (x) => counts(x),
  },
  {
    name: 'previousPickable',
    size: KIND_COUNT,
    description: `Its cards that may be taken, count × ${COUNT_SCALE} per kind.`,
    fromView: (view, out, at) => addCounts(out, at, view.previous.pickable),
    bounds: (x) => counts(x),
  },
  {
    name: 'previousType',
    size: 3,
    description: 'One-hot single / set / run of the previous group.',
    fromView: (view, out, at) => void (out[at + groupTypeOf(view.previous.type) - 1] = 1),
    bounds: () => repeat(3, unit),
  },
  {
    name: 'laid',
    size: KIND_COUNT,
    description: `The group the player to move laid this turn, count × ${COUNT_SCALE} per kind.`,
    fromView: (view, out, at) => {
      if (view.laid) addCounts(out, at, view.laid.cards);
    },
    bounds: (x) => counts(x),
  },
  {
    name: 'drawn',
    size: KIND_COUNT,
    description: 'One-hot card drawn this turn, when the seat is the player to move.',
    fromView: (view, out, at) => {
      if (view.drawn !== null) out[at + view.drawn] = 1;
    },
    bounds: oneHotKind,
  },
  {
    name: 'opponents',
    size: OPPONENTS * OPPONENT_BLOCK,
    description: `${OPPONENTS} blocks of ${OPPONENT_BLOCK} (fields below), the seats clockwise after this one; blocks past the table size are all 0.`,
    fromView: (view, out, at) => {
      for (let i = 1; i < view.players; i++) {
        const other = clockwise(view.seat, i, view.players);
        const block = at + (i - 1) * OPPONENT_BLOCK;
        out[block + AT.present] = 1;
        out[block + AT.active] = view.active[other] ? 1 : 0;
        out[block + AT.handSize] = view.handSizes[other] * PER_SLOT;
        out[block + AT.total] = view.totals[other] * (1 / view.rules.eliminationLimit);
        out[block + AT.yanivWins] = view.yanivWins[other] * (1 / view.rules.yanivsToWin);
        addCounts(out, block + AT.known, view.known[other]);
      }
    },
    bounds: (x) => perOpponent(x, OPPONENT_BLOCK, (x) => OPPONENT_FIELDS.flatMap((field) => field.bounds(x))),
  },
  {
    name: 'pile',
    size: KIND_COUNT,
    description: `Discards out of reach (out of play until a reshuffle), count × ${COUNT_SCALE} per kind.`,
    fromView: (view, out, at) => addCounts(out, at, view.pile),
    bounds: (x) => counts(x),
  },
  {
    name: 'deck',
    size: 1,
    description: `Cards in the deck / ${DECK_SCALE}.`,
    fromView: (view, out, at) => void (out[at] = view.deckSize * PER_DECK),
    bounds: (x) => [[0, x.copies.reduce((sum, c) => sum + c, 0) * (1 / DECK_SCALE)]],
  },
  {
    name: 'progress',
    size: 2,
    description: `Turns completed in the round / ${TURN_SCALE} and round number / ${ROUND_SCALE}, each capped at 1.`,
    fromView: (view, out, at) => {
      out[at] = Math.min(1, view.turn * PER_TURN);
      out[at + 1] = Math.min(1, view.round * PER_ROUND);
    },
    bounds: () => repeat(2, unit),
  },
  {
    name: 'rules',
    size: RULE_FEATURES.length,
    description: `Rule settings: ${RULE_FEATURES.map(([name]) => name).join(', ')}.`,
    fromView: (view, out, at) => out.set(ruleVector(view.rules), at),
    bounds: (x) => Array.from(ruleVector(x.options.rules), (value) => [value, value] as const),
  },
  {
    name: 'milestones',
    size: 3 + OPPONENTS,
    description:
      `The gap from a total to the next milestone above it that lowers it (0: none), / ${HAND_VALUE_SCALE} capped at 1: ` +
      `own gap; 1 if the own hand's value equals it (the round ending now would land the total on the milestone); ` +
      `(own hand value − own gap) / ${HAND_VALUE_SCALE} in [−1, 1] (0 without a milestone above); then each opponent's gap, clockwise as in opponents.`,
    fromView: (view, out, at) => {
      writeOwnMilestone(out, at, milestoneGap(view.totals[view.seat], view.rules), view.handValue);
      for (let i = 1; i < view.players; i++)
        out[at + 2 + i] = scaledGap(milestoneGap(view.totals[clockwise(view.seat, i, view.players)], view.rules));
    },
    bounds: (x) => (x.milestones ? [unit, unit, [-1, 1], ...perOpponent(x, 1, () => [unit])] : repeat(3 + OPPONENTS, zero)),
  },
] as const satisfies readonly Written<string>[];

export type SegmentName = (typeof SEGMENT_SPECS)[number]['name'];

export type ObservationSegment = Placed<Written<SegmentName>>;

const OBSERVATION_LAYOUT = segmentLayout<SegmentName, Written<SegmentName>>(SEGMENT_SPECS);
export const OBSERVATION_SEGMENTS: readonly ObservationSegment[] = OBSERVATION_LAYOUT.segments;
export const OBSERVATION_SIZE = OBSERVATION_LAYOUT.size;
/** Segment name → start offset. */
export const OBS: Readonly<Record<SegmentName, number>> = OBSERVATION_LAYOUT.offsets;

// The hot path. Every offset below is read from the layouts above (OBS, the opponent fields),
// none typed by hand; the view writers in the table are the reference it must equal byte for
// byte (test/env/gym/observation.test.ts). It is one function rather than a loop over the
// table's segments: a call per segment measured 0.68× this encoder's speed (0.80× unrolled).
const AT_PHASE = OBS.phase;
const AT_HAND = OBS.hand;
const AT_SLOTS = OBS.handSlots;
const AT_HAND_STATS = OBS.handStats;
const AT_OWN_KNOWN = OBS.ownKnown;
const AT_OWN_SCORE = OBS.ownScore;
const AT_PREVIOUS = OBS.previousCards;
const AT_PICKABLE = OBS.previousPickable;
const AT_PREVIOUS_TYPE = OBS.previousType;
const AT_LAID = OBS.laid;
const AT_DRAWN = OBS.drawn;
const AT_OPPONENTS = OBS.opponents;
const AT_PILE = OBS.pile;
const AT_DECK = OBS.deck;
const AT_PROGRESS = OBS.progress;
const AT_RULES = OBS.rules;
const AT_MILESTONES = OBS.milestones;

/** The hand being encoded, sorted by kind (jokers last). */
const sortedHand = new Uint8Array(HAND_CAP);
let lastRules: Rules | null = null;
let lastRuleVector: Float32Array = new Float32Array(RULE_FEATURES.length);
let lastTargets: Int32Array = new Int32Array(0);

/** Writes seat's observation of the state into `out[offset .. +OBSERVATION_SIZE)`. Allocation-free. */
export function encodeObservation(s: GameState, seat: number, out: Float32Array, offset = 0): void {
  out.fill(0, offset, offset + OBSERVATION_SIZE);
  const { rules, hands, handLength, known, totals, yanivWins } = s;
  if (rules !== lastRules) {
    lastRuleVector = ruleVector(rules);
    lastTargets = milestoneTargets(rules);
    lastRules = rules;
  }
  const phase = s.phase;
  if (phase === PHASE_TURN || phase === PHASE_DRAW || phase === PHASE_AFTER_DRAW) out[offset + AT_PHASE + phase] = 1;
  const perLimit = 1 / rules.eliminationLimit;
  const perYanivs = 1 / rules.yanivsToWin;

  const length = handLength[seat];
  const cards = sortedHand;
  sortByKind(hands, seat * HAND_CAP, length, cards);
  const values = s.values;
  let value = 0;
  const ownKnown = seat * KIND_COUNT;
  for (let i = 0; i < length; i++) {
    const card = cards[i];
    value += values[card];
    out[offset + AT_HAND + card] += COUNT_SCALE;
    out[offset + AT_SLOTS + i * KIND_COUNT + card] = 1;
    // Cards known to sit in a hand are in that hand: writing the count of each kind the hand
    // holds (0 for most) gives the bytes a scan of all 53 kinds would, without branches.
    out[offset + AT_OWN_KNOWN + card] = known[ownKnown + card] * COUNT_SCALE;
  }
  out[offset + AT_HAND_STATS] = length * PER_SLOT;
  out[offset + AT_HAND_STATS + 1] = value * PER_HAND_VALUE;
  out[offset + AT_OWN_SCORE] = totals[seat] * perLimit;
  out[offset + AT_OWN_SCORE + 1] = yanivWins[seat] * perYanivs;
  writeOwnMilestone(out, offset + AT_MILESTONES, gapTo(totals[seat], lastTargets), value);

  const prev = s.prev;
  const pickable = s.prevPickable;
  for (let i = 0; i < s.prevLength; i++) {
    out[offset + AT_PREVIOUS + prev[i]] += COUNT_SCALE;
    out[offset + AT_PICKABLE + prev[i]] += COUNT_SCALE * ((pickable >> i) & 1);
  }
  out[offset + AT_PREVIOUS_TYPE + s.prevType - 1] = 1;
  const laid = s.laid;
  for (let i = 0; i < s.laidLength; i++) out[offset + AT_LAID + laid[i]] += COUNT_SCALE;
  if (s.current === seat && s.drawn >= 0) out[offset + AT_DRAWN + s.drawn] = 1;

  const players = s.players;
  const active = s.active;
  for (let i = 1; i < players; i++) {
    const other = clockwise(seat, i, players);
    const block = offset + AT_OPPONENTS + (i - 1) * OPPONENT_BLOCK;
    out[block + AT_PRESENT] = 1;
    out[block + AT_ACTIVE] = active[other];
    out[block + AT_HAND_SIZE] = handLength[other] * PER_SLOT;
    out[block + AT_TOTAL] = totals[other] * perLimit;
    out[block + AT_WINS] = yanivWins[other] * perYanivs;
    const theirs = other * HAND_CAP;
    const theirKnown = other * KIND_COUNT;
    for (let j = 0; j < handLength[other]; j++) {
      const card = hands[theirs + j];
      out[block + AT_KNOWN + card] = known[theirKnown + card] * COUNT_SCALE;
    }
    out[offset + AT_MILESTONES + 2 + i] = scaledGap(gapTo(totals[other], lastTargets));
  }

  const pile = s.pile;
  for (let i = 0; i < s.pileLength; i++) out[offset + AT_PILE + pile[i]] += COUNT_SCALE;
  out[offset + AT_DECK] = s.deckLength * PER_DECK;
  out[offset + AT_PROGRESS] = capped(s.turn * PER_TURN);
  out[offset + AT_PROGRESS + 1] = capped(s.round * PER_ROUND);
  const vector = lastRuleVector;
  for (let i = 0; i < vector.length; i++) out[offset + AT_RULES + i] = vector[i];
}

/**
 * The reference encoder: the same observation computed from the seat's PlayerView alone.
 * Slower; it exists to pin the fast path and to show that the observation holds nothing
 * the view does not.
 */
export function encodeView(view: PlayerView, out = new Float32Array(OBSERVATION_SIZE), offset = 0): Float32Array {
  out.fill(0, offset, offset + OBSERVATION_SIZE);
  for (const segment of OBSERVATION_SEGMENTS) segment.fromView(view, out, offset + segment.start);
  return out;
}

/** The segments of an observation by name (views into it), for inspection and debugging. */
export function splitObservation(observation: Float32Array, offset = 0): Record<SegmentName, Float32Array> {
  return Object.fromEntries(
    OBSERVATION_SEGMENTS.map((s) => [s.name, observation.subarray(offset + s.start, offset + s.start + s.size)]),
  ) as Record<SegmentName, Float32Array>;
}
