/**
 * The rules core: every transition of the game state (RULES.md, "Set-up", "A turn",
 * "Empty deck"). Transitions mutate the state they are given; `step` in actions.ts is the
 * pure (state, action) → state wrapper. Nothing here does I/O or draws unseeded randomness.
 *
 * A turn runs in phases: PHASE_TURN (call Yaniv or lay a group), PHASE_DRAW (take a card),
 * and PHASE_AFTER_DRAW after every draw that the rules could follow with a quick discard (a
 * deck draw, rule quickDiscard) or a slapdown (any draw, rule slapdown), whether or not the
 * mover's cards allow one: the others see the pause, so it must not depend on hidden cards.
 */
import { type Card, JOKER, KIND_COUNT, cardName, formatCards } from './cards.js';
import { type DiscardList, generateDiscards } from './discards.js';
import {
  EXTEND_END,
  EXTEND_NONE,
  EXTEND_START,
  type GroupType,
  RUN,
  SET,
  SINGLE,
  classifyLaid,
  pickableMask,
  quickExtension,
} from './groups.js';
import { seededRng, shuffleInPlace } from './random.js';
import { type Rules } from './rules.js';
import { dealerFor, settleRound } from './scoring.js';
import {
  type GameState,
  HAND_CAP,
  PHASE_AFTER_DRAW,
  PHASE_BETWEEN_ROUNDS,
  PHASE_DRAW,
  PHASE_NAMES,
  PHASE_TURN,
  activeSeatsAfter,
  deckTopFirst,
  emptyState,
  handValue,
  nextActive,
} from './state.js';

/** A move the rules forbid; the message says why in words a player understands. */
export class IllegalMoveError extends Error {
  override name = 'IllegalMoveError';
}

export interface NewGameOptions {
  rules: Rules;
  players: number;
  /** Seed of the game's PRNG: deals and reshuffles. */
  seed?: number;
  /** Totals before the first round (a game picked up mid-way). */
  startTotals?: readonly number[];
}

/** A game before its first deal. */
export function newGame({ rules, players, seed = 0, startTotals }: NewGameOptions): GameState {
  const s = emptyState(rules, players, seededRng(seed));
  if (startTotals)
    startTotals.forEach((t, seat) => {
      s.totals[seat] = t;
    });
  return s;
}

/** A round's deal as a record states it. */
export interface Deal {
  /** One hand per seat; null for a seat out of the game. */
  hands: readonly (readonly Card[] | null)[];
  /** The turned-up card. */
  discard: Card;
  /** The rest of the deck, top first. */
  deck: readonly Card[];
  /** Who moves first; by default the rules decide. */
  starter?: number;
}

/** Deals the next round: shuffled from the state's PRNG, or as given. */
export function startRound(s: GameState, deal?: Deal): void {
  if (s.phase !== PHASE_BETWEEN_ROUNDS)
    throw new IllegalMoveError(`a round can start only between rounds, not in phase ${PHASE_NAMES[s.phase]}`);
  const starter = deal?.starter ?? s.nextStarter;
  s.round++;
  s.starter = starter;
  s.dealer = dealerFor(s, starter);
  s.current = starter;
  s.turn = 0;
  s.pileLength = 0;
  s.known.fill(0);
  s.handLength.fill(0);
  if (deal) placeDeal(s, deal);
  else dealShuffled(s);
  s.laidLength = 0;
  s.drawn = -1;
  s.phase = PHASE_TURN;
}

function dealShuffled(s: GameState): void {
  let n = 0;
  s.composition.forEach((count, kind) => {
    for (let i = 0; i < count; i++) s.deck[n++] = kind;
  });
  shuffleInPlace(s.rng, s.deck, n);
  s.deckLength = n;
  const seats = activeSeatsAfter(s, s.dealer);
  for (let c = 0; c < s.rules.handSize; c++) {
    for (const seat of seats) s.hands[seat * HAND_CAP + s.handLength[seat]++] = s.deck[--s.deckLength];
  }
  setPrevious(s, [s.deck[--s.deckLength]], 1, SINGLE);
}

