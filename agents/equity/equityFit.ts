/**
 * Fits the learned game equity at 3–8 seats (env/gym/seatEquity.ts) to tables between rounds
 * of played games (equityModel.ts measureSeatStates): for each number of seats still in, the
 * weights that minimise the cross-entropy of the game's winner under the softmax of the seats'
 * scores. The loss is convex in the weights; full-batch Adam, with the total's slopes projected
 * onto ≤ 0 after each step (a point more never helps away from milestones).
 */
import { type SeatPredictor, type SeatWeights } from '../../env/gym/equityData.js';
import { seatFeatures, segmentCount, turnOrder } from '../../env/gym/seatEquity.js';
import type { Rules } from '../../env/rules/rules.js';
import type { SeatState } from './equityModel.js';

export interface FitOptions {
  knotStep?: number;
  maxGap?: number;
  epochs?: number;
  learningRate?: number;
  /** L2 penalty on the milestone and turn-order weights. */
  l2?: number;
  /** The share of states (the last ones, so whole games apart from one) held out to report the fit on. */
  holdout?: number;
  /** A time (ms of `performance.now()`) past which the fit gives up (`FitTooLong`, checked each epoch); none by default. */
  deadline?: number;
}

/** The fit took longer than its time budget. */
export class FitTooLong extends Error {
  override name = 'FitTooLong';
}

/** Mean cross-entropy of the winner (nats) on the fitted and held-out states, beside a uniform guess. */
export interface FitReport {
  readonly byActive: Readonly<Record<string, { states: number; train: number; holdout: number; uniform: number }>>;
}

interface Sample {
  /** The seats' totals in turn order from the starter. */
  readonly totals: readonly number[];
  /** The winner's place in that order. */
  readonly winner: number;
}

function samplesByActive(states: readonly SeatState[], players: number): Sample[][] {
  const out: Sample[][] = Array.from({ length: players + 1 }, () => []);
  for (const state of states) {
    const order = turnOrder(state.active, state.starter);
    const winner = order.indexOf(state.winner);
    if (order.length < 2 || winner < 0) continue;
    out[order.length].push({ totals: order.map((seat) => state.totals[seat]), winner });
  }
  return out;
}

/** Adam over a flat parameter vector. */
class Adam {
  private readonly m: Float64Array;
  private readonly v: Float64Array;
  private t = 0;

  constructor(
    size: number,
    private readonly rate: number,
  ) {
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
  }

  step(params: Float64Array, grad: Float64Array): void {
    this.t++;
    const [b1, b2] = [0.9, 0.999];
    for (let i = 0; i < params.length; i++) {
      this.m[i] = b1 * this.m[i] + (1 - b1) * grad[i];
      this.v[i] = b2 * this.v[i] + (1 - b2) * grad[i] * grad[i];
      const mHat = this.m[i] / (1 - b1 ** this.t);
      const vHat = this.v[i] / (1 - b2 ** this.t);
      params[i] -= (this.rate * mHat) / (Math.sqrt(vHat) + 1e-8);
    }
  }
}

/** The parameters of one active count, flat: total slopes, then gap weights, then turn-order weights. */
class Layout {
  constructor(
    readonly segments: number,
    readonly maxGap: number,
    readonly n: number,
  ) {}
  get size(): number {
    return this.segments + this.maxGap + this.n;
  }
  weights(p: Float64Array): SeatWeights {
    const round = (x: number) => Math.round(x * 1e6) / 1e6;
    return {
      total: Array.from(p.subarray(0, this.segments), (x) => Math.min(round(x), 0)),
      gap: Array.from(p.subarray(this.segments, this.segments + this.maxGap), round),
      order: Array.from(p.subarray(this.segments + this.maxGap), round),
    };
  }
}

/** Each total's score (segments and gaps) under the parameters. */
function totalScores(features: ReturnType<typeof seatFeatures>, layout: Layout, p: Float64Array): Float64Array {
  return Float64Array.from(features.ramps, (ramp, t) => {
    let s = 0;
    for (let k = 0; k < layout.segments; k++) s += ramp[k] * p[k];
    for (const g of features.gaps[t]) s += p[layout.segments + g - 1];
    return s;
  });
}

