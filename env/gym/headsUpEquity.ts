/**
 * The heads-up game equity, solved exactly from a model of one round's outcome (measured from simulated
 * rounds, agents/equity/equityModel.ts): with both totals and the starter as the state, a round moves
 * the state by the points each seat scores (milestones applied), so P(win) satisfies a linear
 * recursion. Milestones lower totals, so states can repeat: the recursion is iterated to
 * convergence (value iteration) rather than solved in one backward pass.
 *
 * The round model depends on the distance of each seat to its milestones: a bot that plays for
 * milestones lands on them far more often than the pooled distribution of round points says
 * (landing on 100 from 101 is worth a third of a game). The pooled outcomes are reweighted per
 * state by each seat's measured chance of landing exactly on a milestone at that distance.
 *
 * Pure: no I/O. Loading and measuring live in agents/.
 */
import type { Rules } from '../rules/rules.js';
import type { GameEquity } from './equity.js';
import { EquityError, type Role, type RoundOutcomeModel, checkTotal } from './equityData.js';
import { afterPoints, milestoneGaps } from './milestones.js';
/** Smoothed rate of a [hits, trials] pair toward a prior rate. */
function smoothed(pair: readonly [number, number] | undefined, prior: number, strength: number): number {
  const [hits, trials] = pair ?? [0, 0];
  return (hits + prior * strength) / (trials + strength);
}

/** How the milestone spike reweights an outcome for one seat: by its points, given the seat's gaps. */
class SpikeWeights {
  private readonly landing: number[];
  private readonly base: number[];

  constructor(model: RoundOutcomeModel, role: Role, maxPoints: number) {
    this.base = Array.from({ length: maxPoints + 1 }, (_, g) => smoothed(model.scored[role][g], 0, 1));
    // Few rounds per distance: shrink toward the seat's plain chance of scoring exactly g.
    this.landing = this.base.map((base, g) => smoothed(model.landing[role][g], base, 20));
  }

  /** The factor of an outcome in which the seat scores `points`, when its milestones are `gaps` away. */
  factor(points: number, gaps: readonly number[]): number {
    if (gaps.length === 0) return 1;
    // A score never measured has no spike to scale.
    if (gaps.includes(points)) return this.base[points] > 0 ? this.landing[points] / this.base[points] : 1;
    let landing = 0;
    let base = 0;
    for (const g of gaps) {
      landing += this.landing[g] ?? 0;
      base += this.base[g] ?? 0;
    }
    return (1 - landing) / Math.max(1 - base, 1e-9);
  }
}

/** The heads-up equity solved for one rule set: P(a seat wins) by both totals and who starts next. */
export class HeadsUpEquity implements GameEquity {
  readonly players = 2;

  constructor(
    readonly rules: Rules,
    /** Index (a·(L+1) + b)·2 + (a starts ? 0 : 1), L the elimination limit. */
    readonly values: Float64Array,
    /** Sweeps value iteration took to converge. */
    readonly sweeps: number,
  ) {}

  /** P(the seat with total `own` wins) against `opponent`, `ownStarts` if it starts the next round. */
  win(own: number, opponent: number, ownStarts: boolean): number {
    const limit = this.rules.eliminationLimit;
    if (own > limit) return opponent > limit ? 0.5 : 0;
    if (opponent > limit) return 1;
    checkTotal(own, 'own');
    checkTotal(opponent, 'opponent');
    return this.values[(own * (limit + 1) + opponent) * 2 + (ownStarts ? 0 : 1)];
  }

  seats(totals: readonly number[], _active: readonly boolean[], starter: number): number[] {
    const a = this.win(totals[0], totals[1], starter === 0);
    return [a, 1 - a];
  }
}

/** The heads-up rules the recursion handles: the game ends with the first seat over the limit. */
export function checkSolvable(rules: Rules): void {
  if (rules.gameEnd === 'yanivCount')
    throw new EquityError('game equity is not defined for gameEnd "yanivCount" (it ends on calls, not totals)');
  if (rules.milestoneRobbery) throw new EquityError('game equity does not model milestoneRobbery');
}

interface WeightedOutcome {
  readonly starter: number;
  readonly other: number;
  readonly weight: number;
}

/** The outcome distribution of a round from these totals: the pooled outcomes reweighted by each seat's milestone spike. */
function outcomesFrom(
  rules: Rules,
  pooled: readonly WeightedOutcome[],
  spikes: Record<Role, SpikeWeights>,
  starterTotal: number,
  otherTotal: number,
): WeightedOutcome[] {
  const starterGaps = milestoneGaps(rules, starterTotal);
  const otherGaps = milestoneGaps(rules, otherTotal);
  const weighted = pooled.map((o) => ({
    ...o,
    weight: o.weight * spikes.starter.factor(o.starter, starterGaps) * spikes.other.factor(o.other, otherGaps),
  }));
  const sum = weighted.reduce((acc, o) => acc + o.weight, 0);
  return weighted.map((o) => ({ ...o, weight: o.weight / sum }));
}

/**
 * The measured outcomes as they are: measured from totals drawn uniformly, whose gaps vary, so
 * each milestone's spike is spread thin over them and is not divided out.
 */
function pooledOutcomes(model: RoundOutcomeModel): WeightedOutcome[] {
  if (model.outcomes.length === 0) throw new EquityError('the round model holds no outcomes');
  return model.outcomes.map(([starter, other, count]) => ({ starter, other, weight: count }));
}

