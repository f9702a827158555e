/**
 * The exact range of every observation feature for one table: the `low`/`high` vectors a
 * Gymnasium `Box` declares (bridge/, python/). Each segment of observation.ts declares its own
 * ranges from the table's extremes computed here.
 *
 * A bound holds for every position an episode can reach from a reset (totals 0 at the start of
 * the game); the values are computed by the encoder's own arithmetic (`x * (1 / scale)`,
 * rounded to float32), so an encoded feature never exceeds its bound by a rounding step.
 * Features with no bound in the rules (successful calls in a game that has no cap on rounds)
 * get +Infinity.
 */
import { MAX_CARD_VALUE, deckComposition } from '../rules/cards.js';
import type { Rules } from '../rules/rules.js';
import { OBSERVATION_SEGMENTS, OBSERVATION_SIZE } from './observation.js';
import { type Extremes, type ObservationBoundsOptions, milestoneTargets } from './observationParts.js';

export type { ObservationBoundsOptions } from './observationParts.js';

export interface ObservationBounds {
  readonly low: Float32Array;
  readonly high: Float32Array;
}

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
    const ranges = segment.bounds(x);
    if (ranges.length !== segment.size)
      throw new Error(`observation bounds: segment ${segment.name} has ${segment.size} features, ${ranges.length} bounds`);
    ranges.forEach(([lo, hi], i) => {
      low[segment.start + i] = lo;
      high[segment.start + i] = hi;
    });
  }
  return { low, high };
}
