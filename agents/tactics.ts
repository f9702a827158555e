/**
 * What rule-based bots reason with, computed from a seat's own view only: the legal
 * choices of the phase, hand values, and the cards not yet seen.
 */
import {
  type Card, DiscardList, GROUP_CAP, type GroupType, type PlayerView,
  bestGroupPoints, generateDiscards, ruleTables,
} from '../env/index.js';

export interface DiscardOption {
  readonly cards: readonly Card[];
  readonly type: GroupType;
  readonly points: number;
}

const scratchList = new DiscardList();
const scratchHand = new Uint8Array(GROUP_CAP);

/** Card values under the view's rules. */
export function valuesOf(view: PlayerView): Uint8Array {
  return ruleTables(view.rules).values;
}

export function pointsOf(cards: ArrayLike<Card>, values: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < cards.length; i++) sum += values[cards[i]];
  return sum;
}

/** Every legal group a hand can lay under the view's rules. */
export function discardOptions(view: PlayerView, hand: readonly Card[] = view.hand): DiscardOption[] {
  const values = valuesOf(view);
  hand.forEach((card, i) => { scratchHand[i] = card; });
  generateDiscards(scratchHand, 0, hand.length, view.rules, scratchList);
  const options: DiscardOption[] = [];
  for (let i = 0; i < scratchList.count; i++) {
    const cards = scratchList.group(i);
    options.push({ cards, type: scratchList.groupType(i), points: pointsOf(cards, values) });
  }
  return options;
}

/** Points of the best group a hand could lay next turn (0 for an empty hand). */
export function bestDiscardPoints(hand: readonly Card[], view: PlayerView): number {
  hand.forEach((card, i) => { scratchHand[i] = card; });
  return bestGroupPoints(scratchHand, 0, hand.length, view.rules, valuesOf(view));
}

/** Whether `card` would belong to a legal group of two or more cards with `hand`. */
export function formsGroupWith(hand: readonly Card[], card: Card, view: PlayerView): boolean {
  return discardOptions(view, [...hand, card]).some((option) => option.cards.length >= 2 && option.cards.includes(card));
}

export function canDrawFromDeck(view: PlayerView): boolean {
  return view.deckSize > 0 || view.pile.length > 0;
}

/** Active opponents, clockwise from the seat's left. */
export function opponents(view: PlayerView): number[] {
  const seats: number[] = [];
  for (let i = 1; i < view.players; i++) {
    const seat = (view.seat + i) % view.players;
    if (view.active[seat]) seats.push(seat);
  }
  return seats;
}
