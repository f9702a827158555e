/**
 * From the cards a player picked to the discard the page sends. A selection that a legal
 * discard lays is sent as that action — in the order the cards were picked when the rules
 * tell two orders apart (only the ends of a set may be taken) —; any other selection is sent
 * as the id yaniv-actions/1 gives those cards, so that the server refuses it with its reason
 * in words ("7H KH is not a legal group: …"). test/web/selection.test.ts checks the ids
 * against the engine's.
 */
import { cardKind } from './cards.js';
import type { LegalAction } from './protocol.js';

/** yaniv-actions/1: hand slots, and where the discard ids start (after Yaniv, id 0). */
const HAND_SLOTS = 7;
const DISCARD_START = 1;

/** The legal discard that lays exactly the selected cards (picked order preferred), or null. */
export function legalDiscardFor(selected: readonly string[], legal: readonly LegalAction[]): LegalAction | null {
  const key = sameCardsKey(selected);
  const candidates = legal.filter((l) => l.kind === 'discard' && sameCardsKey(l.cards) === key);
  return candidates.find((l) => l.cards.join(' ') === selected.join(' ')) ?? candidates[0] ?? null;
}

function sameCardsKey(cards: readonly string[]): string {
  return [...cards].sort().join(' ');
}

/**
 * The discard id of laying `selected` (in that order) from `hand`: the slots of the hand
 * sorted by kind that the cards use (equal cards take the lowest free slots), with the slot
 * of the first and of the last card laid.
 */
export function discardIdOf(hand: readonly string[], selected: readonly string[]): number {
  if (hand.length > HAND_SLOTS) throw new RangeError(`a hand of ${hand.length} cards has no discard ids`);
  if (selected.length === 0) throw new RangeError('a discard needs at least one card');
  const slots = hand.map(cardKind).sort((a, b) => a - b);
  const taken = new Set<number>();
  const slotOf = (card: string): number => {
    const kind = cardKind(card);
    const slot = slots.findIndex((k, i) => k === kind && !taken.has(i));
    if (slot < 0) throw new RangeError(`${card} is not in the hand ${hand.join(' ')}`);
    taken.add(slot);
    return slot;
  };
  const used = selected.map(slotOf);
  const mask = used.reduce((m, slot) => m | (1 << slot), 0);
  return DISCARD_START + discardIndex(mask, used[0], used[used.length - 1]);
}

/** The position of (slot mask, first slot, last slot) in the id order of the layout. */
function discardIndex(mask: number, first: number, last: number): number {
  let index = 0;
  for (let m = 1; m < 1 << HAND_SLOTS; m++) {
    const single = (m & (m - 1)) === 0;
    for (let f = 0; f < HAND_SLOTS; f++) {
      if (!((m >> f) & 1)) continue;
      for (let l = 0; l < HAND_SLOTS; l++) {
        if (!((m >> l) & 1) || (f === l) !== single) continue;
        if (m === mask && f === first && l === last) return index;
        index++;
      }
    }
  }
  throw new RangeError(`no discard id for slots ${mask.toString(2)}, first ${first}, last ${last}`);
}
