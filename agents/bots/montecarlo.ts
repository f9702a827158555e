/**
 * `montecarlo` — a flat Monte-Carlo player over its own sampled worlds, for the held-out panel
 * (never a training opponent, and built unlike `strong` and `rollout`: no strong candidates,
 * no strong-like playouts). At each decision it samples `samples` worlds consistent with its
 * view (the environment's determinisation), plays every candidate — each legal draw; the
 * `discards` discards that shed the most points — in each world
 * (common random numbers) and plays the round out greedily (`playoutRound`: call when allowed,
 * lay the most points, take a previous card worth at most 2), to the end of the round or
 * `horizon` turns, then scores its round points less the others' mean (when the round is
 * unfinished, each hand's points less its best group, as if laid next turn). It plays the candidate with the lowest mean. It calls Yaniv, without
 * searching, when the exact Assaf risk is at most `callRisk` (searched calls lost more than
 * they won against greedy playouts).
 */
import { YANIV_ACTION } from '../../env/gym/actionLayout.js';
import { actionToMove } from '../../env/gym/actionMoves.js';
import { legalActionIds } from '../../env/gym/actionMask.js';
import { determinize } from '../../env/rules/determinize.js';
import { type GameState, type PlayerView, applyAction, assafRiskAtMost, cloneState, isRoundOver } from '../../env/index.js';
import { type Rng, seededRng } from '../../env/rules/random.js';
import type { Agent, Decision } from '../../env/gym/agent.js';
import { handScoreOf, playoutRound } from './playout.js';
import { pointsOf, valuesOf } from './tactics.js';

export interface MonteCarloConfig {
  /** Sampled worlds per decision. */
  samples: number;
  /** Discards searched: those shedding the most points. */
  discards: number;
  /** Turns each playout plays at most before the hands are scored as they stand. */
  horizon: number;
  /** It calls Yaniv, unsearched, when the exact Assaf risk is at most this. */
  callRisk: number;
}

export const MONTECARLO_DEFAULTS: MonteCarloConfig = { samples: 16, discards: 5, horizon: 2, callRisk: 0.3 };

export function monteCarloAgent(config: Partial<MonteCarloConfig> = {}): Agent {
  const settings = { ...MONTECARLO_DEFAULTS, ...config };
  let rng: Rng = seededRng(0);
  return {
    name: 'montecarlo',
    reset(seed) {
      rng = seededRng(seed);
    },
    act({ mask, view }): Decision {
      if (mask[YANIV_ACTION] && assafRiskAtMost(view, settings.callRisk)) return { action: YANIV_ACTION };
      const ids = candidates(view, legalActionIds(mask), settings.discards);
      if (ids.length === 1) return { action: ids[0] };
      const totals = new Float64Array(ids.length);
      for (let world = 0; world < settings.samples; world++) {
        const state = determinize(view, rng);
        ids.forEach((id, i) => {
          totals[i] += outcome(state, id, view.seat, settings.horizon);
        });
      }
      let pick = 0;
      for (let i = 1; i < ids.length; i++) if (totals[i] < totals[pick]) pick = i;
      return { action: ids[pick] };
    },
  };
}

/** Every legal action but the Yaniv call, except that only the `discards` discards shedding the most points are kept. */
function candidates(view: PlayerView, ids: number[], discards: number): number[] {
  if (view.phase !== 'turn') return ids;
  const values = valuesOf(view);
  const moves = ids.map((id) => ({ id, move: actionToMove(view, id) }));
  const laid = moves
    .filter(({ move }) => move.type === 'discard')
    .map(({ id, move }) => ({ id, points: move.type === 'discard' ? pointsOf(move.cards, values) : 0 }))
    .sort((a, b) => b.points - a.points)
    .slice(0, discards)
    .map(({ id }) => id);
  return [...moves.filter(({ move }) => move.type !== 'discard' && move.type !== 'yaniv').map(({ id }) => id), ...laid];
}

/** The seat's round points less the other active seats' mean, after `id` and a greedy playout in a copy of the world. */
function outcome(world: GameState, id: number, seat: number, horizon: number): number {
  const s = cloneState(world);
  applyAction(s, actionToMove(s, id));
  playoutRound(s, horizon);
  const finished = isRoundOver(s) && s.lastResult !== null;
  const score = (p: number): number | null => {
    if (finished) return s.lastResult?.points[p] ?? null;
    return s.active[p] ? handScoreOf(s, p, 1) : null;
  };
  let others = 0;
  let count = 0;
  for (let p = 0; p < s.players; p++) {
    const points = p === seat ? null : score(p);
    if (points !== null) {
      others += points;
      count++;
    }
  }
  return (score(seat) ?? 0) - others / Math.max(1, count);
}
