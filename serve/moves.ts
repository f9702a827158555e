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
  formatCards,
} from '../env/index.js';
import type { LegalAction } from './protocol.js';

const KINDS = {
  YANIV: 'yaniv',
  DISCARD: 'discard',
  DRAW_DECK: 'draw',
  TAKE: 'take',
  PASS: 'pass',
  QUICK: 'quick',
  SLAPDOWN: 'slapdown',
} as const satisfies Record<string, LegalAction['kind']>;

/**
 * A legal action of the player to move, read against the mover's hand (`position` is the
 * state, or the mover's own view). `drawn` is the card drawn this turn, for a quick discard.
 */
export function describeLegal(position: GameState | PlayerView, id: number, drawn: Card | null): LegalAction {
  const range = actionRangeOf(id);
  if (!range) throw new RangeError(`${id} is not an action id`);
  const kind = KINDS[range.name as keyof typeof KINDS];
  let cards: Card[] = [];
  if (kind === 'discard') {
    const move = actionToMove(position, id);
    if (move.type === 'discard') return { action: id, kind, cards: move.cards.map(cardName), text: `discard ${formatCards(move.cards)}` };
  } else if (kind === 'take') {
    cards = [id - TAKE_START];
  } else if (kind === 'quick' && drawn !== null) {
    cards = [drawn];
  }
  return {
    action: id,
    kind,
    cards: cards.map(cardName),
    text: kind === 'quick' && drawn !== null ? `quick discard ${cardName(drawn)}` : describeAction(id, position),
  };
}
