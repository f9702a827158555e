/**
 * From the cards a player picked to the discard the page sends: the legal discard (from
 * `state.legal`) that lays exactly those cards — in the order they were picked when the rules
 * tell two orders apart (only the ends of a set may be taken). A pick that no legal discard
 * lays is sent by its cards (`act` with `cards`), and the server refuses it with its reason
 * ("7H KH is not a legal group: …").
 */
import type { LegalAction } from '../client/protocol.js';

/** The legal discard that lays exactly the selected cards (picked order preferred), or null. */
export function legalDiscardFor(selected: readonly string[], legal: readonly LegalAction[]): LegalAction | null {
  const key = sameCardsKey(selected);
  const candidates = legal.filter((l) => l.kind === 'discard' && sameCardsKey(l.cards) === key);
  return candidates.find((l) => l.cards.join(' ') === selected.join(' ')) ?? candidates[0] ?? null;
}

function sameCardsKey(cards: readonly string[]): string {
  return [...cards].sort().join(' ');
}