function placeDeal(s: GameState, deal: Deal): void {
  deal.hands.forEach((hand, seat) => {
    if (!hand) return;
    hand.forEach((card, i) => {
      s.hands[seat * HAND_CAP + i] = card;
    });
    s.handLength[seat] = hand.length;
  });
  s.deckLength = deal.deck.length;
  deal.deck.forEach((card, i) => {
    s.deck[deal.deck.length - 1 - i] = card;
  });
  setPrevious(s, [deal.discard], 1, SINGLE);
}

function setPrevious(s: GameState, cards: ArrayLike<Card>, length: number, type: GroupType): void {
  for (let i = 0; i < length; i++) s.prev[i] = cards[i];
  s.prevLength = length;
  s.prevType = type;
  s.prevPickable = pickableMask(type, length, s.rules);
}

// ---------------------------------------------------------------- calling Yaniv

/** Whether a hand worth `value` may call Yaniv under these rules. */
export function callableValue(value: number, rules: Rules): boolean {
  return value <= rules.yanivThreshold;
}

/** Whether the hand of the player to move may call Yaniv (at the start of a turn). */
export function canCallYaniv(s: GameState): boolean {
  return callableValue(handValue(s, s.current), s.rules);
}

export function yanivError(s: GameState): string | null {
  if (s.phase !== PHASE_TURN) return `Yaniv can be called only at the start of a turn, not in phase ${PHASE_NAMES[s.phase]}`;
  const value = handValue(s, s.current);
  if (!callableValue(value, s.rules)) return `seat ${s.current} cannot call Yaniv with ${value} > ${s.rules.yanivThreshold}`;
  return null;
}

export function callYaniv(s: GameState): void {
  settleRound(s, { kind: 'call', caller: s.current });
}

// ---------------------------------------------------------------- discarding

/** Why this group cannot be laid now, or its type and canonical laid order. */
export function checkDiscard(s: GameState, laid: readonly Card[]): { type: GroupType; cards: Card[] } | { error: string } {
  if (s.phase !== PHASE_TURN) return { error: `a group can be laid only at the start of a turn, not in phase ${PHASE_NAMES[s.phase]}` };
  if (s.handLength[s.current] === 0) return { error: `seat ${s.current} has no cards left and must call Yaniv` };
  const missing = cardsMissingFromHand(s, s.current, laid);
  if (missing !== null) return { error: `${cardName(missing)} is not in seat ${s.current}'s hand` };
  return classifyLaid(laid, s.rules);
}

function cardsMissingFromHand(s: GameState, seat: number, cards: readonly Card[]): Card | null {
  const counts = new Uint8Array(KIND_COUNT);
  for (const card of handCards(s, seat)) counts[card]++;
  for (const card of cards) {
    if (counts[card] === 0) return card;
    counts[card]--;
  }
  return null;
}

function handCards(s: GameState, seat: number): Uint8Array {
  return s.hands.subarray(seat * HAND_CAP, seat * HAND_CAP + s.handLength[seat]);
}

/** Lays a group known to be legal (from the generator or checkDiscard), in canonical order: `cards[offset .. offset+length)`. */
export function layGroup(s: GameState, cards: ArrayLike<Card>, length: number, type: GroupType, offset = 0): void {
  const seat = s.current;
  const known = seat * KIND_COUNT;
  for (let i = 0; i < length; i++) {
    const card = cards[offset + i];
    removeFromHand(s, seat, card);
    if (s.known[known + card] > 0) s.known[known + card]--;
    s.laid[i] = card;
  }
  s.laidLength = length;
  s.laidType = type;
  s.phase = PHASE_DRAW;
  if (!canDrawFromDeck(s) && s.prevPickable === 0) settleRound(s, { kind: 'exhausted', stuck: seat });
}

function removeFromHand(s: GameState, seat: number, card: Card): void {
  const base = seat * HAND_CAP;
  const last = base + s.handLength[seat] - 1;
  for (let i = base; i <= last; i++) {
    if (s.hands[i] === card) {
      s.hands[i] = s.hands[last];
      s.handLength[seat]--;
      return;
    }
  }
  throw new IllegalMoveError(`${cardName(card)} is not in seat ${seat}'s hand`);
}

