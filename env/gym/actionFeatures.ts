/**
 * Action features: for each legal action, numbers about the hand it leaves — its points, the
 * points after the cheapest visible draw, the cards left, whether the total would land on a
 * milestone or pass the elimination limit, the Yaniv-call margin — the game's arithmetic handed
 * to the network (DouZero scores actions from features of the hand they leave; an MLP over
 * one-hot cards has to learn that sum). A network with an action-scoring head adds
 * (state features) · (these features) to each action's logit (nn/networks.ts).
 *
 * In two steps, both pure: a seat's **action context** (a short Int16Array, named segments below)
 * holds what the features need of the position — the value of each hand slot, the cheapest card
 * that may be taken, the totals and rule numbers — and is what a trajectory stores (20 numbers,
 * not 1409 × 9); `writeActionFeatures` turns a context and an action id into the features, in the
 * actor and again in the learner. `writeActionContext` reads a GameState (the hot path),
 * `actionContextOfView` the seat's PlayerView only (the reference: tests compare them, and a view
 * holds nothing hidden).
 */
import { type Card, KIND_COUNT, sortByKind, valueTable } from '../rules/cards.js';
import type { Rules } from '../rules/rules.js';
import { type GameState, HAND_CAP, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_NAMES, PHASE_TURN } from '../rules/state.js';
import type { PlayerView } from '../rules/view.js';
import { type Segment, segmentLayout } from './segments.js';
import {
  ACTION_COUNT,
  DISCARD_COUNT,
  DISCARD_MASK,
  DISCARD_START,
  DRAW_DECK_ACTION,
  HAND_SLOTS,
  PASS_ACTION,
  QUICK_ACTION,
  SLAPDOWN_ACTION,
  TAKE_START,
  YANIV_ACTION,
} from './actionLayout.js';
import { milestoneTargets } from './observation.js';

export const ACTION_FEATURES_VERSION = 'yaniv-action-features/1';

/** Milestones (above the own total, nearest first) a context holds. */
export const CONTEXT_MILESTONES = 4;

const CONTEXT_SPECS = [
  { name: 'step', size: 1, description: 'The step: 0 turn, 1 draw, 2 after-draw, −1 none (round or game over).' },
  {
    name: 'slotValues',
    size: HAND_SLOTS,
    description: 'Value of the card in each slot of the own hand sorted by kind (the slots DISCARD ids name), −1 when empty.',
  },
  { name: 'handValue', size: 1, description: 'Own hand value.' },
  { name: 'handCards', size: 1, description: 'Own hand size.' },
  { name: 'pickableMin', size: 1, description: "Lowest value among the previous group's cards that may be taken, −1 when none." },
  { name: 'drawnValue', size: 1, description: 'Value of the card drawn this turn (the seat to move), −1 when none.' },
  { name: 'total', size: 1, description: 'Own total.' },
  { name: 'limit', size: 1, description: 'eliminationLimit.' },
  { name: 'threshold', size: 1, description: 'yanivThreshold.' },
  { name: 'jackValue', size: 1, description: 'jackValue (the value of a card taken, by its kind).' },
  {
    name: 'milestones',
    size: CONTEXT_MILESTONES,
    description: `The nearest ${CONTEXT_MILESTONES} milestones above the own total that lower it, ascending, 0 when fewer.`,
  },
] as const;

