/**
 * The exact range of every observation feature for one table: the `low`/`high` vectors a
 * Gymnasium `Box` declares (bridge/, python/). Each segment of observation.ts has its bound
 * here, keyed by name, so a segment added there does not compile until it is bounded.
 *
 * A bound holds for every position an episode can reach from a reset (totals 0 at the start of
 * the game); the values are computed by the encoder's own arithmetic (`x * (1 / scale)`,
 * rounded to float32), so an encoded feature never exceeds its bound by a rounding step.
 * Features with no bound in the rules (successful calls in a game that has no cap on rounds)
 * get +Infinity.
 */
import { KIND_COUNT, MAX_CARD_VALUE, deckComposition } from '../rules/cards.js';
import type { Rules } from '../rules/rules.js';
import { HAND_SLOTS } from './actionLayout.js';
import type { EpisodeMode } from './episode.js';
import {
  COUNT_SCALE,
  DECK_SCALE,
  HAND_VALUE_SCALE,
  OBSERVATION_SEGMENTS,
  OBSERVATION_SIZE,
  OPPONENT_FIELDS,
  OPPONENTS,
  RULE_FEATURES,
  type SegmentName,
  milestoneTargets,
} from './observation.js';

export interface ObservationBoundsOptions {
  readonly rules: Rules;
  readonly players: number;
  /** "round": each episode is a fresh game's first round; "game": rounds until the game ends. */
  readonly episode: EpisodeMode;
  /** The episode's turn cap, if any (it caps the successful calls a seat can make). */
  readonly maxTurns: number | null;
}

export interface ObservationBounds {
  readonly low: Float32Array;
  readonly high: Float32Array;
}

/** What the segment bounds read: the rules' extremes, computed once per table. */
interface Extremes {
  readonly options: ObservationBoundsOptions;
  /** Copies of each kind in the decks. */
  readonly copies: Uint8Array;
  /** The highest total a seat can have: / eliminationLimit as the encoder scales it. */
  readonly total: number;
  /** The most successful calls a seat can make in an episode / yanivsToWin (Infinity without a cap). */
  readonly calls: number;
  /** Whether any milestone lowers a total (else the milestones segment is all 0). */
  readonly milestones: boolean;
}

type Range = readonly [low: number, high: number];
type SegmentBounds = (x: Extremes) => readonly Range[];

const unit: Range = [0, 1];
const zero: Range = [0, 0];
const repeat = (count: number, range: Range): Range[] => Array.from({ length: count }, () => range);

/** A count × COUNT_SCALE per kind, at most `cap` of a kind. */
const counts = (x: Extremes, cap = Infinity): Range[] =>
  Array.from(x.copies, (copies) => [0, Math.min(copies, cap) * COUNT_SCALE] as const);
/** A one-hot kind: only kinds the decks hold can be set. */
const oneHotKind = (x: Extremes): Range[] => Array.from(x.copies, (copies) => (copies > 0 ? unit : zero));

function opponentBlock(x: Extremes, present: boolean): Range[] {
  const { handSize } = x.options.rules;
  const fields: Record<(typeof OPPONENT_FIELDS)[number]['name'], Range[]> = {
    present: [unit],
    active: [unit],
    handSize: [[0, handSize * (1 / HAND_SLOTS)]],
    total: [[0, x.total]],
    yanivWins: [[0, x.calls]],
    known: counts(x, handSize),
  };
  return OPPONENT_FIELDS.flatMap((field) => (present ? fields[field.name] : repeat(field.size, zero)));
}

const SEGMENT_BOUNDS: Record<SegmentName, SegmentBounds> = {
  phase: () => repeat(3, unit),
  hand: (x) => counts(x, x.options.rules.handSize),
  handSlots: (x) =>
    Array.from({ length: HAND_SLOTS }, (_, slot) => (slot < x.options.rules.handSize ? oneHotKind(x) : repeat(KIND_COUNT, zero))).flat(),
  handStats: (x) => [
    [0, x.options.rules.handSize * (1 / HAND_SLOTS)],
    [0, x.options.rules.handSize * MAX_CARD_VALUE * (1 / HAND_VALUE_SCALE)],
  ],
  ownKnown: (x) => counts(x, x.options.rules.handSize),
  ownScore: (x) => [
    [0, x.total],
    [0, x.calls],
  ],
  previousCards: (x) => counts(x),
  previousPickable: (x) => counts(x),
  previousType: () => repeat(3, unit),
  laid: (x) => counts(x),
  drawn: oneHotKind,
  opponents: (x) => Array.from({ length: OPPONENTS }, (_, i) => opponentBlock(x, i < x.options.players - 1)).flat(),
  pile: (x) => counts(x),
  deck: (x) => [[0, x.copies.reduce((sum, c) => sum + c, 0) * (1 / DECK_SCALE)]],
  progress: () => repeat(2, unit),
  rules: (x) =>
    RULE_FEATURES.map(([, feature]) => {
      const value = feature(x.options.rules);
      return [value, value] as const;
    }),
  milestones: (x) =>
    x.milestones
      ? [unit, unit, [-1, 1], ...Array.from({ length: OPPONENTS }, (_, i): Range => (i < x.options.players - 1 ? unit : zero))]
      : repeat(3 + OPPONENTS, zero),
};

/** The most points a seat can add in one round, before milestones. */
function roundPoints(rules: Rules): number {
  const hand = rules.handSize * MAX_CARD_VALUE;
  const caller = rules.assaf ? Math.max(rules.yanivThreshold + rules.assafPenalty, rules.assafTiePenalty ?? 0) : 0;
  return Math.max(hand, caller);
}

function extremes(options: ObservationBoundsOptions): Extremes {
  const { rules, players, episode, maxTurns } = options;
  // A seat still in the game holds at most the limit before a round (0 before a round episode's
  // only round); a round adds its points, a milestone may set any of its `to`, robbery adds 30 per other hitter.
  const before = episode === 'round' ? 0 : rules.eliminationLimit;
  const highestTo = Math.max(0, ...rules.milestones.map(([, to]) => to));
  const robbery = rules.milestoneRobbery ? 30 * (players - 1) : 0;
  const total = Math.max(before + roundPoints(rules), highestTo) + robbery;
  const callCaps = [
    episode === 'round' ? 1 : Infinity,
    rules.gameEnd === 'yanivCount' ? rules.yanivsToWin : Infinity,
    maxTurns ?? Infinity,
  ];
  return {
    options,
    copies: deckComposition(rules.decks, rules.jokersPerDeck),
    total: total * (1 / rules.eliminationLimit),
    calls: Math.min(...callCaps) * (1 / rules.yanivsToWin),
    milestones: milestoneTargets(rules).length > 0,
  };
}

/** The low and high of every observation feature for this table (float32, as the observation holds them). */
export function observationBounds(options: ObservationBoundsOptions): ObservationBounds {
  const x = extremes(options);
  const low = new Float32Array(OBSERVATION_SIZE);
  const high = new Float32Array(OBSERVATION_SIZE);
  for (const segment of OBSERVATION_SEGMENTS) {
    const ranges = SEGMENT_BOUNDS[segment.name](x);
    if (ranges.length !== segment.size)
      throw new Error(`observation bounds: segment ${segment.name} has ${segment.size} features, ${ranges.length} bounds`);
    ranges.forEach(([lo, hi], i) => {
      low[segment.start + i] = lo;
      high[segment.start + i] = hi;
    });
  }
  return { low, high };
}
