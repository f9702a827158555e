/**
 * What a move is worth in a player's terms, from the seat's view alone: its chance to win the
 * game and the points it costs this round, each with a 95% interval from the sample.
 *
 * Worlds are drawn from the view (`determinize`, the one sampler: opponents' unknown cards and
 * the deck order; nothing hidden is read). In each world every candidate is played on a copy
 * and the round is played out (agents/bots/playout.ts `playoutRoundLight`: strong's planning on the
 * engine's buffers for the replies to the move, one turn of each seat, then quick moves to the
 * round's end — tens of microseconds a round where the trained bot would take milliseconds a move);
 * the round's end is valued by the game equity (the seat's P(win) from the new totals, who is
 * still in and who starts next; the game's outcome when it ended). Every candidate sees the same
 * worlds and the same playout randomness (common random numbers), so differences between moves
 * are far surer than each move's own interval.
 *
 * The same sample judges the moves (`judge`): the first candidate (the agent's pick) is suggested
 * unless another beats it beyond the noise, and each other move is `same` as the suggestion or
 * `worse`, so no figure shown contradicts the suggestion.
 *
 * Reasons in words come from the same playouts and the view: the Assaf risk of a call (exact,
 * `assafRisk`), how often a move lands on a milestone or passes the elimination limit, and which
 * card of a discard the next seat may take and use (its known cards, or a low card).
 */
import { type GameEquity, seatEquities } from '../../env/gym/equity.js';
import { actionToMove, moveToAction } from '../../env/gym/actionMoves.js';
import { YANIV_ACTION } from '../../env/gym/actionLayout.js';
import { afterPoints } from '../../env/gym/milestones.js';
import { PHASE_BETWEEN_ROUNDS, PHASE_GAME_OVER, type GameState, cloneState } from '../../env/rules/state.js';
import { type Card, cardName } from '../../env/rules/cards.js';
import { classifyLaid, pickableMask } from '../../env/rules/groups.js';
import { type Action, applyAction, assafRisk, determinize, handValue, unseenCounts } from '../../env/index.js';
import type { PlayerView } from '../../env/rules/view.js';
import { mixSeed, seededRng } from '../../env/rules/random.js';
import { canDrawFromDeck, formsGroupWith, opponents, valuesOf } from '../bots/tactics.js';
import { playoutRoundLight } from '../bots/playout.js';
import { rankDiscards } from '../bots/strong.js';
import { type CalibrationMap, calibrateEstimate } from './calibrationMap.js';

export interface OutlookBudget {
  /** Worlds sampled; every candidate is played out in each. */
  readonly worlds: number;
}

/**
 * The one budget, at every table size and whatever the load (so the figures never get noisier
 * when the server is busy): 8 worlds, each candidate's round played by `playoutRoundLight`
 * (`npm run bench -- advice` and `serve` measure it; docs/design.md, "Advice throughput").
 */
export const OUTLOOK_DEFAULTS: OutlookBudget = { worlds: 8 };

/** A mean with its 95% interval. */
export interface Estimate {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
}

/** The reasons given in words (serve/protocol/protocolParts.ts documents each). */
export const REASON_KINDS = ['assaf', 'milestone', 'elimination', 'nextTakes'] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];

export interface Reason {
  readonly kind: ReasonKind;
  readonly text: string;
  /** nextTakes: the cards the next seat may take and use. */
  readonly cards?: string[];
}

/** How a move stands against the suggestion, by the same sample its figures come from (`judge`). */
export const STANDINGS = ['suggested', 'same', 'worse'] as const;
export type Standing = (typeof STANDINGS)[number];

export interface MoveOutlook {
  readonly action: number;
  /** P(the seat wins the game) after this move; null without a game equity. */
  readonly win: Estimate | null;
  /** The points this round adds to the seat's total (before milestones). */
  readonly points: Estimate;
  readonly reasons: Reason[];
  /** The suggested move, one the sample cannot tell from it, or one it plays out worse beyond the noise. */
  readonly standing: Standing;
}

interface Tally {
  win: number[];
  points: number[];
  milestones: number;
  eliminated: number;
}

/**
 * Plays every candidate action out in `budget.worlds` worlds drawn from the view and judges them
 * (`judge`), in the candidates' order; the same seed, the same answer. Each chance to win is shown
 * through the table's calibration map where one ships (`calibration`; null: as played out): a
 * monotone map, so it keeps the order the judge saw.
 */