const FEATURE_SPECS = [
  {
    name: 'points',
    description:
      'Points in hand once the action is done, / 50: a discard, before its draw; a take, with the card; a deck draw, without the unknown card; Yaniv and pass, the hand; quick discard, without the card; slapdown 0.',
  },
  {
    name: 'pointsAfterTake',
    description: 'A discard: its points plus the cheapest card that may be taken after it (the previous group); else points; / 50.',
  },
  { name: 'cards', description: 'Cards in hand after the action and its draw (a discard: − cards laid + 1), / 7.' },
  { name: 'canCall', description: '1 if pointsAfterTake ≤ yanivThreshold (the hand could call next turn).' },
  { name: 'callMargin', description: '(yanivThreshold − pointsAfterTake) / 10, clipped to [−3, 1].' },
  {
    name: 'landsOnMilestone',
    description: '1 if total + pointsAfterTake is a milestone that lowers a total (the round ending then lands on it).',
  },
  { name: 'landsBeforeDraw', description: '1 if total + points is such a milestone.' },
  { name: 'passesLimit', description: '1 if total + pointsAfterTake > eliminationLimit.' },
  { name: 'limitMargin', description: '(eliminationLimit − total − pointsAfterTake) / 50, clipped to [−1, 1].' },
] as const;

export type ContextSegmentName = (typeof CONTEXT_SPECS)[number]['name'];
export type ActionFeatureName = (typeof FEATURE_SPECS)[number]['name'];

export type ContextSegment = Segment<ContextSegmentName>;

const CONTEXT_LAYOUT = segmentLayout<ContextSegmentName>(CONTEXT_SPECS);
export const ACTION_CONTEXT_SEGMENTS: readonly ContextSegment[] = CONTEXT_LAYOUT.segments;
export const ACTION_CONTEXT_SIZE = CONTEXT_LAYOUT.size;
/** Context segment name → start offset. */
export const CTX: Readonly<Record<ContextSegmentName, number>> = CONTEXT_LAYOUT.offsets;

export const ACTION_FEATURES: readonly { readonly name: ActionFeatureName; readonly index: number; readonly description: string }[] =
  FEATURE_SPECS.map((spec, index) => ({ ...spec, index }));
/** Features per action. */
export const ACTION_FEATURE_SIZE = ACTION_FEATURES.length;

/**
 * A network trained with an adviser (an agent, e.g. `strong`, asked for its move at each of the
 * network's decisions) reads one feature more after the game's: 1 for the action the adviser
 * chose, 0 for the others. The network then learns where to follow the adviser and where not
 * (residual learning on top of a hand-written player); what the adviser is, the env does not know.
 */
export const ADVISER_FEATURE = {
  name: 'adviserChoice',
  index: ACTION_FEATURE_SIZE,
  description: "With an adviser only: 1 for the action the adviser chose (an agent asked at the seat's decision), else 0.",
} as const;

/** Features per action of a network with (or without) an adviser. */
export function actionFeatureWidth(withAdviser: boolean): number {
  return ACTION_FEATURE_SIZE + (withAdviser ? 1 : 0);
}

/** Whether a network that scores actions from `features` features per action reads an adviser's choice (else: the game's alone). */
export function readsAdviser(features: number): boolean {
  if (features !== ACTION_FEATURE_SIZE && features !== ACTION_FEATURE_SIZE + 1)
    throw new Error(
      `a network scores actions from ${features} features; the game gives ${ACTION_FEATURE_SIZE}, or ${ACTION_FEATURE_SIZE + 1} with an adviser (${ACTION_FEATURES_VERSION})`,
    );
  return features === ACTION_FEATURE_SIZE + 1;
}

const POINTS_SCALE = 50;
const PER_POINTS = 1 / POINTS_SCALE;
const PER_CARDS = 1 / HAND_SLOTS;

const sortedHand = new Uint8Array(HAND_CAP);

/** The nearest lowering milestones above `total` into out[at .. +CONTEXT_MILESTONES), 0 when fewer. */
function writeMilestones(total: number, rules: Rules, out: Int16Array, at: number): void {
  const targets = milestoneTargets(rules);
  let n = 0;
  for (let i = 0; i < targets.length && n < CONTEXT_MILESTONES; i++) if (targets[i] > total) out[at + n++] = targets[i];
}

function writeRuleNumbers(rules: Rules, total: number, out: Int16Array, offset: number): void {
  out[offset + CTX.total] = total;
  out[offset + CTX.limit] = rules.eliminationLimit;
  out[offset + CTX.threshold] = rules.yanivThreshold;
  out[offset + CTX.jackValue] = rules.jackValue;
  writeMilestones(total, rules, out, offset + CTX.milestones);
}

