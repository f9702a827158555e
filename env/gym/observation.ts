/**
 * The observation: a fixed-length Float32Array from one seat's point of view, built from
 * named segments whose sizes are computed here and nowhere else. Opponents follow in
 * clockwise order after the seat, padded to MAX_PLAYERS − 1 blocks, so one network can
 * play every seat of every table size.
 *
 * Two encoders write the same bytes: `encodeObservation` reads the state straight into a
 * buffer (the hot path), `encodeView` reads only `playerView(state, seat)` (the reference,
 * and the proof that nothing hidden gets in). Tests compare them byte for byte.
 */
import { type Card, KIND_COUNT, sortByKind } from '../rules/cards.js';
import { HAND_SLOTS } from './actionLayout.js';
import { type Segment, segmentLayout } from './segments.js';
import { groupTypeOf } from '../rules/groups.js';
import { MAX_PLAYERS, type Rules } from '../rules/rules.js';
import { type GameState, HAND_CAP, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_NAMES, PHASE_TURN } from '../rules/state.js';
import type { PlayerView } from '../rules/view.js';

export const OBSERVATION_VERSION = 'yaniv-obs/2';

/** Card counts are multiplied by this (two decks hold two of each natural). */
export const COUNT_SCALE = 0.5;
/** The highest value a hand can have: 7 cards of 10. */
export const HAND_VALUE_SCALE = 70;
/** Decks of two 52-card packs and 4 jokers each hold this many cards. */
export const DECK_SCALE = 112;
export const TURN_SCALE = 100;
export const ROUND_SCALE = 50;
export const OPPONENTS = MAX_PLAYERS - 1;

/** The rule settings that change how to play, each scaled into [0, 1]. */
export const RULE_FEATURES: readonly (readonly [string, (rules: Rules) => number])[] = [
  ['yanivThreshold / 30', (r) => r.yanivThreshold / 30],
  ['assaf', (r) => (r.assaf ? 1 : 0)],
  ['assafPenalty / 100', (r) => r.assafPenalty / 100],
  ['assafTiePenalty set', (r) => (r.assafTiePenalty === null ? 0 : 1)],
  ['assafTiePenalty / 100', (r) => (r.assafTiePenalty ?? 0) / 100],
  ['pickFromSet "ends"', (r) => (r.pickFromSet === 'ends' ? 1 : 0)],
  ['pickFromRun "any"', (r) => (r.pickFromRun === 'any' ? 1 : 0)],
  ['quickDiscard', (r) => (r.quickDiscard ? 1 : 0)],
  ['slapdown', (r) => (r.slapdown ? 1 : 0)],
  ['jackValue / 10', (r) => r.jackValue / 10],
  ['handSize / 7', (r) => r.handSize / HAND_SLOTS],
  ['decks − 1', (r) => r.decks - 1],
  ['jokersPerDeck / 4', (r) => r.jokersPerDeck / 4],
];

/** One opponent's block, in order. */
export const OPPONENT_FIELDS = [
  { name: 'present', size: 1, description: '1 if this seat exists at the table.' },
  { name: 'active', size: 1, description: '1 if the seat is still in the game.' },
  { name: 'handSize', size: 1, description: 'Cards in its hand / 7.' },
  { name: 'total', size: 1, description: 'Its total / eliminationLimit.' },
  { name: 'yanivWins', size: 1, description: 'Its successful calls / yanivsToWin.' },
  {
    name: 'known',
    size: KIND_COUNT,
    description: `Cards it took from the pile in view of all and still holds, count × ${COUNT_SCALE} per kind.`,
  },
] as const;
export const OPPONENT_BLOCK = OPPONENT_FIELDS.reduce((sum, f) => sum + f.size, 0);

