/**
 * Cards as the page shows them. The protocol names cards `10H`, `QS`, `JK` (rank A 2 … 10 J Q K,
 * suit S H D C); this reads a name into what a card face needs (rank, suit symbol, colour, words
 * for screen readers). test/web/cards.test.ts checks it against the engine's card names.
 */

export const SUITS = ['S', 'H', 'D', 'C'] as const;
export type Suit = (typeof SUITS)[number];
const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] as const;

const SUIT_SYMBOLS: Record<Suit, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };
const SUIT_WORDS: Record<Suit, string> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const RANK_WORDS: Partial<Record<string, string>> = { A: 'ace', J: 'jack', Q: 'queen', K: 'king' };

export interface CardFace {
  readonly name: string;
  /** 1 (ace) to 13 (king); 0 for the joker. */
  readonly rank: number;
  readonly rankLabel: string;
  /** null for the joker. */
  readonly suit: Suit | null;
  readonly symbol: string;
  readonly colour: 'red' | 'black' | 'joker';
  /** For screen readers: "7 of hearts", "queen of spades", "joker". */
  readonly words: string;
}

const JOKER_FACE: CardFace = { name: 'JK', rank: 0, rankLabel: 'Joker', suit: null, symbol: '★', colour: 'joker', words: 'joker' };

/** What a card name shows; throws on a name the protocol never sends. */
export function cardFace(name: string): CardFace {
  if (name === 'JK') return JOKER_FACE;
  const rankLabel = name.slice(0, -1);
  const suit = name.slice(-1) as Suit;
  const rank = RANKS.indexOf(rankLabel as (typeof RANKS)[number]) + 1;
  if (rank === 0 || !SUITS.includes(suit)) throw new RangeError(`${JSON.stringify(name)} is not a card name`);
  return {
    name,
    rank,
    rankLabel,
    suit,
    symbol: SUIT_SYMBOLS[suit],
    colour: suit === 'H' || suit === 'D' ? 'red' : 'black',
    words: `${RANK_WORDS[rankLabel] ?? rankLabel} of ${SUIT_WORDS[suit]}`,
  };
}

/** A hand as people hold it: by rank, then suit (S H D C), jokers last. */
export function sortForDisplay(names: readonly string[]): string[] {
  const order = (face: CardFace) =>
    face.suit === null ? (RANKS.length + 1) * SUITS.length : face.rank * SUITS.length + SUITS.indexOf(face.suit);
  return [...names].sort((a, b) => order(cardFace(a)) - order(cardFace(b)));
}

/** "5 of spades, 6 of spades" */
export function cardsInWords(names: readonly string[]): string {
  return names.map((name) => cardFace(name).words).join(', ');
}

/** A card code in a sentence the server wrote ("7H KH is not a legal group…"). */
const CARD_CODE = /\b(10|[2-9AJQK])([SHDC])\b|\bJK\b/g;

/** A sentence with its card codes drawn as the page draws cards: "7H KH" → "7♥ K♥", "JK" → "★ joker". */
export function withCardGlyphs(text: string): string {
  return text.replace(CARD_CODE, (code) => {
    const face = cardFace(code);
    return face.suit === null ? `${face.symbol} joker` : `${face.rankLabel}${face.symbol}`;
  });
}

/** "7♥ K♥ ★": cards as short glyphs, for a line of text. */
export function cardsInGlyphs(names: readonly string[]): string {
  return withCardGlyphs(names.join(' '));
}
