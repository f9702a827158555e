/**
 * What rule-based bots reason with, computed from a seat's own view only: the legal
 * choices of the phase, hand values, and the cards not yet seen.
 */
import {
  type Card,
  DiscardList,
  GROUP_CAP,
  type GroupType,
  type PlayerView,
  bestGroupPoints,
  generateDiscards,
  ruleTables,
} from '../../env/index.js';

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
  hand.forEach((card, i) => {
    scratchHand[i] = card;
  });
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
  hand.forEach((card, i) => {
    scratchHand[i] = card;
  });
  return bestGroupPoints(scratchHand, 0, hand.length, view.rules, valuesOf(view));
}

/** Whether `card` would belong to a legal group of two or more cards with `hand`. */
export function formsGroupWith(hand: readonly Card[], card: Card, view: PlayerView): boolean {
  return discardOptions(view, [...hand, card]).some((option) => option.cards.length >= 2 && option.cards.includes(card));
}

export function canDrawFromDeck(view: PlayerView): boolean {
  return view.deckSize > 0 || view.pile.length > 0;
}

/**
 * Turns of each seat after which a round counts as stalled: far beyond a normal round (heads-up,
 * strong against strong, 16,000 rounds: median 6 turns a seat, 99.9th percentile 18, longest 22).
 */
export const PATIENCE_PER_SEAT = 30;

/**
 * Progress: what taking a card from the previous group costs, in points, once the round has
 * gone on past PATIENCE_PER_SEAT turns a seat, one more point per further turn a seat. A round
 * can only go round for ever by seats taking cards from each other (a deck draw brings chance
 * in), so this makes bots that keep trading the same cards (two seats each holding a 2 neither
 * dares call against; a hand kept for a milestone) draw from the deck in the end instead.
 */
export function stallPenalty(turn: number, seats: number): number {
  const over = turn / seats - PATIENCE_PER_SEAT;
  return over > 0 ? over : 0;
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

/** Seats still in the game (not eliminated), the seat's own included. */
export function seatsInPlay(view: PlayerView): number {
  let seats = 0;
  for (const active of view.active) if (active) seats++;
  return seats;
}