const SEGMENT_SPECS = [
  { name: 'phase', size: 3, description: 'One-hot turn / draw / afterDraw (all 0 once the round or game is over).' },
  { name: 'hand', size: KIND_COUNT, description: `Own hand, count × ${COUNT_SCALE} per kind (kind = suit·13 + rank − 1, joker 52).` },
  {
    name: 'handSlots',
    size: HAND_SLOTS * KIND_COUNT,
    description:
      'Own hand sorted by kind (jokers last): for each of the 7 slots the one-hot kind, all 0 when empty. DISCARD ids refer to these slots.',
  },
  { name: 'handStats', size: 2, description: `Own hand size / 7, own hand value / ${HAND_VALUE_SCALE}.` },
  { name: 'ownKnown', size: KIND_COUNT, description: `Own cards the others saw taken from the pile, count × ${COUNT_SCALE} per kind.` },
  { name: 'ownScore', size: 2, description: 'Own total / eliminationLimit, own successful calls / yanivsToWin.' },
  { name: 'previousCards', size: KIND_COUNT, description: `The previous group (what is left of it), count × ${COUNT_SCALE} per kind.` },
  { name: 'previousPickable', size: KIND_COUNT, description: `Its cards that may be taken, count × ${COUNT_SCALE} per kind.` },
  { name: 'previousType', size: 3, description: 'One-hot single / set / run of the previous group.' },
  { name: 'laid', size: KIND_COUNT, description: `The group the player to move laid this turn, count × ${COUNT_SCALE} per kind.` },
  { name: 'drawn', size: KIND_COUNT, description: 'One-hot card drawn this turn, when the seat is the player to move.' },
  {
    name: 'opponents',
    size: OPPONENTS * OPPONENT_BLOCK,
    description: `${OPPONENTS} blocks of ${OPPONENT_BLOCK} (fields below), the seats clockwise after this one; blocks past the table size are all 0.`,
  },
  {
    name: 'pile',
    size: KIND_COUNT,
    description: `Discards out of reach (out of play until a reshuffle), count × ${COUNT_SCALE} per kind.`,
  },
  { name: 'deck', size: 1, description: `Cards in the deck / ${DECK_SCALE}.` },
  {
    name: 'progress',
    size: 2,
    description: `Turns completed in the round / ${TURN_SCALE} and round number / ${ROUND_SCALE}, each capped at 1.`,
  },
  { name: 'rules', size: RULE_FEATURES.length, description: `Rule settings: ${RULE_FEATURES.map(([name]) => name).join(', ')}.` },
  {
    name: 'milestones',
    size: 3 + OPPONENTS,
    description:
      `The gap from a total to the next milestone above it that lowers it (0: none), / ${HAND_VALUE_SCALE} capped at 1: ` +
      `own gap; 1 if the own hand's value equals it (the round ending now would land the total on the milestone); ` +
      `(own hand value − own gap) / ${HAND_VALUE_SCALE} in [−1, 1] (0 without a milestone above); then each opponent's gap, clockwise as in opponents.`,
  },
] as const;

export type SegmentName = (typeof SEGMENT_SPECS)[number]['name'];

export type ObservationSegment = Segment<SegmentName>;

const OBSERVATION_LAYOUT = segmentLayout<SegmentName>(SEGMENT_SPECS);
export const OBSERVATION_SEGMENTS: readonly ObservationSegment[] = OBSERVATION_LAYOUT.segments;
export const OBSERVATION_SIZE = OBSERVATION_LAYOUT.size;
/** Segment name → start offset. */
export const OBS: Readonly<Record<SegmentName, number>> = OBSERVATION_LAYOUT.offsets;

/**
 * Earlier observation versions whose observation is the first inputs of this one, with their
 * length: a model trained for one can be widened to this version (scripts/widenModel.ts).
 */
export const EARLIER_OBSERVATIONS: Readonly<Record<string, number>> = { 'yaniv-obs/1': OBS.milestones };

const O_PRESENT = 0;
const O_ACTIVE = 1;
const O_HAND_SIZE = 2;
const O_TOTAL = 3;
const O_WINS = 4;
const O_KNOWN = 5;

function ruleVector(rules: Rules): Float32Array {
  return Float32Array.from(RULE_FEATURES, ([, feature]) => feature(rules));
}

/** The hand being encoded, sorted by kind (jokers last). */
const sortedHand = new Uint8Array(HAND_CAP);

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

// Scales as multipliers: both encoders compute `x * PER_…`, so their bytes agree.
const PER_SLOT = 1 / HAND_SLOTS;
const PER_HAND_VALUE = 1 / HAND_VALUE_SCALE;
const PER_DECK = 1 / DECK_SCALE;
const PER_TURN = 1 / TURN_SCALE;
const PER_ROUND = 1 / ROUND_SCALE;

