/**
 * The fixed action space of the environment: one id per choice a player can make, in
 * named ranges whose sizes are computed here and nowhere else.
 *
 * Discard ids are relative to the acting player's hand **sorted by kind** (jokers last)
 * into hand slots 0..6. A laid group is `(mask of slots used, slot of the first card laid,
 * slot of the last card laid)`. Where several slots hold the same kind, the cards of that
 * kind take the lowest slots of it in laid order, so the first card laid of a kind has the
 * lowest slot and the last one the highest: every distinct legal group has exactly one id.
 * Two laid orders of the same cards share an id only for a run whose two ends are both
 * jokers with jokers to spare; they are equal for pickability and the id means the one with
 * the lowest placement (the generator's first).
 *
 * A turn is two steps (Yaniv or discard; then a draw), plus a third, the after-draw phase
 * (pass, quick discard, slapdown), which the rules core enters after every draw the rules could
 * follow with one (a deck draw under quickDiscard, any draw under slapdown), offered or not.
 */
import { type Card, JOKER, KIND_COUNT, RANK_OF, SUIT_OF, binomial, cardOf, sortByKind } from '../rules/cards.js';
import { type PickRules, RUN, SET, SINGLE } from '../rules/groups.js';
import { type GameState, HAND_CAP } from '../rules/state.js';
import type { Action } from '../rules/actions.js';
import type { TurnExtra } from '../rules/turns.js';

export const ACTION_SPACE_VERSION = 'yaniv-actions/1';

/** A hand never holds more than 7 cards when its owner may lay a group. */
export const HAND_SLOTS = 7;

/** Singles, plus for every k ≥ 2 slots: C(7,k) masks × k first slots × (k−1) last slots. */
export const DISCARD_COUNT = Array.from({ length: HAND_SLOTS }, (_, i) => i + 1).reduce(
  (sum, k) => sum + binomial(HAND_SLOTS, k) * (k === 1 ? 1 : k * (k - 1)),
  0,
);

/** The step of a turn in which a move kind is played (the phase the rules core is in). */
export type MoveStep = 'turn' | 'draw' | 'afterDraw';

interface MoveKindSpec {
  readonly size: number;
  /** Its name in the protocol (LegalAction.kind, event.kind), the engine's Action.type and records where it has one. */
  readonly kind: string;
  readonly step: MoveStep;
  /**
   * The engine action a move of this kind is (`Action.type`), which is also the key that records
   * write it under (RECORD.md "moves": yaniv, discard, draw, and the after-draw extras of
   * env/rules/turns.ts TURN_EXTRAS; a pass is written as no extra).
   */
  readonly action: Action['type'];
  /** How a move of this kind reads, before its cards (if any): "take 5S", "quick discard 7H". */
  readonly words: string;
  readonly description: string;
}

/**
 * The move kinds, one row each, in id order: the id range (name and size), the protocol's kind,
 * the step and the words that name a move. Everything else that speaks of move kinds (the
 * protocol's enum, readable move names, the generated table) reads this table.
 */
const MOVE_KINDS = {
  YANIV: { size: 1, kind: 'yaniv', step: 'turn', action: 'yaniv', words: 'Yaniv', description: 'Call Yaniv (turn step).' },
  DISCARD: {
    size: DISCARD_COUNT,
    kind: 'discard',
    step: 'turn',
    action: 'discard',
    words: 'discard',
    description:
      'Lay a group, as (slots used, slot of the first card laid, slot of the last card laid) of the hand sorted by kind (turn step).',
  },
  DRAW_DECK: {
    size: 1,
    kind: 'draw',
    step: 'draw',
    action: 'draw',
    words: 'draw from the deck',
    description: 'Draw the top card of the deck (draw step).',
  },
  TAKE: {
    size: KIND_COUNT,
    kind: 'take',
    step: 'draw',
    action: 'draw',
    words: 'take',
    description: 'Take the card of this kind (id − start = kind = suit·13 + rank − 1, joker 52) from the previous group (draw step).',
  },
  PASS: {
    size: 1,
    kind: 'pass',
    step: 'afterDraw',
    action: 'pass',
    words: 'pass',
    description: 'Decline the quick discard or slapdown on offer (after-draw step).',
  },
  QUICK: {
    size: 1,
    kind: 'quick',
    step: 'afterDraw',
    action: 'quick',
    words: 'quick discard',
    description: 'Add the card just drawn from the deck to the group just laid (after-draw step, rule quickDiscard).',
  },
  SLAPDOWN: {
    size: 1,
    kind: 'slapdown',
    step: 'afterDraw',
    action: 'slapdown',
    words: 'slapdown',
    description: 'End the round with a hand worth 0 (after-draw step, rule slapdown).',
  },
} as const satisfies Record<string, MoveKindSpec>;

