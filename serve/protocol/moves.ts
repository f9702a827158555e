/** Action ids as the protocol shows them: the id, its kind, its cards and a readable text. */
import {
  type Card,
  type GameState,
  type PlayerView,
  TAKE_START,
  actionRangeOf,
  actionToMove,
  cardName,
  describeAction,
  describeDiscardOf,
} from '../../env/index.js';
import type { LegalAction } from './protocol.js';

/**
 * A legal action of the player to move, read against the mover's hand (`position` is the
 * state, or the mover's own view). `drawn` is the card drawn this turn, for a quick discard.
 * The kind and the words come from the action layout's move kinds (env/gym/actionLayout.ts).
 */
export function describeLegal(position: GameState | PlayerView, id: number, drawn: Card | null): LegalAction {
  const range = actionRangeOf(id);
  if (!range) throw new RangeError(`${id} is not an action id`);
  let cards: readonly Card[] = [];
  if (range.name === 'DISCARD') {
    // The move read once, for its cards and its words (describeAction would read the hand again).
    const move = actionToMove(position, id);
    if (move.type === 'discard') cards = move.cards;
    return { action: id, kind: range.kind, cards: cards.map(cardName), text: describeDiscardOf(cards) };
  }
  if (range.name === 'TAKE') cards = [id - TAKE_START];
  else if (range.name === 'QUICK' && drawn !== null) cards = [drawn];
  return { action: id, kind: range.kind, cards: cards.map(cardName), text: describeAction(id, position, drawn) };
}