/** The `at` of each milestone that lowers a total (`[at, to]` with to < at), ascending, per rules (cached). */
const loweringMilestones = new WeakMap<Rules, Int32Array>();

export function milestoneTargets(rules: Rules): Int32Array {
  let targets = loweringMilestones.get(rules);
  if (!targets) {
    targets = Int32Array.from(rules.milestones.filter(([at, to]) => to < at).map(([at]) => at)).sort();
    loweringMilestones.set(rules, targets);
  }
  return targets;
}

/** Points from `total` up to the nearest of the ascending `targets` above it, or 0 when there is none. */
function gapTo(total: number, targets: Int32Array): number {
  for (let i = 0; i < targets.length; i++) if (targets[i] > total) return targets[i] - total;
  return 0;
}

/**
 * Points from `total` up to the nearest milestone above it that lowers a total (`[at, to]` with
 * to < at), or 0 when there is none: a round that adds exactly this much lands on the milestone.
 */
export function milestoneGap(total: number, rules: Rules): number {
  return gapTo(total, milestoneTargets(rules));
}

/** The own part of the milestones segment; both encoders call it, so their bytes agree. */
function writeOwnMilestone(out: Float32Array, at: number, gap: number, handValue: number): void {
  if (gap === 0) return;
  const excess = (handValue - gap) * PER_HAND_VALUE;
  out[at] = scaledGap(gap);
  out[at + 1] = handValue === gap ? 1 : 0;
  out[at + 2] = excess < -1 ? -1 : excess > 1 ? 1 : excess;
}

/** A milestone gap as the observation holds it: / HAND_VALUE_SCALE, capped at 1. */
function scaledGap(gap: number): number {
  const scaled = gap * PER_HAND_VALUE;
  return scaled < 1 ? scaled : 1;
}

const ruleVectors = new WeakMap<Rules, Float32Array>();
let lastRules: Rules | null = null;
let lastRuleVector: Float32Array = new Float32Array(RULE_FEATURES.length);
let lastTargets: Int32Array = new Int32Array(0);

/** Writes seat's observation of the state into `out[offset .. +OBSERVATION_SIZE)`. Allocation-free. */
export function encodeObservation(s: GameState, seat: number, out: Float32Array, offset = 0): void {
  out.fill(0, offset, offset + OBSERVATION_SIZE);
  const { rules, hands, handLength, known, totals, yanivWins } = s;
  const phase = s.phase;
  if (phase === PHASE_TURN || phase === PHASE_DRAW || phase === PHASE_AFTER_DRAW) out[offset + AT_PHASE + phase] = 1;
  const perLimit = 1 / rules.eliminationLimit;
  const perYanivs = 1 / rules.yanivsToWin;

  const base = seat * HAND_CAP;
  const length = handLength[seat];
  const cards = sortedHand;
  sortByKind(hands, base, length, cards);
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
  const targets = rules === lastRules ? lastTargets : milestoneTargets(rules);
  writeOwnMilestone(out, offset + AT_MILESTONES, gapTo(totals[seat], targets), value);

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
    let other = seat + i;
    if (other >= players) other -= players;
    const block = offset + AT_OPPONENTS + (i - 1) * OPPONENT_BLOCK;
    const size = handLength[other];
    out[block + O_PRESENT] = 1;
    out[block + O_ACTIVE] = active[other];
    out[block + O_HAND_SIZE] = size * PER_SLOT;
    out[block + O_TOTAL] = totals[other] * perLimit;
    out[block + O_WINS] = yanivWins[other] * perYanivs;
    out[offset + AT_MILESTONES + 2 + i] = scaledGap(gapTo(totals[other], targets));
    const theirs = other * HAND_CAP;
    const theirKnown = other * KIND_COUNT;
    for (let j = 0; j < size; j++) {
      const card = hands[theirs + j];
      out[block + O_KNOWN + card] = known[theirKnown + card] * COUNT_SCALE;
    }
  }

  const pile = s.pile;
  for (let i = 0; i < s.pileLength; i++) out[offset + AT_PILE + pile[i]] += COUNT_SCALE;
  out[offset + AT_DECK] = s.deckLength * PER_DECK;
  const turn = s.turn * PER_TURN;
  const round = s.round * PER_ROUND;
  out[offset + AT_PROGRESS] = turn < 1 ? turn : 1;
  out[offset + AT_PROGRESS + 1] = round < 1 ? round : 1;
  if (rules !== lastRules) {
    let vector = ruleVectors.get(rules);
    if (!vector) ruleVectors.set(rules, (vector = ruleVector(rules)));
    lastRuleVector = vector;
    lastTargets = milestoneTargets(rules);
    lastRules = rules;
  }
  const vector = lastRuleVector;
  for (let i = 0; i < vector.length; i++) out[offset + AT_RULES + i] = vector[i];
}

