/** The readable side of action ids: the engine move an id stands for, the id of a move, and a name for people. */
import { type Card, cardName, formatCards } from '../rules/cards.js';
import type { Action } from '../rules/actions.js';
import { GROUP_CAP, type PickRules, classifyLaid } from '../rules/groups.js';
import { type GameState, HAND_CAP } from '../rules/state.js';
import type { PlayerView } from '../rules/view.js';
import {
  ACTION_COUNT,
  ACTION_RANGE_LIST,
  type ActionRange,
  DISCARD_FIRST,
  DISCARD_LAST,
  DISCARD_MASK,
  DISCARD_START,
  DRAW_DECK_ACTION,
  HAND_SLOTS,
  HandSlots,
  PASS_ACTION,
  QUICK_ACTION,
  SLAPDOWN_ACTION,
  TAKE_START,
  YANIV_ACTION,
  decodeDiscard,
  discardIdOf,
} from './actionLayout.js';

/** The name of the range an id belongs to, or undefined outside the action space. */
export function actionRangeOf(id: number): ActionRange | undefined {
  if (!Number.isInteger(id)) return undefined;
  return ACTION_RANGE_LIST.find((r) => id >= r.start && id < r.start + r.size);
}

function handSlotsOf(hand: readonly Card[]): HandSlots {
  const slots = new HandSlots();
  slots.load(hand, 0, hand.length);
  return slots;
}

/** The hand an id is read against: the mover's hand, from a state or from the mover's own view. */
function moverHand(position: GameState | PlayerView): { hand: readonly Card[]; rules: PickRules } {
  if ('hands' in position) {
    return {
      hand: Array.from(
        position.hands.subarray(position.current * HAND_CAP, position.current * HAND_CAP + position.handLength[position.current]),
      ),
      rules: position.rules,
    };
  }
  if (position.seat !== position.current)
    throw new RangeError(`seat ${position.seat}'s view cannot read the actions of seat ${position.current}, who is to move`);
  return { hand: position.hand, rules: position.rules };
}

/**
 * The engine action an id stands for in this position, read against the mover's hand. It
 * says what the id means, not that it is legal now: the mask (or `applyAction`) decides that.
 * Throws for ids outside the action space or discard ids that name no group of this hand.
 */
export function actionToMove(position: GameState | PlayerView, id: number): Action {
  const range = actionRangeOf(id);
  if (!range) throw new RangeError(`${id} is not an action id (0..${ACTION_COUNT - 1})`);
  switch (range.name) {
    case 'YANIV':
      return { type: 'yaniv' };
    case 'DRAW_DECK':
      return { type: 'draw', source: 'deck' };
    case 'TAKE':
      return { type: 'draw', source: id - TAKE_START };
    case 'PASS':
      return { type: 'pass' };
    case 'QUICK':
      return { type: 'quick' };
    case 'SLAPDOWN':
      return { type: 'slapdown' };
    // No default: a move kind added to the layout without its move here does not compile.
    case 'DISCARD': {
      const { hand, rules } = moverHand(position);
      const slots = handSlotsOf(hand);
      const out = new Uint8Array(GROUP_CAP);
      const packed = decodeDiscard(slots, id, rules, out);
      if (packed === 0) {
        const laid = slotCards(slots, id);
        const shape = laid && classifyLaid(laid, rules);
        if (shape && 'error' in shape) throw new RangeError(shape.error);
        throw new RangeError(`discard id ${id} (${describeDiscardSlots(id)}) names no group of the hand ${formatCards(hand)}`);
      }
      return { type: 'discard', cards: Array.from(out.subarray(0, packed & 15)) };
    }
  }
}

/**
 * The id of an engine action in this position. A discard is read in its canonical laid order
 * (a run laid descending is the same move as ascending); −1 when it is no group or the hand
 * cannot lay those cards.
 */
export function moveToAction(position: GameState | PlayerView, move: Action): number {
  switch (move.type) {
    case 'yaniv':
      return YANIV_ACTION;
    case 'draw':
      return move.source === 'deck' ? DRAW_DECK_ACTION : TAKE_START + move.source;
    case 'pass':
      return PASS_ACTION;
    case 'quick':
      return QUICK_ACTION;
    case 'slapdown':
      return SLAPDOWN_ACTION;
    case 'discard': {
      const { hand, rules } = moverHand(position);
      const group = classifyLaid(move.cards, rules);
      if ('error' in group) return -1;
      return discardIdOf(handSlotsOf(hand), group.cards, 0, group.cards.length);
    }
  }
}

/**
 * The cards a discard id's slots hold, in its laid order (first slot, the others by kind, last
 * slot), or null when a slot lies beyond the hand: what a player who picked those cards meant.
 */
function slotCards(slots: HandSlots, id: number): Card[] | null {
  const index = id - DISCARD_START;
  const mask = DISCARD_MASK[index];
  if (mask >> slots.length !== 0) return null;
  const first = DISCARD_FIRST[index];
  const last = DISCARD_LAST[index];
  const middle: Card[] = [];
  for (let slot = 0; slot < slots.length; slot++) if ((mask >> slot) & 1 && slot !== first && slot !== last) middle.push(slots.cards[slot]);
  return first === last ? [slots.cards[first]] : [slots.cards[first], ...middle, slots.cards[last]];
}

function describeDiscardSlots(id: number): string {
  const index = id - DISCARD_START;
  const slots: number[] = [];
  for (let i = 0; i < HAND_SLOTS; i++) if ((DISCARD_MASK[index] >> i) & 1) slots.push(i);
  return `slots ${slots.join(',')}, first ${DISCARD_FIRST[index]}, last ${DISCARD_LAST[index]}`;
}

/**
 * The one name of a move, from its kind's words in the action layout and its cards: "Yaniv",
 * "discard 5S 6S 7S" (read against the mover's hand in `position`), "draw from the deck",
 * "take 7H", "pass", "quick discard" ("quick discard 7H" given the card drawn), "slapdown".
 */
export function describeAction(id: number, position?: GameState | PlayerView, drawn: Card | null = null): string {
  const range = actionRangeOf(id);
  if (!range) return `invalid action ${id}`;
  if (range.name === 'DISCARD') return describeDiscard(id, position);
  const card = range.name === 'TAKE' ? id - TAKE_START : range.name === 'QUICK' ? drawn : null;
  return card === null ? range.words : `${range.words} ${cardName(card)}`;
}

/** The words of a discard of these cards (describeAction's, for a caller that has the move already). */
export function describeDiscardOf(cards: readonly Card[]): string {
  return `discard ${formatCards(cards)}`;
}

function describeDiscard(id: number, position: GameState | PlayerView | undefined): string {
  if (!position) return `discard ${describeDiscardSlots(id)}`;
  try {
    const move = actionToMove(position, id);
    return move.type === 'discard' ? describeDiscardOf(move.cards) : describeDiscardSlots(id);
  } catch {
    const laid = 'hands' in position || position.seat === position.current ? slotCards(handSlotsOf(moverHand(position).hand), id) : null;
    return laid ? describeDiscardOf(laid) : `discard ${describeDiscardSlots(id)} (no such group in this hand)`;
  }
}