/** Who starts the round after one: heads-up, rotation alternates; otherwise the round's winner (the seat that scored less). */
function nextStarterIsStarter(rules: Rules, outcome: WeightedOutcome): boolean {
  if (rules.nextStarter === 'rotate') return false;
  return outcome.starter < outcome.other;
}

export interface SolveOptions {
  /** Largest change of any equity in the last sweep (default 1e-7). */
  tolerance?: number;
  maxSweeps?: number;
}

/** Solves P(win) for every pair of totals and starter by value iteration over the round model. */
export function solveHeadsUpEquity(rules: Rules, model: RoundOutcomeModel, options: SolveOptions = {}): HeadsUpEquity {
  checkSolvable(rules);
  const { tolerance = 1e-7, maxSweeps = 1000 } = options;
  const limit = rules.eliminationLimit;
  const side = limit + 1;
  const pooled = pooledOutcomes(model);
  const maxPoints = Math.max(...pooled.map((o) => Math.max(o.starter, o.other)));
  const spikes = { starter: new SpikeWeights(model, 'starter', maxPoints), other: new SpikeWeights(model, 'other', maxPoints) };
  // values[(a·side + b)·2 + r]: P(seat A wins), A at total a, B at b; r = 0 when A starts.
  const values = new Float64Array(side * side * 2).fill(0.5);
  const round = new RoundSteps(rules, pooled, spikes);
  let sweeps = 0;
  for (let change = Infinity; change > tolerance; sweeps++) {
    if (sweeps >= maxSweeps) throw new EquityError(`the equity did not converge in ${maxSweeps} sweeps (last change ${change})`);
    change = sweep(values, round, side);
  }
  return new HeadsUpEquity(rules, values, sweeps);
}

/**
 * What the sweeps read: the outcome weights by the two seats' milestone gaps (shared by every
 * pair of totals with the same gaps, so they are computed once each) and the total after each
 * score. Successor states are computed on the fly: a table of them would take 150 MB.
 */
class RoundSteps {
  readonly starter: Int32Array;
  readonly other: Int32Array;
  readonly starterNext: Uint8Array;
  /** after[t·(maxPoints+1) + p]: the total after scoring p from t. */
  readonly after: Int32Array;
  readonly stride: number;
  /** Totals with the same milestone gaps share a class (and so their outcome weights). */
  private readonly gapClass: Int32Array;
  private readonly classes: number;
  private readonly weights: (Float64Array | undefined)[];

  constructor(
    private readonly rules: Rules,
    private readonly pooled: readonly WeightedOutcome[],
    private readonly spikes: Record<Role, SpikeWeights>,
  ) {
    const maxPoints = Math.max(...pooled.map((o) => Math.max(o.starter, o.other)));
    const side = rules.eliminationLimit + 1;
    this.stride = maxPoints + 1;
    this.starter = Int32Array.from(pooled, (o) => o.starter);
    this.other = Int32Array.from(pooled, (o) => o.other);
    this.starterNext = Uint8Array.from(pooled, (o) => (nextStarterIsStarter(rules, o) ? 1 : 0));
    this.after = new Int32Array(side * this.stride);
    for (let t = 0; t < side; t++) for (let p = 0; p <= maxPoints; p++) this.after[t * this.stride + p] = afterPoints(rules, t, p);
    const ids = new Map<string, number>();
    this.gapClass = Int32Array.from({ length: side }, (_, t) => {
      const key = milestoneGaps(rules, t).join(',');
      if (!ids.has(key)) ids.set(key, ids.size);
      return ids.get(key) as number;
    });
    this.classes = ids.size;
    this.weights = new Array<Float64Array | undefined>(this.classes * this.classes);
  }

  /** The outcome weights of a round with these totals (normalised), computed once per pair of gap classes. */
  weightsFor(starterTotal: number, otherTotal: number): Float64Array {
    const key = this.gapClass[starterTotal] * this.classes + this.gapClass[otherTotal];
    let w = this.weights[key];
    if (!w) {
      w = Float64Array.from(outcomesFrom(this.rules, this.pooled, this.spikes, starterTotal, otherTotal), (o) => o.weight);
      this.weights[key] = w;
    }
    return w;
  }
}

/** One Gauss–Seidel sweep, high totals first (most successors are higher totals); returns the largest change. */
function sweep(values: Float64Array, round: RoundSteps, side: number): number {
  const limit = side - 1;
  const { after, stride } = round;
  let change = 0;
  for (let a = limit; a >= 0; a--) {
    for (let b = limit; b >= 0; b--) {
      for (let r = 0; r < 2; r++) {
        const aStarts = r === 0;
        const ws = aStarts ? round.weightsFor(a, b) : round.weightsFor(b, a);
        const aPoints = aStarts ? round.starter : round.other;
        const bPoints = aStarts ? round.other : round.starter;
        let v = 0;
        for (let k = 0; k < ws.length; k++) {
          const a2 = after[a * stride + aPoints[k]];
          const b2 = after[b * stride + bPoints[k]];
          let next: number;
          if (a2 > limit || b2 > limit) next = a2 > limit && b2 > limit ? (a2 < b2 ? 1 : b2 < a2 ? 0 : 0.5) : a2 > limit ? 0 : 1;
          else next = values[(a2 * side + b2) * 2 + (aStarts === (round.starterNext[k] === 1) ? 0 : 1)];
          v += ws[k] * next;
        }
        const state = (a * side + b) * 2 + r;
        change = Math.max(change, Math.abs(v - values[state]));
        values[state] = v;
      }
    }
  }
  return change;
}
