/**
 * How much of the return each critic explains on games training never plays (issue 44 item 2):
 * `--value-eval-games N` held-out games, from a seed no actor draws, against the run's opponent mix
 * ("past" plays as "self": the evaluation holds no league). Each learner decision's realised return
 * (its rewards to the end of the return, discounted by γ) is set against the seat value head's
 * value and, with --critic whole-deal or rollout, the critic's: 1 − Var(R − V)/Var(R) for each. Decisions
 * whose return is not seen to its end (cut short by the turn cap, or still going when a batch is
 * flushed) are left out. Each figure comes with a 95% interval, a bootstrap over stream segments
 * (one seat's run of decisions in one batch: the returns inside one are correlated, so they are
 * resampled together).
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { type Rng, mixSeed, seededRng } from '../env/rules/random.js';
import { actorAgents } from './actor.js';
import type { Learner } from './learner.js';
import type { OpponentShare } from './league.js';
import { rewardEquity } from './rewardEquity.js';
import { Rollout } from './rollout.js';
import type { TrajectoryBatch } from './trajectory.js';

/** The seed stream of the held-out games: mixSeed(seed, 5); actors draw from stream 2, the evaluation worker plays the seed itself. */
const HELD_OUT_STREAM = 5;

/** A metrics.jsonl line of a held-out value evaluation. */
export interface ValueEvaluationMetrics {
  type: 'valueEvaluation';
  iteration: number;
  /** Training episodes played so far (the curve's axis). */
  episodes: number;
  /** Held-out episodes played, and the decisions whose return was seen to its end. */
  heldOutEpisodes: number;
  decisions: number;
  /** Explained variance of the realised returns: the seat value head's, the critic's (whole-deal or rollout; null: --critic seat), each with its 95% interval. */
  seat: number;
  seatInterval: Interval;
  wholeDeal: number | null;
  wholeDealInterval: Interval | null;
}

type Interval = [low: number, high: number];

/** Bootstrap resamples of the intervals. */
const RESAMPLES = 400;

/** Sums over a block of decisions: count, Σ R, Σ R², Σ (R − V), Σ (R − V)². */
type BlockSums = [number, number, number, number, number];

/** One value's decisions, block by block: what its explained variance and the bootstrap read. */
export class ExplainedVarianceSums {
  readonly blocks: BlockSums[] = [];

  /** Opens a new block (a stream segment). */
  next(): void {
    this.blocks.push([0, 0, 0, 0, 0]);
  }

  add(value: number, realised: number): void {
    const b = this.blocks[this.blocks.length - 1];
    const d = realised - value;
    b[0]++;
    b[1] += realised;
    b[2] += realised * realised;
    b[3] += d;
    b[4] += d * d;
  }

  /** 1 − Var(R − V)/Var(R) over the blocks picked (all without `picks`). */
  explained(picks?: ArrayLike<number>): number {
    const t = [0, 0, 0, 0, 0];
    const count = picks?.length ?? this.blocks.length;
    for (let i = 0; i < count; i++) {
      const b = this.blocks[picks ? picks[i] : i];
      for (let j = 0; j < 5; j++) t[j] += b[j];
    }
    const varR = t[2] / t[0] - (t[1] / t[0]) ** 2;
    const varD = t[4] / t[0] - (t[3] / t[0]) ** 2;
    return varR > 0 ? 1 - varD / varR : Number.NaN;
  }

  /** The 2.5th and 97.5th percentiles of the figure over block resamples. */
  interval(rng: Rng): Interval {
    const n = this.blocks.length;
    const picks = new Int32Array(n);
    const figures = Array.from({ length: RESAMPLES }, () => {
      for (let i = 0; i < n; i++) picks[i] = Math.floor(uniformFloat64(rng) * n);
      return this.explained(picks);
    }).sort((a, b) => a - b);
    return [figures[Math.floor(0.025 * RESAMPLES)], figures[Math.ceil(0.975 * RESAMPLES) - 1]];
  }
}

/** Each row's realised return, or NaN where it was not seen to its end (stream order, as GAE reads it). */
export function realisedReturns(t: Pick<TrajectoryBatch, 'count' | 'rewards' | 'dones' | 'segmentEnds'>, gamma: number): Float32Array {
  const returns = new Float32Array(t.count);
  let next = Number.NaN;
  for (let k = t.count - 1; k >= 0; k--) {
    if (t.dones[k] === 1) next = t.rewards[k];
    else if (t.dones[k] !== 0 || t.segmentEnds[k] === 1) next = Number.NaN;
    else next = t.rewards[k] + gamma * next;
    returns[k] = next;
  }
  return returns;
}

/** Plays the held-out games with the learner's networks as they are and measures both critics. */
export async function heldOutValue(learner: Learner, mix: readonly OpponentShare[], games: number): Promise<ValueEvaluationMetrics> {
  const { run, hp, state } = learner;
  const critic = learner.critic();
  const setup = {
    players: run.players,
    games: Math.max(run.players.length, Math.min(games, hp.gamesPerActor)),
    env: learner.env,
    returnHorizon: hp.returnHorizon,
    opponents: mix.map((share) => ({ ...share })),
    seed: mixSeed(run.seed, HELD_OUT_STREAM),
    equity: rewardEquity(hp, run),
    adviser: hp.adviser ?? null,
    wholeDeal: hp.critic === 'whole-deal',
    criticRollouts: hp.critic === 'rollout' ? hp.criticRollouts : 0,
  };
  const { agents, adviser } = await actorAgents(setup, null);
  const rollout = new Rollout(setup, learner.network, agents, null, adviser);
  const seat = new ExplainedVarianceSums();
  const whole = new ExplainedVarianceSums();
  let episodes = 0;
  let decisions = 0;
  while (episodes < games) {
    const { trajectories: batch, stats } = rollout.collect(2048, { kind: 'ppo' });
    episodes += stats.episodes;
    const realised = realisedReturns(batch, hp.gamma);
    const critical = critic?.values(batch) ?? batch.values;
    for (let k = 0; k < batch.count; k++) {
      if (k === 0 || batch.segmentEnds[k - 1] === 1) [seat, whole].forEach((sums) => sums.next());
      if (Number.isNaN(realised[k])) continue;
      decisions++;
      seat.add(batch.values[k], realised[k]);
      whole.add(critical[k], realised[k]);
    }
  }
  const rng = seededRng(mixSeed(run.seed, HELD_OUT_STREAM, 1));
  return {
    type: 'valueEvaluation',
    iteration: state.iteration,
    episodes: state.episodes,
    heldOutEpisodes: episodes,
    decisions,
    seat: seat.explained(),
    seatInterval: seat.interval(rng),
    wholeDeal: critic ? whole.explained() : null,
    wholeDealInterval: critic ? whole.interval(rng) : null,
  };
}
