/**
 * The game equity at 3–8 seats: a small learned predictor, fitted to games an agent played out
 * from sampled totals (agents/equity/equityFit.ts). Heads-up the equity is solved exactly
 * (equity.ts); with more seats a round moves every total at once and the state space is too
 * large for the recursion, so each seat gets a score and the equities are a softmax of the
 * scores of the seats still in (they sum to 1 by construction, like a Plackett–Luce model).
 * The same model serves heads-up rules no data ships for (agents/equity/equityPlayouts.ts fits it on the fly).
 *
 * A seat's score, for each number of seats still in (its own weights):
 *   - its total, piecewise linear with a knot every `knotStep` points and slopes kept ≤ 0, so
 *     that a point more never helps away from milestones;
 *   - for each milestone `g` points above its total (g ≤ `maxGap`), a weight per g: a seat that
 *     plays for milestones lands on them far more than its plain points say;
 *   - its place in the next round's turn order (0 = it starts).
 *
 * Pure: no I/O.
 */
import type { Rules } from '../rules/rules.js';
import { EquityError, type SeatPredictor, type SeatWeights } from './equityData.js';
import { milestoneGaps } from './milestones.js';

export interface SeatFeatures {
  /** ramps[t][k]: the share of the k-th `knotStep` points segment covered by total t (0..1). */
  readonly ramps: readonly Float64Array[];
  /** gaps[t]: the milestone distances g ≤ maxGap above total t. */
  readonly gaps: readonly (readonly number[])[];
}

export function segmentCount(rules: Rules, knotStep: number): number {
  return Math.ceil(rules.eliminationLimit / knotStep);
}

/** The features of every total 0..eliminationLimit. */
export function seatFeatures(rules: Rules, knotStep: number, maxGap: number): SeatFeatures {
  const segments = segmentCount(rules, knotStep);
  const ramps: Float64Array[] = [];
  const gaps: number[][] = [];
  for (let t = 0; t <= rules.eliminationLimit; t++) {
    ramps.push(Float64Array.from({ length: segments }, (_, k) => Math.min(Math.max(t - k * knotStep, 0), knotStep) / knotStep));
    gaps.push(milestoneGaps(rules, t).filter((g) => g <= maxGap));
  }
  return { ramps, gaps };
}

/** The score of a total alone (its segments and milestone gaps) under these weights. */
export function totalScore(features: SeatFeatures, weights: SeatWeights, total: number): number {
  const ramp = features.ramps[total];
  let s = 0;
  for (let k = 0; k < ramp.length; k++) s += ramp[k] * weights.total[k];
  for (const g of features.gaps[total]) s += weights.gap[g - 1];
  return s;
}

/** Active seats in turn order, the starter first (the starter itself if active, else the next active seat after it). */
export function turnOrder(active: readonly boolean[], starter: number): number[] {
  const n = active.length;
  const seats: number[] = [];
  for (let i = 0; i < n; i++) {
    const seat = (starter + i) % n;
    if (active[seat]) seats.push(seat);
  }
  return seats;
}

/** The learned equity of one rule set and table size (3–8 seats). */
export class SeatEquity {
  private readonly features: SeatFeatures;

  constructor(
    readonly rules: Rules,
    readonly players: number,
    readonly predictor: SeatPredictor,
  ) {
    if (players < 2) throw new EquityError(`the learned equity is for 2 or more seats (got ${players})`);
    for (let n = 2; n <= players; n++) {
      const w = predictor.byActive[n];
      if (!w) throw new EquityError(`the equity predictor has no weights for ${n} seats in`);
      if (w.total.length !== segmentCount(rules, predictor.knotStep) || w.gap.length !== predictor.maxGap || w.order.length !== n)
        throw new EquityError(`the equity predictor's weights for ${n} seats in do not fit its layout`);
    }
    this.features = seatFeatures(rules, predictor.knotStep, predictor.maxGap);
  }

  /** Each seat's P(win) with every active total within the limit (0 for a seat out). */
  seats(totals: readonly number[], active: readonly boolean[], starter: number): number[] {
    const order = turnOrder(active, starter);
    const out = totals.map(() => 0);
    if (order.length === 1) {
      out[order[0]] = 1;
      return out;
    }
    const weights = this.predictor.byActive[order.length];
    const scores = order.map((seat, place) => totalScore(this.features, weights, totals[seat]) + weights.order[place]);
    const top = Math.max(...scores);
    const exps = scores.map((s) => Math.exp(s - top));
    const sum = exps.reduce((a, b) => a + b, 0);
    order.forEach((seat, i) => {
      out[seat] = exps[i] / sum;
    });
    return out;
  }
}
