/**
 * `rollout` — a search agent over the `strong` bot. Its candidates are the strong bot's best
 * few discards. For each it samples complete worlds consistent with its own view (the
 * environment's determinisation: opponents' unknown cards and the deck order), applies the
 * candidate and plays on with a playout policy for a short horizon (`horizon` turns, or to
 * the end of the round), then scores the hands. Every candidate is scored on the same
 * sampled worlds (common random numbers), which keeps the comparison fair at few samples;
 * strong's first choice is kept unless another beats it by `margin` paired standard errors.
 *
 * What was measured on the way (heads-up games against `strong`, 40–60 games each): searching
 * every legal action to the end of the round won 2–10%; searching Yaniv calls and draws as
 * well as discards lost clearly at every horizon; longer horizons did worse (2 turns: 45%,
 * 4: 15%, 8: 0–5%) with the greedy playout (`playoutRound`), which is far weaker than strong.
 *
 * Second round (`yaniv bench`, 200 games heads-up against strong, seeds 1 / 2; 200 games give
 * about ±7%). Control: `discards: 1` (exactly strong) finished ahead in 50.0% / 44.5%, so
 * the two seeds' deals alone move the share by ~5 points.
 * - old defaults (greedy playout, raw points at the leaf): 37.5% / 41.0%, ≈ 280–380 µs/decision.
 * - strong-like playout (`playoutRoundStrong`: strong's planning score for discards and
 *   draws, calls by a cheap Assaf-risk proxy) with raw points at the leaf: 29.5% (seed 1).
 * - greedy playout, hand-score leaf: 38.0% (seed 1).
 * - strong-like playout, hand-score leaf (points − 0.8 × best group): 47.0% / 41.0%, ≈ 470–650 µs.
 *   Horizon 3: 47.5%, horizon 4: 46.5% (seed 1); 128 worlds: 44.0% (seed 1, 2.5 ms).
 * - + searching the Yaniv call with that playout: horizon 2 43.0%, horizon 6 37.0% (seed 1;
 *   the Yaniv success rate drops from 92% to 89%): still worse, `searchCalls` stays off.
 * - + a prior (keep strong's choice unless a candidate beats it by `margin` paired standard
 *   errors): margin 1: 48.0% / 47.5% (≈ 490–640 µs, the defaults; against intermediate
 *   89.0% / 89.0%, was 83.5%); margin 1.5 with 64 worlds
 *   44.5% / 47.5%; margin 2 with 64 worlds 46.0% (seed 1).
 * Every strong-playout variant sits at the control's level, within the noise: a 2-turn search
 * whose playout and leaf are strong's own evaluation adds little that strong does not
 * already see, and no variant tried beats strong at ≤ 5 ms a decision.
 *
 * Outcome: the seat's round points minus the mean of the other active seats' when the round
 * ends within the horizon, else the same difference of hand values (`leaf: 'points'`) or of
 * strong's hand scores (`leaf: 'score'`); lower is better. The policy's scores are the
 * negated averages, the chosen action first, and its value the chosen action's score.
 */
import { YANIV_ACTION } from '../../env/gym/actionLayout.js';
import { actionToMove, moveToAction } from '../../env/gym/actionMoves.js';
import { legalActionIds } from '../../env/gym/actionMask.js';
import { determinize } from '../../env/rules/determinize.js';
import {
  type GameState,
  type PlayerView,
  applyAction,
  assafRiskAtMost,
  cloneState,
  handValue,
  isRoundOver,
  unseenCounts,
} from '../../env/index.js';
import { type Rng, seededRng } from '../../env/rules/random.js';
import type { Agent, Decision } from '../../env/gym/agent.js';
import { STRONG_PLAYOUT, handScoreOf, playoutRound, playoutRoundStrong } from './playout.js';
import { STRONG_DEFAULTS, rankDiscards, strongBot } from './strong.js';

export interface RolloutConfig {
  /** Sampled worlds per decision. */
  samples: number;
  /** How many of the strong bot's best discards are searched. */
  discards: number;
  /** Turns each playout looks ahead before scoring the hands as they stand. */
  horizon: number;
  /** Stop sampling after this many milliseconds (at least one world is always played). */
  maxMillis: number;
  /** Playout policy: 'greedy' (playoutRound) or 'strong' (playoutRoundStrong). */
  playout: 'greedy' | 'strong';
  /** Unfinished rounds scored by raw points or by strong's hand score (points − lookahead × best group). */
  leaf: 'points' | 'score';
  /** A candidate replaces strong's first choice only when it beats it by this many standard errors (paired over the worlds); 0: the best average. */
  margin: number;
  /** Also search the Yaniv call (when legal) against strong's best discards. */
  searchCalls: boolean;
}