/** Every legal group the current player may lay. */
export function legalDiscards(s: GameState, out: DiscardList): void {
  if (s.phase !== PHASE_TURN) {
    out.count = 0;
    return;
  }
  generateDiscards(s.hands, s.current * HAND_CAP, s.handLength[s.current], s.rules, out);
}

// ---------------------------------------------------------------- drawing

/** The deck has a card, or the pile can be reshuffled into one. */
export function canDrawFromDeck(s: GameState): boolean {
  return s.deckLength > 0 || s.pileLength > 0;
}

/** Whether the previous group has a pickable copy of `card`; returns its position or -1. */
export function pickablePosition(s: GameState, card: Card): number {
  for (let i = 0; i < s.prevLength; i++) if (s.prev[i] === card && (s.prevPickable >> i) & 1) return i;
  return -1;
}

export function drawError(s: GameState, source: 'deck' | Card): string | null {
  if (s.phase !== PHASE_DRAW) return `a card can be drawn only after laying a group, not in phase ${PHASE_NAMES[s.phase]}`;
  if (source === 'deck')
    return canDrawFromDeck(s) ? null : 'the deck is empty and there is nothing to reshuffle: take from the previous group';
  if (pickablePosition(s, source) >= 0) return null;
  const previous = formatCards(s.prev.subarray(0, s.prevLength));
  const pickable = pickableCards(s).map(cardName).join(', ');
  if (s.prevLength === 1) return `${cardName(source)} cannot be taken: only ${previous} can`;
  const kind = s.prevType === RUN ? 'run' : 'set';
  const present = Array.prototype.includes.call(s.prev.subarray(0, s.prevLength), source);
  const reason = present ? `only the ends ${pickable} of the previous ${kind} may be taken` : `it is not in the previous group ${previous}`;
  return `${cardName(source)} cannot be taken: ${reason}`;
}

/** Distinct pickable cards of the previous group, in position order. */
export function pickableCards(s: GameState): Card[] {
  const cards: Card[] = [];
  for (let i = 0; i < s.prevLength; i++) {
    if ((s.prevPickable >> i) & 1 && !cards.includes(s.prev[i])) cards.push(s.prev[i]);
  }
  return cards;
}

/**
 * Turns the pile into a new deck. `topFirst` fixes the order (a record's reshuffle);
 * without it the state's PRNG shuffles.
 */
export function reshuffle(s: GameState, topFirst?: readonly Card[]): void {
  const n = s.pileLength;
  if (topFirst)
    topFirst.forEach((card, i) => {
      s.deck[n - 1 - i] = card;
    });
  else {
    s.deck.set(s.pile.subarray(0, n));
    shuffleInPlace(s.rng, s.deck, n);
  }
  s.deckLength = n;
  s.pileLength = 0;
}

/** The cards a reshuffle would take now, in kind order. */
export function reshuffleCards(s: GameState): Card[] {
  return Array.from(s.pile.subarray(0, s.pileLength)).sort((a, b) => a - b);
}

/**
 * Before a draw from the deck: when the deck is empty, reshuffles the pile into it (in the
 * order `order` gives for the cards reshuffled, top first, or else by the state's PRNG) and
 * returns the new deck, top first, as a record lists it; null when no reshuffle was needed.
 */
export function reshuffleIfEmpty(s: GameState, order?: (cards: Card[]) => readonly Card[]): Card[] | null {
  if (s.deckLength > 0 || s.pileLength === 0) return null;
  reshuffle(s, order?.(reshuffleCards(s)));
  return deckTopFirst(s);
}

/** Why `order` is not a reordering of exactly `cards`, the cards a reshuffle takes (`reshuffleCards`), or null. */
export function reshuffleOrderError(order: readonly Card[], cards: readonly Card[]): string | null {
  const sorted = [...order].sort((a, b) => a - b);
  if (sorted.length === cards.length && sorted.every((c, i) => c === cards[i])) return null;
  return `must be an order of exactly the ${cards.length} cards reshuffled: ${cards.map(cardName).join(' ')}`;
}

