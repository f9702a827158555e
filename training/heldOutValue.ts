/**
 * How much of the return each critic explains on games training never plays (issue 44 item 2):
 * `--value-eval-games N` held-out games, from a seed no actor draws, against the run's opponent mix
 * ("past" plays as "self": the evaluation holds no league). Each learner decision's realised return
 * (its rewards to the end of the return, discounted by γ) is set against the seat value head's
 * value and, with --critic whole-deal, the critic's: 1 − Var(R − V)/Var(R) for each. Decisions
 * whose return is not seen to its end (cut short by the turn cap, or still going when a batch is
 * flushed) are left out.
 */
import { mixSeed } from '../env/rules/random.js';
import { actorAgents } from './actor.js';
import type { Learner } from './learner.js';
import type { OpponentShare } from './league.js';
import { explainedVariance } from './ppo.js';
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
  /** Explained variance of the realised returns: the seat value head's, the whole-deal critic's (null: --critic seat). */
  seat: number;
  wholeDeal: number | null;
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
    wholeDeal: critic !== null,
  };
  const { agents, adviser } = await actorAgents(setup, null);
  const rollout = new Rollout(setup, learner.network, agents, null, adviser);
  const seat: number[] = [];
  const whole: number[] = [];
  const returns: number[] = [];
  let episodes = 0;
  while (episodes < games) {
    const { trajectories: batch, stats } = rollout.collect(2048, { kind: 'ppo' });
    episodes += stats.episodes;
    const realised = realisedReturns(batch, hp.gamma);
    const critical = critic?.values(batch);
    for (let k = 0; k < batch.count; k++) {
      if (Number.isNaN(realised[k])) continue;
      returns.push(realised[k]);
      seat.push(batch.values[k]);
      if (critical) whole.push(critical[k]);
    }
  }
  return {
    type: 'valueEvaluation',
    iteration: state.iteration,
    episodes: state.episodes,
    heldOutEpisodes: episodes,
    decisions: returns.length,
    seat: explainedVariance(seat, returns),
    wholeDeal: critic ? explainedVariance(whole, returns) : null,
  };
}
