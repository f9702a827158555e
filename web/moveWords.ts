/**
 * Moves in a player's words, from the protocol's kind and cards (never its `text`, which names
 * cards by code: "discard 10C JK QC"): what the advisor suggests ("Lay", "Take"), and what a
 * player did ("laid", "took"). The table is typed over the protocol's kinds, so a new kind
 * does not compile until it has its words.
 */
import { cardsInGlyphs, cardsInWords } from './cards.js';
import type { LegalAction } from '../client/protocol.js';

export type MoveKind = LegalAction['kind'];

export interface MoveWords {
  /** Suggested: "Lay", "Draw from the deck". */
  readonly suggest: string;
  /** Done: "laid", "drew from the deck". */
  readonly done: string;
}

export const MOVE_WORDS: Record<MoveKind, MoveWords> = {
  yaniv: { suggest: 'Call Yaniv!', done: 'called Yaniv' },
  discard: { suggest: 'Lay', done: 'laid' },
  draw: { suggest: 'Draw from the deck', done: 'drew from the deck' },
  take: { suggest: 'Take', done: 'took' },
  pass: { suggest: 'Keep your hand (pass)', done: 'passed' },
  quick: { suggest: 'Quick discard', done: 'added in a quick discard' },
  slapdown: { suggest: 'Slap down', done: 'slapped down' },
};

export interface Move {
  readonly kind: MoveKind;
  readonly cards: readonly string[];
}

/** "Lay 10 of clubs, joker, queen of clubs", "took 7 of hearts", "Draw from the deck". */
export function moveInWords(move: Move, tense: keyof MoveWords): string {
  const words = MOVE_WORDS[move.kind][tense];
  return move.cards.length === 0 ? words : `${words} ${cardsInWords(move.cards)}`;
}

/** The same in a short line of text, the cards as glyphs: "laid 7♠ 7♦", "took 3♣". */
export function moveInGlyphs(move: Move, tense: keyof MoveWords): string {
  const words = MOVE_WORDS[move.kind][tense];
  return move.cards.length === 0 ? words : `${words} ${cardsInGlyphs(move.cards)}`;
}