export function drawFromDeck(s: GameState): void {
  if (s.deckLength === 0) reshuffle(s);
  const card = s.deck[--s.deckLength];
  addToHand(s, card, true);
}

export function drawFromPrevious(s: GameState, card: Card): void {
  const position = pickablePosition(s, card);
  for (let i = position; i < s.prevLength - 1; i++) s.prev[i] = s.prev[i + 1];
  s.prevLength--;
  s.known[s.current * KIND_COUNT + card]++;
  addToHand(s, card, false);
}

function addToHand(s: GameState, card: Card, fromDeck: boolean): void {
  const seat = s.current;
  s.hands[seat * HAND_CAP + s.handLength[seat]++] = card;
  s.drawn = card;
  s.drawnFromDeck = fromDeck;
  if (afterDrawStep(s.rules, fromDeck)) s.phase = PHASE_AFTER_DRAW;
  else endTurn(s);
}

/**
 * Whether a draw is followed by the after-draw step. It depends only on what everyone sees:
 * with it paused only when a choice is on offer, the other seats would learn that the card
 * drawn from the deck extends the group just laid, or that the mover's hand is worth 0.
 * The mover may always pass; QUICK and SLAPDOWN are legal only when its cards allow them.
 */
export function afterDrawStep(rules: Rules, fromDeck: boolean): boolean {
  return (rules.quickDiscard && fromDeck) || rules.slapdown;
}

// ---------------------------------------------------------------- after the draw

export function canQuickDiscard(s: GameState): boolean {
  return (
    s.rules.quickDiscard &&
    s.drawnFromDeck &&
    s.drawn >= 0 &&
    s.drawn !== JOKER &&
    quickExtension(s.laidType, s.laid, s.laidLength, s.drawn) !== EXTEND_NONE
  );
}

export function canSlapDown(s: GameState): boolean {
  return s.rules.slapdown && s.drawn >= 0 && handValue(s, s.current) === 0;
}

export function afterDrawError(s: GameState, choice: 'quick' | 'slapdown'): string | null {
  if (choice === 'quick') {
    if (s.phase !== PHASE_AFTER_DRAW || !s.rules.quickDiscard || !s.drawnFromDeck) {
      return 'a quick discard needs quickDiscard, a card just drawn from the deck, and that card extending the group just laid';
    }
    return canQuickDiscard(s) ? null : `${cardName(s.drawn)} cannot be added to ${formatCards(s.laid.subarray(0, s.laidLength))}`;
  }
  if (s.phase !== PHASE_AFTER_DRAW || !s.rules.slapdown) return 'a slapdown needs slapdown, and a hand worth 0 right after drawing';
  return canSlapDown(s)
    ? null
    : `a slapdown needs a hand worth 0 right after drawing; seat ${s.current}'s is worth ${handValue(s, s.current)}`;
}

/** Adds the card just drawn from the deck to the group just laid. */
export function quickDiscard(s: GameState): void {
  const side = quickExtension(s.laidType, s.laid, s.laidLength, s.drawn);
  removeFromHand(s, s.current, s.drawn);
  if (side === EXTEND_START) {
    s.laid.copyWithin(1, 0, s.laidLength);
    s.laid[0] = s.drawn;
  } else if (side === EXTEND_END) {
    s.laid[s.laidLength] = s.drawn;
  }
  s.laidLength++;
  if (s.laidType === SINGLE) s.laidType = SET;
  endTurn(s);
}

export function slapDown(s: GameState): void {
  settleRound(s, { kind: 'slapdown', caller: s.current });
}

/** Declines the quick discard or slapdown on offer. */
export function passAfterDraw(s: GameState): void {
  endTurn(s);
}

function endTurn(s: GameState): void {
  for (let i = 0; i < s.prevLength; i++) s.pile[s.pileLength++] = s.prev[i];
  setPrevious(s, s.laid, s.laidLength, s.laidType);
  s.laidLength = 0;
  s.drawn = -1;
  s.drawnFromDeck = false;
  s.turn++;
  s.current = nextActive(s, s.current);
  s.phase = PHASE_TURN;
}
