/**
 * `rollout` — a search agent over the `strong` bot. Its candidates are the strong bot's best
 * few discards. For each it samples complete worlds consistent with its own view (the
 * environment's determinisation: opponents' unknown cards and the deck order), applies the
 * candidate and plays on with the greedy playout policy for a short horizon (`horizon`
 * turns, or to the end of the round), then scores the hands; it picks the candidate with
 * the best average. Every candidate is scored on the same sampled worlds (common random
 * numbers), which keeps the comparison fair at few samples; ties go to the strong bot's order.
 *
 * What was measured on the way (heads-up games against `strong`, 40–60 games each): searching
 * every legal action to the end of the round won 2–10%; searching Yaniv calls and draws as
 * well as discards lost clearly at every horizon; longer horizons did worse (2 turns: 45%,
 * 4: 15%, 8: 0–5%). The greedy playout policy is far weaker than the strong bot, so long
 * playouts mostly measure the playout policy: the lever for a stronger search is a better
 * (learned) playout policy, not more samples.
 *
 * Outcome: the seat's round points minus the mean of the other active seats' (lower is
 * better); the policy's scores are the negated averages and its value the best one.
 */
import { YANIV_ACTION, actionToMove, legalActionIds, moveToAction } from '../env/actionSpace.js';
import { determinize } from '../env/determinize.js';
import { type GameState, type PlayerView, PHASE_BETWEEN_ROUNDS, PHASE_GAME_OVER, applyAction, cloneState, handValue, unseenCounts } from '../env/index.js';
import { type Rng, seededRng } from '../env/random.js';
import type { Agent, Decision } from './agent.js';
import { playoutRound } from './playout.js';
import { STRONG_DEFAULTS, assafRisk, rankDiscards, strongBot } from './strong.js';

export interface RolloutConfig {
  /** Sampled worlds per decision. */
  samples: number;
  /** How many of the strong bot's best discards are searched. */
  discards: number;
  /** Turns each playout looks ahead before scoring the hands as they stand. */
  horizon: number;
  /** Stop sampling after this many milliseconds (at least one world is always played). */
  maxMillis: number;
}

export const ROLLOUT_DEFAULTS: RolloutConfig = { samples: 32, discards: 3, horizon: 2, maxMillis: Infinity };

export function rolloutAgent(config: Partial<RolloutConfig> = {}): Agent {
  const settings = { ...ROLLOUT_DEFAULTS, ...config };
  let rng: Rng = seededRng(0);
  return {
    name: 'rollout',
    reset(seed) {
      rng = seededRng(seed);
    },
    act({ mask, view }): Decision {
      const ids = candidates(view, legalActionIds(mask), settings.discards, rng);
      if (ids.length === 1) return { action: ids[0] };
      const totals = new Float64Array(ids.length);
      const deadline = Date.now() + settings.maxMillis;
      let worlds = 0;
      while (worlds < settings.samples && (worlds === 0 || Date.now() < deadline)) {
        const world = determinize(view, rng);
        ids.forEach((id, i) => { totals[i] += outcome(world, id, view.seat, settings.horizon); });
        worlds++;
      }
      const order = ids.map((id, i) => ({ id, score: -totals[i] / worlds })).sort((a, b) => b.score - a.score);
      return { action: order[0].id, policy: { actions: order.map((o) => o.id), scores: order.map((o) => o.score), value: order[0].score } };
    },
  };
}

const strong = strongBot();

/**
 * What is searched: the strong bot's best few discards. The Yaniv call and the draw follow
 * the strong bot (searching them with greedy playouts did worse: see the header).
 */
function candidates(view: PlayerView, ids: number[], discards: number, rng: Rng): number[] {
  const legal = ids.map((id) => actionToMove(view, id));
  const unseen = unseenCounts(view);
  if (view.phase !== 'turn' || (ids.includes(YANIV_ACTION) && assafRisk(view, unseen, STRONG_DEFAULTS.samples, rng) <= STRONG_DEFAULTS.callRisk)) {
    return [moveToAction(view, strong({ view, legal, rng }))];
  }
  return rankDiscards(view, legal, unseen).slice(0, discards).map((r) => moveToAction(view, r.action));
}

/** The seat's relative round score after playing `id` in a copy of the world and finishing the round greedily. */
function outcome(world: GameState, id: number, seat: number, horizon: number): number {
  const s = cloneState(world);
  applyAction(s, actionToMove(s, id));
  playoutRound(s, horizon);
  if ((s.phase !== PHASE_BETWEEN_ROUNDS && s.phase !== PHASE_GAME_OVER) || !s.lastResult) return estimateUnfinished(s, seat);
  const points = s.lastResult.points;
  let others = 0;
  let count = 0;
  points.forEach((p, other) => {
    if (other !== seat && p !== null) {
      others += p;
      count++;
    }
  });
  return (points[seat] ?? 0) - others / Math.max(1, count);
}

/** A round the playout did not finish: score the hands as they stand. */
function estimateUnfinished(s: GameState, seat: number): number {
  let others = 0;
  let count = 0;
  for (let p = 0; p < s.players; p++) {
    if (p !== seat && s.active[p]) {
      others += handValue(s, p);
      count++;
    }
  }
  return handValue(s, seat) - others / Math.max(1, count);
}