export function moveOutlooks(
  view: PlayerView,
  candidates: readonly number[],
  equity: GameEquity | null,
  seed: number,
  budget: OutlookBudget = OUTLOOK_DEFAULTS,
  calibration: CalibrationMap | null = null,
): MoveOutlook[] {
  const rng = seededRng(mixSeed(seed, 0x0a11));
  const tallies: Tally[] = candidates.map(() => ({ win: [], points: [], milestones: 0, eliminated: 0 }));
  // The seat's own moves read only its hand, the same in every world.
  const moves = candidates.map((id) => actionToMove(view, id));
  for (let w = 0; w < budget.worlds; w++) {
    const world = determinize(view, rng);
    moves.forEach((move, i) => playOut(world, move, view, equity, tallies[i]));
  }
  const standings = judge(tallies.map((t) => (equity ? t.win : t.points.map((p) => -p))));
  return candidates.map((action, i) => {
    const tally = tallies[i];
    return {
      action,
      win: equity ? calibrateEstimate(calibration, estimate(tally.win, 0, 1)) : null,
      points: estimate(tally.points, 0, Infinity),
      reasons: reasonsFor(view, action, tally, Math.max(...tallies.map((t) => t.milestones))),
      standing: standings[i],
    };
  });
}

/**
 * The one judgement behind the figures, from each candidate's value in every world (higher is
 * better: the chance to win, or minus the points without an equity): the first candidate is
 * suggested unless another beats it beyond the noise (the 95% interval of the paired
 * difference above 0), then the best of those by mean, and again until none beats the
 * suggestion (each step raises the mean, so it ends); every other move is `worse` where the
 * suggestion beats it beyond the noise, else `same`. So no move stands above the suggestion,
 * and none the sample cannot separate from it is ranked.
 */
export function judge(values: readonly (readonly number[])[]): Standing[] {
  const means = values.map((v) => v.reduce((a, b) => a + b, 0) / v.length);
  let best = 0;
  for (;;) {
    let next = -1;
    values.forEach((v, i) => {
      if (i !== best && surelyAbove(v, values[best]) && (next < 0 || means[i] > means[next])) next = i;
    });
    if (next < 0) break;
    best = next;
  }
  return values.map((v, i) => (i === best ? 'suggested' : surelyAbove(values[best], v) ? 'worse' : 'same'));
}

/**
 * The same judgement from one figure per move (the model's own evaluation, agents/equity/qHead.ts):
 * the first candidate is suggested unless another's figure is above it by more than `margin` (what
 * the evaluation cannot tell apart), then the best of those, until none beats the suggestion; every
 * other move is `worse` where the suggestion is above it by more than `margin`, else `same`.
 */
export function judgeMeans(means: readonly number[], margin: number): Standing[] {
  let best = 0;
  for (;;) {
    let next = -1;
    means.forEach((m, i) => {
      if (i !== best && m > means[best] + margin && (next < 0 || m > means[next])) next = i;
    });
    if (next < 0) break;
    best = next;
  }
  return means.map((m, i) => (i === best ? 'suggested' : means[best] > m + margin ? 'worse' : 'same'));
}

/** Whether `a` beats `b` world by world beyond the noise (the 95% interval of the mean difference is above 0). */
function surelyAbove(a: readonly number[], b: readonly number[]): boolean {
  const diff = estimate(
    a.map((x, w) => x - b[w]),
    -Infinity,
    Infinity,
  );
  return diff.low > 0;
}

function playOut(world: GameState, move: Action, view: PlayerView, equity: GameEquity | null, tally: Tally): void {
  const s = cloneState(world);
  const seat = view.seat;
  const own = view.totals[seat];
  applyAction(s, move);
  playoutRoundLight(s, view.players);
  const ended = s.phase === PHASE_BETWEEN_ROUNDS || s.phase === PHASE_GAME_OVER;
  const points = ended && s.lastResult ? (s.lastResult.points[seat] ?? 0) : handValue(s, seat);
  tally.points.push(points);
  if (ended && afterPoints(view.rules, own, points) !== own + points) tally.milestones++;
  if (ended && !s.active[seat]) tally.eliminated++;
  if (equity) tally.win.push(leafEquity(s, seat, equity));
}

/** The seat's P(win) at the round's end: the game's outcome when it is over, else the equity of the table as it stands. */
export function leafEquity(s: GameState, seat: number, equity: GameEquity): number {
  if (s.phase === PHASE_GAME_OVER) return s.winner === seat ? 1 : 0;
  if (!s.active[seat]) return 0;
  const starter = s.phase === PHASE_BETWEEN_ROUNDS ? s.nextStarter : s.starter;
  const totals = Array.from(s.totals, (t) => Math.max(t, 0));
  return seatEquities(
    equity,
    totals,
    Array.from(s.active, (a) => a === 1),
    starter,
  )[seat];
}