export const ROLLOUT_DEFAULTS: RolloutConfig = {
  samples: 32,
  discards: 3,
  horizon: 2,
  maxMillis: Infinity,
  playout: 'strong',
  leaf: 'score',
  margin: 1,
  searchCalls: false,
};

export function rolloutAgent(config: Partial<RolloutConfig> = {}): Agent {
  const settings = { ...ROLLOUT_DEFAULTS, ...config };
  let rng: Rng = seededRng(0);
  return {
    name: 'rollout',
    reset(seed) {
      rng = seededRng(seed);
    },
    act({ mask, view }): Decision {
      const ids = candidates(view, legalActionIds(mask), settings, rng);
      if (ids.length === 1) return { action: ids[0] };
      const n = ids.length;
      const totals = new Float64Array(n);
      // Paired differences against candidate 0 (strong's choice): sums and sums of squares.
      const diff = new Float64Array(n);
      const diff2 = new Float64Array(n);
      const results = new Float64Array(n);
      const deadline = Date.now() + settings.maxMillis;
      let worlds = 0;
      while (worlds < settings.samples && (worlds === 0 || Date.now() < deadline)) {
        const world = determinize(view, rng);
        for (let i = 0; i < n; i++) {
          results[i] = outcome(world, ids[i], view.seat, settings);
          totals[i] += results[i];
          const d = results[i] - results[0];
          diff[i] += d;
          diff2[i] += d * d;
        }
        worlds++;
      }
      let pick = 0;
      if (settings.margin > 0) {
        let bestT = -settings.margin;
        for (let i = 1; i < n; i++) {
          const mean = diff[i] / worlds;
          const variance = Math.max(0, diff2[i] / worlds - mean * mean) / Math.max(1, worlds - 1);
          const t = variance > 0 ? mean / Math.sqrt(variance) : 0;
          if (t < bestT) {
            bestT = t;
            pick = i;
          }
        }
      } else {
        for (let i = 1; i < n; i++) if (totals[i] < totals[pick]) pick = i;
      }
      const order = ids
        .map((id, i) => ({ id, score: -totals[i] / worlds, i }))
        .sort((a, b) => (a.i === pick ? -1 : b.i === pick ? 1 : b.score - a.score));
      return { action: ids[pick], policy: { actions: order.map((o) => o.id), scores: order.map((o) => o.score), value: order[0].score } };
    },
  };
}

const strong = strongBot();

/**
 * What is searched: the strong bot's best few discards (its first choice first). The draw
 * follows the strong bot; so does the Yaniv call unless `searchCalls`.
 */
function candidates(view: PlayerView, ids: number[], settings: RolloutConfig, rng: Rng): number[] {
  const legal = ids.map((id) => actionToMove(view, id));
  if (view.phase !== 'turn') return [moveToAction(view, strong({ view, legal, rng }))];
  const unseen = unseenCounts(view);
  const ranked = rankDiscards(view, legal, unseen)
    .slice(0, settings.discards)
    .map((r) => moveToAction(view, r.action));
  if (ids.includes(YANIV_ACTION)) {
    const calls = assafRiskAtMost(view, STRONG_DEFAULTS.callRisk);
    if (!settings.searchCalls || ranked.length === 0) return calls || ranked.length === 0 ? [YANIV_ACTION] : ranked;
    return calls ? [YANIV_ACTION, ...ranked] : [...ranked, YANIV_ACTION];
  }
  return ranked;
}

/** The seat's relative round score after playing `id` in a copy of the world and playing on. */
function outcome(world: GameState, id: number, seat: number, settings: RolloutConfig): number {
  const s = cloneState(world);
  applyAction(s, actionToMove(s, id));
  if (settings.playout === 'strong') playoutRoundStrong(s, settings.horizon, STRONG_PLAYOUT);
  else playoutRound(s, settings.horizon);
  if (!isRoundOver(s) || !s.lastResult) return estimateUnfinished(s, seat, settings.leaf);
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
function estimateUnfinished(s: GameState, seat: number, leaf: RolloutConfig['leaf']): number {
  const value = (p: number) => (leaf === 'score' ? handScoreOf(s, p, STRONG_PLAYOUT.lookahead) : handValue(s, p));
  let others = 0;
  let count = 0;
  for (let p = 0; p < s.players; p++) {
    if (p !== seat && s.active[p]) {
      others += value(p);
      count++;
    }
  }
  return value(seat) - others / Math.max(1, count);
}