/** Writes `seat`'s action context of the state into out[offset .. +ACTION_CONTEXT_SIZE). Allocation-free. */
export function writeActionContext(s: GameState, seat: number, out: Int16Array, offset = 0): void {
  out.fill(0, offset, offset + ACTION_CONTEXT_SIZE);
  const phase = s.phase;
  out[offset + CTX.step] = phase === PHASE_TURN || phase === PHASE_DRAW || phase === PHASE_AFTER_DRAW ? phase - PHASE_TURN : -1;
  const values = s.values;
  const length = s.handLength[seat];
  sortByKind(s.hands, seat * HAND_CAP, length, sortedHand);
  let value = 0;
  for (let i = 0; i < HAND_SLOTS; i++) {
    const v = i < length ? values[sortedHand[i]] : -1;
    out[offset + CTX.slotValues + i] = v;
    if (i < length) value += v;
  }
  out[offset + CTX.handValue] = value;
  out[offset + CTX.handCards] = length;
  let cheapest = -1;
  for (let i = 0; i < s.prevLength; i++) {
    if (((s.prevPickable >> i) & 1) === 0) continue;
    const v = values[s.prev[i]];
    if (cheapest < 0 || v < cheapest) cheapest = v;
  }
  out[offset + CTX.pickableMin] = cheapest;
  out[offset + CTX.drawnValue] = s.current === seat && s.drawn >= 0 ? values[s.drawn] : -1;
  writeRuleNumbers(s.rules, s.totals[seat], out, offset);
}

/** The same context from the seat's PlayerView alone (the reference of writeActionContext). */
export function actionContextOfView(view: PlayerView, out = new Int16Array(ACTION_CONTEXT_SIZE), offset = 0): Int16Array {
  out.fill(0, offset, offset + ACTION_CONTEXT_SIZE);
  const values = valuesOfJack(view.rules.jackValue);
  const phase = PHASE_NAMES.indexOf(view.phase);
  out[offset + CTX.step] = phase === PHASE_TURN || phase === PHASE_DRAW || phase === PHASE_AFTER_DRAW ? phase - PHASE_TURN : -1;
  const hand = [...view.hand].sort((a, b) => a - b);
  for (let i = 0; i < HAND_SLOTS; i++) out[offset + CTX.slotValues + i] = i < hand.length ? values[hand[i]] : -1;
  out[offset + CTX.handValue] = hand.reduce((sum, card) => sum + values[card], 0);
  out[offset + CTX.handCards] = hand.length;
  const pickable = view.previous.pickable.map((card: Card) => values[card]);
  out[offset + CTX.pickableMin] = pickable.length > 0 ? Math.min(...pickable) : -1;
  out[offset + CTX.drawnValue] = view.drawn !== null ? values[view.drawn] : -1;
  writeRuleNumbers(view.rules, view.totals[view.seat], out, offset);
  return out;
}

/** The card values for a jack's value, each table made once (not per call: a request reads them). */
const valuesByJack = new Map<number, Uint8Array>();
function valuesOfJack(jackValue: number): Uint8Array {
  let values = valuesByJack.get(jackValue);
  if (!values) valuesByJack.set(jackValue, (values = valueTable(jackValue)));
  return values;
}

function kindValue(jackValue: number, kind: number): number {
  return valuesOfJack(jackValue)[kind];
}