type RangeName = keyof typeof MOVE_KINDS;

/**
 * Compile-time: every engine action is some move kind's, and every after-draw kind that is not a
 * pass is an extra of the turns that records write (a new one fails here until it is placed).
 */
type KindAction = (typeof MOVE_KINDS)[RangeName]['action'];
type AfterDrawAction = Extract<(typeof MOVE_KINDS)[RangeName], { step: 'afterDraw' }>['action'];
const EVERY_ACTION_HAS_A_KIND: Record<Exclude<Action['type'], KindAction>, never> = {};
const AFTER_DRAW_KINDS_ARE_RECORDED: Record<Exclude<AfterDrawAction, TurnExtra | 'pass'>, never> = {};
void [EVERY_ACTION_HAS_A_KIND, AFTER_DRAW_KINDS_ARE_RECORDED];
/** A move kind as the protocol names it. */
export type MoveKind = (typeof MOVE_KINDS)[RangeName]['kind'];

export interface ActionRange extends MoveKindSpec {
  readonly name: RangeName;
  readonly kind: MoveKind;
  readonly start: number;
}

function buildRanges(): Record<RangeName, ActionRange> {
  let start = 0;
  const ranges = {} as Record<RangeName, ActionRange>;
  for (const name of Object.keys(MOVE_KINDS) as RangeName[]) {
    ranges[name] = { name, start, ...MOVE_KINDS[name] };
    start += MOVE_KINDS[name].size;
  }
  return ranges;
}

/** The named id ranges, in id order. */
export const ACTION_RANGES: Readonly<Record<RangeName, ActionRange>> = buildRanges();
export const ACTION_RANGE_LIST: readonly ActionRange[] = Object.values(ACTION_RANGES);
export const ACTION_COUNT = ACTION_RANGE_LIST.reduce((sum, r) => sum + r.size, 0);
/** The protocol's move kinds, in id order (its enum). */
export const MOVE_KIND_NAMES = ACTION_RANGE_LIST.map((r) => r.kind) as [MoveKind, ...MoveKind[]];

export const YANIV_ACTION = ACTION_RANGES.YANIV.start;
export const DISCARD_START = ACTION_RANGES.DISCARD.start;
export const DRAW_DECK_ACTION = ACTION_RANGES.DRAW_DECK.start;
export const TAKE_START = ACTION_RANGES.TAKE.start;
export const PASS_ACTION = ACTION_RANGES.PASS.start;
export const QUICK_ACTION = ACTION_RANGES.QUICK.start;
export const SLAPDOWN_ACTION = ACTION_RANGES.SLAPDOWN.start;

// ---------------------------------------------------------------- the discard table

const PAIRS = HAND_SLOTS * HAND_SLOTS;
/** `(mask·49 + first·7 + last)` → discard index, −1 where no id exists. */
const DISCARD_INDEX = new Int16Array(128 * PAIRS).fill(-1);
/** Discard index → slot mask, first slot, last slot. */
export const DISCARD_MASK = new Uint8Array(DISCARD_COUNT);
export const DISCARD_FIRST = new Uint8Array(DISCARD_COUNT);
export const DISCARD_LAST = new Uint8Array(DISCARD_COUNT);

{
  let n = 0;
  for (let mask = 1; mask < 1 << HAND_SLOTS; mask++) {
    const single = (mask & (mask - 1)) === 0;
    for (let first = 0; first < HAND_SLOTS; first++) {
      if (!((mask >> first) & 1)) continue;
      for (let last = 0; last < HAND_SLOTS; last++) {
        if (!((mask >> last) & 1) || (first === last) !== single) continue;
        DISCARD_INDEX[mask * PAIRS + first * HAND_SLOTS + last] = n;
        DISCARD_MASK[n] = mask;
        DISCARD_FIRST[n] = first;
        DISCARD_LAST[n] = last;
        n++;
      }
    }
  }
  if (n !== DISCARD_COUNT) throw new Error(`discard table holds ${n} ids, not ${DISCARD_COUNT}`);
}

/** The discard id of (slot mask, first slot, last slot), or −1 if there is none. */
export function discardId(mask: number, first: number, last: number): number {
  const index = DISCARD_INDEX[mask * PAIRS + first * HAND_SLOTS + last];
  return index < 0 ? -1 : DISCARD_START + index;
}

// ---------------------------------------------------------------- hand slots

/** A hand sorted by kind into slots, with where each kind starts: the key from discard ids to cards. */
export class HandSlots {
  readonly cards = new Uint8Array(HAND_SLOTS);
  length = 0;
  /** First slot of each kind held, −1 for kinds not held. */
  readonly start = new Int8Array(KIND_COUNT).fill(-1);