/** The two-sided 97.5% point of Student's t (Cornish–Fisher, within 0.03 from 4 degrees of freedom). */
function tQuantile(df: number): number {
  const z = 1.959964;
  return df < 1 ? Infinity : z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

/** The mean of a sample and its 95% interval, kept within [min, max]. */
export function estimate(sample: readonly number[], min: number, max: number): Estimate {
  const n = sample.length;
  const mean = sample.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? sample.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  const half = n > 1 ? tQuantile(n - 1) * Math.sqrt(variance / n) : 0;
  const clamp = (x: number) => Math.min(Math.max(x, min), max) + 0;
  return { mean: clamp(mean), low: clamp(mean - half), high: clamp(mean + half) };
}

/** Shares below this in the played-out rounds are not worth a word. */
const WORTH_SAYING = 0.1;

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** `bestMilestones`: the most rounds any candidate landed on a milestone in (a move that lands far less often misses one). */
function reasonsFor(view: PlayerView, action: number, tally: Tally, bestMilestones: number): Reason[] {
  const reasons = assafReason(view, action);
  const worlds = tally.points.length;
  const milestone = tally.milestones / worlds;
  const missed = (bestMilestones - tally.milestones) / worlds;
  if (milestone >= WORTH_SAYING)
    reasons.push({ kind: 'milestone', text: `lands you on a milestone in ${percent(milestone)} of the rounds played out` });
  else if (missed >= 2 * WORTH_SAYING)
    reasons.push({
      kind: 'milestone',
      text: `misses a milestone another move lands on in ${percent(missed)} more of the rounds played out`,
    });
  const out = tally.eliminated / worlds;
  if (out >= WORTH_SAYING / 2)
    reasons.push({
      kind: 'elimination',
      text: `puts you over ${view.rules.eliminationLimit} (out of the game) in ${percent(out)} of the rounds played out`,
    });
  return [...reasons, ...nextTakes(view, action)];
}

/** The Assaf risk of a call (exact, from the view). */
export function assafReason(view: PlayerView, action: number): Reason[] {
  if (action !== YANIV_ACTION) return [];
  const { risk } = assafRisk(view);
  return [
    {
      kind: 'assaf',
      text: `Assaf risk ${percent(risk)}: the chance another player holds as few points or fewer, when you would score ${view.handValue} + ${view.rules.assafPenalty}`,
    },
  ];
}

/** A discard's cards the next seat may take and use. */
function nextTakes(view: PlayerView, action: number): Reason[] {
  const move = actionToMove(view, action);
  if (move.type !== 'discard') return [];
  const cards = usefulToNext(view, pickableLaid(view, move.cards));
  if (cards.length === 0) return [];
  return [{ kind: 'nextTakes', text: 'the next player may take a card of this discard that helps them', cards: cards.map(cardName) }];
}

/**
 * The reasons that need no playout: the Assaf risk of a call, and which card of a discard the next
 * seat may take and use (the group laid and what may be taken of it are known to the seat).
 */
export function viewReasons(view: PlayerView, action: number): Reason[] {
  return [...assafReason(view, action), ...nextTakes(view, action)];
}

/**
 * The cards of a group the seat lays that the next seat may take (each kind once): the group in its
 * laid order (`classifyLaid`, as the engine lays it) read by the table's pick rules; none when the
 * round ends at once on an exhausted deck (nothing to draw, nothing pickable before: the engine's
 * `layGroup`).
 */
export function pickableLaid(view: PlayerView, laid: readonly Card[]): Card[] {
  if (!canDrawFromDeck(view) && view.previous.pickable.length === 0) return [];
  const group = classifyLaid(laid, view.rules);
  if ('error' in group) throw new Error(`the seat cannot lay ${laid.map(cardName).join(' ')}: ${group.error}`);
  const mask = pickableMask(group.type, group.cards.length, view.rules);
  const cards: Card[] = [];
  group.cards.forEach((card, i) => {
    if ((mask >> i) & 1 && !cards.includes(card)) cards.push(card);
  });
  return cards;
}

/** Of the cards the next seat may take, those it can use: a low card (2 points or fewer), or one joining cards it is known to hold. */
function usefulToNext(view: PlayerView, pickable: readonly Card[]): Card[] {
  const next = opponents(view)[0];
  if (next === undefined) return [];
  const values = valuesOf(view);
  return pickable.filter((card) => values[card] <= 2 || formsGroupWith(view.known[next], card, view));
}

/** Moves played out per advice: the bot's pick and up to two others. */
export const OUTLOOK_CANDIDATES = 3;

/**
 * The moves worth playing out, the pick first: a Yaniv call when legal, then the agent's own
 * ranking (its policy's order), then strong's best discards — the moves a player would weigh.
 * In the draw and after-draw steps every legal move (rarely more than four).
 */
export function outlookCandidates(
  view: PlayerView,
  legal: readonly number[],
  pick: number,
  ranked: readonly number[],
  max = OUTLOOK_CANDIDATES,
): number[] {
  const chosen = [pick];
  const add = (id: number) => {
    if (chosen.length < max && legal.includes(id) && !chosen.includes(id)) chosen.push(id);
  };
  if (view.phase !== 'turn') {
    legal.forEach(add);
    return chosen;
  }
  add(YANIV_ACTION);
  ranked.slice(0, 2).forEach(add);
  // Strong's ranking read only while it can add a move (where Yaniv may be called, often not at all).
  const full = () => chosen.length >= max || legal.every((id) => chosen.includes(id));
  if (full()) return chosen;
  const moves = legal.map((id) => actionToMove(view, id));
  for (const { action } of rankDiscards(view, moves, unseenCounts(view))) {
    add(moveToAction(view, action));
    if (full()) break;
  }
  return chosen;
}