/** Mean cross-entropy over the samples, and (when `grad` is given) its gradient by each total's score and each place. */
function loss(
  samples: readonly Sample[],
  scores: Float64Array,
  p: Float64Array,
  layout: Layout,
  grad?: { total: Float64Array; order: Float64Array },
): number {
  const orderAt = layout.segments + layout.maxGap;
  const exps = new Float64Array(layout.n);
  let sum = 0;
  for (const sample of samples) {
    let top = -Infinity;
    for (let j = 0; j < layout.n; j++) {
      exps[j] = scores[sample.totals[j]] + p[orderAt + j];
      top = Math.max(top, exps[j]);
    }
    let z = 0;
    for (let j = 0; j < layout.n; j++) z += exps[j] = Math.exp(exps[j] - top);
    sum -= Math.log(exps[sample.winner] / z);
    if (!grad) continue;
    for (let j = 0; j < layout.n; j++) {
      const g = exps[j] / z - (j === sample.winner ? 1 : 0);
      grad.total[sample.totals[j]] += g;
      grad.order[j] += g;
    }
  }
  return sum / Math.max(samples.length, 1);
}

function fitActive(rules: Rules, samples: readonly Sample[], layout: Layout, options: Required<FitOptions>): Float64Array {
  const features = seatFeatures(rules, options.knotStep, options.maxGap);
  const p = new Float64Array(layout.size);
  const adam = new Adam(layout.size, options.learningRate);
  const grad = new Float64Array(layout.size);
  const byTotal = { total: new Float64Array(rules.eliminationLimit + 1), order: new Float64Array(layout.n) };
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    if (performance.now() > options.deadline)
      throw new FitTooLong(`${epoch} of ${options.epochs} epochs fitted (${layout.n} seats in) within the time budget`);
    byTotal.total.fill(0);
    byTotal.order.fill(0);
    loss(samples, totalScores(features, layout, p), p, layout, byTotal);
    grad.fill(0);
    const scale = 1 / Math.max(samples.length, 1);
    features.ramps.forEach((ramp, t) => {
      const g = byTotal.total[t] * scale;
      for (let k = 0; k < layout.segments; k++) grad[k] += ramp[k] * g;
      for (const gap of features.gaps[t]) grad[layout.segments + gap - 1] += g;
    });
    for (let j = 0; j < layout.n; j++) grad[layout.segments + layout.maxGap + j] += byTotal.order[j] * scale;
    for (let i = layout.segments; i < layout.size; i++) grad[i] += 2 * options.l2 * p[i];
    adam.step(p, grad);
    for (let k = 0; k < layout.segments; k++) p[k] = Math.min(p[k], 0);
  }
  return p;
}

const DEFAULTS: Required<FitOptions> = {
  knotStep: 10,
  maxGap: 20,
  epochs: 1500,
  learningRate: 0.03,
  l2: 1e-4,
  holdout: 0.1,
  deadline: Infinity,
};

/** Fits the predictor of a table of `players` seats to measured states; reports the fit per number of seats in. */
export function fitSeatPredictor(
  rules: Rules,
  players: number,
  states: readonly SeatState[],
  fitOptions: FitOptions = {},
): { predictor: SeatPredictor; report: FitReport } {
  const options = { ...DEFAULTS, ...fitOptions };
  const cut = Math.floor(states.length * (1 - options.holdout));
  const train = samplesByActive(states.slice(0, cut), players);
  const held = samplesByActive(states.slice(cut), players);
  const byActive: Record<string, SeatWeights> = {};
  const report: Record<string, FitReport['byActive'][string]> = {};
  const features = seatFeatures(rules, options.knotStep, options.maxGap);
  for (let n = 2; n <= players; n++) {
    const layout = new Layout(segmentCount(rules, options.knotStep), options.maxGap, n);
    const p = fitActive(rules, train[n], layout, options);
    // The weights as shipped (slopes clamped, rounded) are the ones reported on.
    const shipped = layout.weights(p);
    const flat = Float64Array.from([...shipped.total, ...shipped.gap, ...shipped.order]);
    const scores = totalScores(features, layout, flat);
    byActive[n] = shipped;
    report[n] = {
      states: train[n].length + held[n].length,
      train: loss(train[n], scores, flat, layout),
      holdout: loss(held[n], scores, flat, layout),
      uniform: Math.log(n),
    };
  }
  return { predictor: { knotStep: options.knotStep, maxGap: options.maxGap, byActive }, report: { byActive: report } };
}