  /** Sorts `hand[offset .. offset+length)` into the slots. */
  load(hand: ArrayLike<Card>, offset: number, length: number): void {
    for (let i = 0; i < this.length; i++) this.start[this.cards[i]] = -1;
    if (length > HAND_SLOTS) throw new RangeError(`a hand of ${length} cards does not fit ${HAND_SLOTS} slots`);
    const cards = this.cards;
    sortByKind(hand, offset, length, cards);
    this.length = length;
    for (let i = length - 1; i >= 0; i--) this.start[cards[i]] = i;
  }

  loadSeat(s: GameState, seat: number): void {
    this.load(s.hands, seat * HAND_CAP, s.handLength[seat]);
  }
}

const used = new Uint8Array(KIND_COUNT);

/** The id of a group laid from these slots (cards in laid order); −1 if the hand cannot lay those cards. */
export function discardIdOf(slots: HandSlots, cards: ArrayLike<Card>, offset: number, length: number): number {
  let mask = 0;
  let first = -1;
  let last = -1;
  let ok = true;
  for (let i = 0; i < length; i++) {
    const card = cards[offset + i];
    if (!(card >= 0 && card < KIND_COUNT)) return -1;
  }
  for (let i = 0; i < length; i++) {
    const card = cards[offset + i];
    const start = slots.start[card];
    const slot = start + used[card]++;
    if (start < 0 || slot >= slots.length || slots.cards[slot] !== card) ok = false;
    mask |= 1 << slot;
    if (i === 0) first = slot;
    last = slot;
  }
  for (let i = 0; i < length; i++) used[cards[offset + i]] = 0;
  if (length === 0) return -1;
  return ok ? discardId(mask, first, last) : -1;
}

const middle = new Uint8Array(HAND_SLOTS);

/**
 * Writes the group a discard id stands for into `out` in canonical laid order and returns
 * its type and length packed as `type * 16 + length`, or 0 when the id does not read as a
 * group of this hand (wrong slots or not a legal shape). Legality is the mask's business.
 */
export function decodeDiscard(slots: HandSlots, id: number, rules: PickRules, out: Uint8Array): number {
  const index = id - DISCARD_START;
  if (index < 0 || index >= DISCARD_COUNT) return 0;
  const mask = DISCARD_MASK[index];
  if (mask >> slots.length !== 0) return 0;
  const firstCard = slots.cards[DISCARD_FIRST[index]];
  const lastCard = slots.cards[DISCARD_LAST[index]];
  let n = 0;
  let m = 0;
  let jokers = 0;
  let rank = 0;
  let sameRank = true;
  let suit = -1;
  let oneSuit = true;
  let lo = 14;
  let hi = 0;
  for (let slot = 0; slot < slots.length; slot++) {
    if (!((mask >> slot) & 1)) continue;
    const card = slots.cards[slot];
    n++;
    if (slot !== DISCARD_FIRST[index] && slot !== DISCARD_LAST[index]) middle[m++] = card;
    if (card === JOKER) {
      jokers++;
      continue;
    }
    if (rank === 0) rank = RANK_OF[card];
    else if (RANK_OF[card] !== rank) sameRank = false;
    if (suit < 0) suit = SUIT_OF[card];
    else if (SUIT_OF[card] !== suit) oneSuit = false;
    if (RANK_OF[card] < lo) lo = RANK_OF[card];
    if (RANK_OF[card] > hi) hi = RANK_OF[card];
  }
  if (n === 1) {
    out[0] = firstCard;
    return SINGLE * 16 + 1;
  }
  if (sameRank) {
    out[0] = firstCard;
    for (let i = 0; i < m; i++) out[i + 1] = middle[i];
    out[n - 1] = lastCard;
    return SET * 16 + n;
  }
  if (n < 3 || !oneSuit) return 0;
  let start: number;
  if (firstCard !== JOKER) start = RANK_OF[firstCard];
  else if (lastCard !== JOKER) start = RANK_OF[lastCard] - n + 1;
  else start = Math.max(1, hi - n + 2);
  if (start < 1 || start + n - 1 > 13 || start > lo || start + n - 1 < hi) return 0;
  let naturals = 0;
  for (let i = 0; i < n; i++) {
    const card = cardOf(suit, start + i);
    const slot = slots.start[card];
    if (slot >= 0 && ((mask >> slot) & 1) === 1) {
      out[i] = card;
      naturals++;
    } else {
      out[i] = JOKER;
    }
  }
  if (naturals !== n - jokers || out[0] !== firstCard || out[n - 1] !== lastCard) return 0;
  return RUN * 16 + n;
}