/** Points and cards in hand right after `action` (before a discard's draw), and the cheapest visible card it may add. */
function handAfter(context: Int16Array, at: number, action: number): { points: number; cards: number; take: number } {
  const value = context[at + CTX.handValue];
  const cards = context[at + CTX.handCards];
  if (action >= DISCARD_START && action < DISCARD_START + DISCARD_COUNT) {
    const mask = DISCARD_MASK[action - DISCARD_START];
    let laid = 0;
    let count = 0;
    for (let slot = 0; slot < HAND_SLOTS; slot++) {
      if (((mask >> slot) & 1) === 0) continue;
      laid += Math.max(0, context[at + CTX.slotValues + slot]);
      count++;
    }
    const cheapest = context[at + CTX.pickableMin];
    return { points: value - laid, cards: cards - count + 1, take: cheapest > 0 ? cheapest : 0 };
  }
  if (action >= TAKE_START && action < TAKE_START + KIND_COUNT)
    return { points: value + kindValue(context[at + CTX.jackValue], action - TAKE_START), cards: cards + 1, take: 0 };
  if (action === DRAW_DECK_ACTION) return { points: value, cards: cards + 1, take: 0 };
  if (action === QUICK_ACTION) return { points: value - Math.max(0, context[at + CTX.drawnValue]), cards: cards - 1, take: 0 };
  if (action === SLAPDOWN_ACTION) return { points: 0, cards, take: 0 };
  if (action === YANIV_ACTION || action === PASS_ACTION) return { points: value, cards, take: 0 };
  throw new RangeError(`action ${action} is not an id of the action space (0–${ACTION_COUNT - 1})`);
}

function isMilestone(context: Int16Array, at: number, total: number): number {
  // Unused entries hold 0, which no total a round ends on can match (a milestone that lowers a total lies above 0).
  for (let i = 0; i < CONTEXT_MILESTONES; i++) {
    const milestone = context[at + CTX.milestones + i];
    if (milestone > 0 && milestone === total) return 1;
  }
  return 0;
}

const clip = (x: number, low: number, high: number) => (x < low ? low : x > high ? high : x);

/**
 * Writes the features of `action` in the context at context[at ..] into out[offset .. +ACTION_FEATURE_SIZE),
 * and with `adviserAction` (the adviser's choice, −1 none) the adviser feature after them.
 */
export function writeActionFeatures(
  context: Int16Array,
  at: number,
  action: number,
  out: Float32Array,
  offset: number,
  adviserAction?: number,
): void {
  const { points, cards, take } = handAfter(context, at, action);
  const best = points + take;
  const total = context[at + CTX.total];
  const threshold = context[at + CTX.threshold];
  const limit = context[at + CTX.limit];
  out[offset] = points * PER_POINTS;
  out[offset + 1] = best * PER_POINTS;
  out[offset + 2] = cards * PER_CARDS;
  out[offset + 3] = best <= threshold ? 1 : 0;
  out[offset + 4] = clip((threshold - best) / 10, -3, 1);
  out[offset + 5] = isMilestone(context, at, total + best);
  out[offset + 6] = isMilestone(context, at, total + points);
  out[offset + 7] = total + best > limit ? 1 : 0;
  out[offset + 8] = clip((limit - total - best) / 50, -1, 1);
  if (adviserAction !== undefined) out[offset + ADVISER_FEATURE.index] = action === adviserAction ? 1 : 0;
}

/**
 * The features of every legal action of `rows` positions, into the dense layout the network reads
 * (`out[(row · ACTION_COUNT + action) · K + k]`, K = actionFeatureWidth); entries of illegal actions
 * are left as they are (nothing reads them). `contexts` holds a context per row, `mask` a legal mask
 * per row ([rows, ACTION_COUNT], > 0 = legal), `adviserActions` (with an adviser) its choice per row.
 */
export function writeLegalActionFeatures(
  contexts: Int16Array,
  rows: number,
  mask: ArrayLike<number>,
  out: Float32Array,
  adviserActions?: ArrayLike<number>,
): void {
  const width = actionFeatureWidth(adviserActions !== undefined);
  for (let r = 0; r < rows; r++) {
    const at = r * ACTION_CONTEXT_SIZE;
    const adviser = adviserActions?.[r];
    for (let a = 0, i = r * ACTION_COUNT; a < ACTION_COUNT; a++, i++) {
      if (mask[i]) writeActionFeatures(contexts, at, a, out, i * width, adviser);
    }
  }
}
