/**
 * What the observation's segments are built from: the scales, the rule features, the
 * milestone arithmetic both encoders share (so their bytes agree), and the ranges a segment
 * declares for its bounds (observationBounds.ts). The segments themselves, each with its two
 * writers and its bounds, are the one table in observation.ts.
 */
import { MAX_PLAYERS, type Rules } from '../rules/rules.js';
import { HAND_SLOTS } from './actionLayout.js';
import type { EpisodeMode } from './episodeMode.js';

/** Card counts are multiplied by this (two decks hold two of each natural). */
export const COUNT_SCALE = 0.5;
/** The highest value a hand can have: 7 cards of 10. */
export const HAND_VALUE_SCALE = 70;
/** Decks of two 52-card packs and 4 jokers each hold this many cards. */
export const DECK_SCALE = 112;
export const TURN_SCALE = 100;
export const ROUND_SCALE = 50;
export const OPPONENTS = MAX_PLAYERS - 1;

// Scales as multipliers: both encoders compute `x * PER_…`, so their bytes agree.
export const PER_SLOT = 1 / HAND_SLOTS;
export const PER_HAND_VALUE = 1 / HAND_VALUE_SCALE;
export const PER_DECK = 1 / DECK_SCALE;
export const PER_TURN = 1 / TURN_SCALE;
export const PER_ROUND = 1 / ROUND_SCALE;

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

const ruleVectors = new WeakMap<Rules, Float32Array>();

/** The rule features of these rules (cached per rules object). */
export function ruleVector(rules: Rules): Float32Array {
  let vector = ruleVectors.get(rules);
  if (!vector) ruleVectors.set(rules, (vector = Float32Array.from(RULE_FEATURES, ([, feature]) => feature(rules))));
  return vector;
}

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
export function gapTo(total: number, targets: Int32Array): number {
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
export function writeOwnMilestone(out: Float32Array, at: number, gap: number, handValue: number): void {
  if (gap === 0) return;
  const excess = (handValue - gap) * PER_HAND_VALUE;
  out[at] = scaledGap(gap);
  out[at + 1] = handValue === gap ? 1 : 0;
  out[at + 2] = excess < -1 ? -1 : excess > 1 ? 1 : excess;
}

/** A milestone gap as the observation holds it: / HAND_VALUE_SCALE, capped at 1. */
export function scaledGap(gap: number): number {
  const scaled = gap * PER_HAND_VALUE;
  return scaled < 1 ? scaled : 1;
}

/** x capped at 1, as the fast encoder computes it (no Math.min, the same bytes). */
export const capped = (x: number): number => (x < 1 ? x : 1);

// ---- The ranges a segment declares (its bounds), read by observationBounds.ts ----

export interface ObservationBoundsOptions {
  readonly rules: Rules;
  readonly players: number;
  /** "round": each episode is a fresh game's first round; "game": rounds until the game ends. */
  readonly episode: EpisodeMode;
  /** The episode's turn cap, if any (it caps the successful calls a seat can make). */
  readonly maxTurns: number | null;
}

/** What the segment bounds read: the rules' extremes, computed once per table. */
export interface Extremes {
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

export type Range = readonly [low: number, high: number];

export const unit: Range = [0, 1];
export const zero: Range = [0, 0];
export const repeat = (count: number, range: Range): Range[] => Array.from({ length: count }, () => range);

/** A count × COUNT_SCALE per kind, at most `cap` of a kind. */
export const counts = (x: Extremes, cap = Infinity): Range[] =>
  Array.from(x.copies, (copies) => [0, Math.min(copies, cap) * COUNT_SCALE] as const);
/** A one-hot kind: only kinds the decks hold can be set. */
export const oneHotKind = (x: Extremes): Range[] => Array.from(x.copies, (copies) => (copies > 0 ? unit : zero));
/** The opponent blocks' ranges: the present seats' block, the absent seats' zeros. */
export const perOpponent = (x: Extremes, size: number, block: (x: Extremes) => Range[]): Range[] =>
  Array.from({ length: OPPONENTS }, (_, i) => (i < x.options.players - 1 ? block(x) : repeat(size, zero))).flat();
