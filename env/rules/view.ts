/**
 * What one seat may know: the single gate for hidden information (boardgame.io's
 * playerView). Servers, renderers and observation encoders read positions through it.
 */
import { type Card, KIND_COUNT, cardName, deckComposition, sortByKind } from './cards.js';
import { GROUP_TYPE_NAMES, type GroupType, type GroupTypeName } from './groups.js';
import type { Rules } from './rules.js';
import { type GameState, HAND_CAP, PHASE_NAMES, type PhaseName, type RoundResult, handValue } from './state.js';

export interface GroupView {
  readonly type: GroupTypeName;
  /** In laid order. */
  readonly cards: readonly Card[];
}

export interface PlayerView {
  readonly seat: number;
  readonly players: number;
  readonly rules: Rules;
  /**
   * Public for every seat: `afterDraw` follows each draw the rules could follow with a quick
   * discard or a slapdown, whether or not one is on offer (only the mover's legal actions say).
   */
  readonly phase: PhaseName;
  readonly current: number;
  readonly round: number;
  /** Turns completed in this round. */
  readonly turn: number;
  readonly dealer: number;
  readonly starter: number;
  /** The seat's own hand, sorted by kind (jokers last). */
  readonly hand: readonly Card[];
  readonly handValue: number;
  /** Cards in each seat's hand. */
  readonly handSizes: readonly number[];
  /** Per seat: the cards it took from the pile in view of all and still holds, sorted. */
  readonly known: readonly (readonly Card[])[];
  /** The previous player's group (what is left of it) and the cards of it that may be taken. */
  readonly previous: GroupView & { readonly pickable: readonly Card[] };
  /** The group the player to move laid this turn, once laid. */
  readonly laid: GroupView | null;
  /** The card the seat drew this turn, when it is the seat's own turn and it drew. */
  readonly drawn: Card | null;
  /** Whether the player to move drew from the deck this turn (seen by all); null before the draw. */
  readonly drawnFromDeck: boolean | null;
  readonly deckSize: number;
  /** Discards out of reach, face up (they return to the deck at a reshuffle), sorted. */
  readonly pile: readonly Card[];
  readonly totals: readonly number[];
  readonly active: readonly boolean[];
  readonly yanivWins: readonly number[];
  readonly lastResult: RoundResult | null;
  readonly winner: number | null;
}

function group(type: GroupType, cards: Uint8Array, length: number): GroupView {
  return { type: GROUP_TYPE_NAMES[type], cards: Array.from(cards.subarray(0, length)) };
}

const byKind = (a: number, b: number) => a - b;

function handByKind(s: GameState, seat: number): Card[] {
  const hand = new Uint8Array(s.handLength[seat]);
  sortByKind(s.hands, seat * HAND_CAP, hand.length, hand);
  return Array.from(hand);
}

/** Everything `seat` may know about the position, and nothing more. */
export function playerView(s: GameState, seat: number): PlayerView {
  const known = Array.from({ length: s.players }, (_, p) => {
    const cards: Card[] = [];
    for (let k = 0; k < KIND_COUNT; k++) for (let c = 0; c < s.known[p * KIND_COUNT + k]; c++) cards.push(k);
    return cards;
  });
  const pickable: Card[] = [];
  for (let i = 0; i < s.prevLength; i++) if ((s.prevPickable >> i) & 1) pickable.push(s.prev[i]);
  return {
    seat,
    players: s.players,
    rules: s.rules,
    phase: PHASE_NAMES[s.phase],
    current: s.current,
    round: s.round,
    turn: s.turn,
    dealer: s.dealer,
    starter: s.starter,
    hand: handByKind(s, seat),
    handValue: handValue(s, seat),
    handSizes: Array.from(s.handLength),
    known,
    previous: { ...group(s.prevType, s.prev, s.prevLength), pickable },
    laid: s.laidLength > 0 ? group(s.laidType, s.laid, s.laidLength) : null,
    drawn: s.current === seat && s.drawn >= 0 ? s.drawn : null,
    drawnFromDeck: s.drawn >= 0 ? s.drawnFromDeck : null,
    deckSize: s.deckLength,
    pile: Array.from(s.pile.subarray(0, s.pileLength)).sort(byKind),
    totals: Array.from(s.totals),
    active: Array.from(s.active, (a) => a === 1),
    yanivWins: Array.from(s.yanivWins),
    lastResult: s.lastResult,
    winner: s.winner >= 0 ? s.winner : null,
  };
}

/**
 * Copies of each kind `view.seat` has not seen: the decks, less its own hand, the cards known
 * in other hands, the previous group, the group laid this turn and the pile. These are what may
 * sit in the opponents' unknown slots or in the deck. Throws on a view that shows a card more
 * often than the decks hold.
 */
export function unseenCounts(view: PlayerView): Uint8Array {
  const left = deckComposition(view.rules.decks, view.rules.jokersPerDeck);
  const take = (cards: readonly Card[], where: string) => {
    for (const card of cards) {
      if (left[card] === 0) throw new RangeError(`the view is inconsistent: ${where} shows more ${cardName(card)} than the decks hold`);
      left[card]--;
    }
  };
  take(view.hand, 'the hand');
  view.known.forEach((cards, seat) => {
    if (seat !== view.seat) take(cards, `seat ${seat}'s known cards`);
  });
  take(view.previous.cards, 'the previous group');
  if (view.laid) take(view.laid.cards, 'the group laid this turn');
  take(view.pile, 'the pile');
  return left;
}