function addCounts(out: Float32Array, at: number, cards: readonly Card[]): void {
  for (const card of cards) out[at + card] += COUNT_SCALE;
}

/**
 * The reference encoder: the same observation computed from the seat's PlayerView alone.
 * Slower; it exists to pin the fast path and to show that the observation holds nothing
 * the view does not.
 */
export function encodeView(view: PlayerView, out = new Float32Array(OBSERVATION_SIZE), offset = 0): Float32Array {
  out.fill(0, offset, offset + OBSERVATION_SIZE);
  const { rules, seat } = view;
  const phase = PHASE_NAMES.indexOf(view.phase);
  if (phase <= PHASE_AFTER_DRAW) out[offset + OBS.phase + phase] = 1;

  addCounts(out, offset + OBS.hand, view.hand);
  view.hand.forEach((card, slot) => {
    out[offset + OBS.handSlots + slot * KIND_COUNT + card] = 1;
  });
  out[offset + OBS.handStats] = view.hand.length * PER_SLOT;
  out[offset + OBS.handStats + 1] = view.handValue * PER_HAND_VALUE;
  addCounts(out, offset + OBS.ownKnown, view.known[seat]);
  out[offset + OBS.ownScore] = view.totals[seat] * (1 / rules.eliminationLimit);
  out[offset + OBS.ownScore + 1] = view.yanivWins[seat] * (1 / rules.yanivsToWin);
  writeOwnMilestone(out, offset + OBS.milestones, milestoneGap(view.totals[seat], rules), view.handValue);

  addCounts(out, offset + OBS.previousCards, view.previous.cards);
  addCounts(out, offset + OBS.previousPickable, view.previous.pickable);
  out[offset + OBS.previousType + groupTypeOf(view.previous.type) - 1] = 1;
  if (view.laid) addCounts(out, offset + OBS.laid, view.laid.cards);
  if (view.drawn !== null) out[offset + OBS.drawn + view.drawn] = 1;

  for (let i = 1; i < view.players; i++) {
    const other = (seat + i) % view.players;
    const block = offset + OBS.opponents + (i - 1) * OPPONENT_BLOCK;
    out[block + O_PRESENT] = 1;
    out[block + O_ACTIVE] = view.active[other] ? 1 : 0;
    out[block + O_HAND_SIZE] = view.handSizes[other] * PER_SLOT;
    out[block + O_TOTAL] = view.totals[other] * (1 / rules.eliminationLimit);
    out[block + O_WINS] = view.yanivWins[other] * (1 / rules.yanivsToWin);
    out[offset + OBS.milestones + 2 + i] = scaledGap(milestoneGap(view.totals[other], rules));
    addCounts(out, block + O_KNOWN, view.known[other]);
  }

  addCounts(out, offset + OBS.pile, view.pile);
  out[offset + OBS.deck] = view.deckSize * PER_DECK;
  out[offset + OBS.progress] = Math.min(1, view.turn * PER_TURN);
  out[offset + OBS.progress + 1] = Math.min(1, view.round * PER_ROUND);
  out.set(ruleVector(rules), offset + OBS.rules);
  return out;
}

/** The segments of an observation by name (views into it), for inspection and debugging. */
export function splitObservation(observation: Float32Array, offset = 0): Record<SegmentName, Float32Array> {
  return Object.fromEntries(
    OBSERVATION_SEGMENTS.map((s) => [s.name, observation.subarray(offset + s.start, offset + s.start + s.size)]),
  ) as Record<SegmentName, Float32Array>;
}
