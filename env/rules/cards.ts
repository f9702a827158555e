/**
 * The card table: one place for what a card is.
 *
 * In hot paths a card is a small integer, its *kind*: `suit * 13 + (rank - 1)` for the
 * 52 natural cards (suits in the order S H D C, ranks A=1 … K=13) and {@link JOKER} = 52.
 * With two decks, equal cards share a kind: they are interchangeable by the rules.
 * At the edges a card is its name: `10H`, `QS`, `AC`, `JK`.
 */

export type Card = number;

export const SUITS = ['S', 'H', 'D', 'C'] as const;
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] as const;
export const SUIT_COUNT = 4;
export const RANK_COUNT = 13;
export const NATURAL_KINDS = SUIT_COUNT * RANK_COUNT;
export const JOKER: Card = NATURAL_KINDS;
/** Number of distinct card kinds (52 naturals and the joker). */
export const KIND_COUNT = NATURAL_KINDS + 1;
export const JACK = 11;

/** Rank 1..13 of each kind; 0 for the joker. */
export const RANK_OF: Uint8Array = Uint8Array.from({ length: KIND_COUNT }, (_, k) => (k === JOKER ? 0 : (k % RANK_COUNT) + 1));
/** Suit 0..3 of each kind; 4 for the joker. */
export const SUIT_OF: Uint8Array = Uint8Array.from({ length: KIND_COUNT }, (_, k) =>
  k === JOKER ? SUIT_COUNT : Math.floor(k / RANK_COUNT),
);

export function cardOf(suit: number, rank: number): Card {
  return suit * RANK_COUNT + rank - 1;
}

const NAMES: readonly string[] = Array.from({ length: KIND_COUNT }, (_, k) =>
  k === JOKER ? 'JK' : RANKS[RANK_OF[k] - 1] + SUITS[SUIT_OF[k]],
);
const BY_NAME: ReadonlyMap<string, Card> = new Map(NAMES.map((name, k) => [name, k]));

/** `10H`, `QS`, `JK`. */
export function cardName(card: Card): string {
  const name = NAMES[card];
  if (name === undefined) throw new RangeError(`${card} is not a card kind`);
  return name;
}

/** Parses a card name; lower case is accepted. Returns undefined for anything else. */
export function parseCard(name: string): Card | undefined {
  return BY_NAME.get(name) ?? BY_NAME.get(name.toUpperCase()); // as given first: an upper-case name needs no new string
}

export function cardNames(cards: ArrayLike<Card>): string[] {
  // A loop: Array.from with a mapping function costs several times more (records write names at every turn).
  const names = new Array<string>(cards.length);
  for (let i = 0; i < cards.length; i++) names[i] = cardName(cards[i]);
  return names;
}

/**
 * Writes `cards[offset .. +length)` into `out[0 .. length)` sorted by kind (suits S H D C,
 * ranks up, jokers last): the order of hand slots, views and observations. Allocation-free.
 */
export function sortByKind(cards: ArrayLike<Card>, offset: number, length: number, out: Uint8Array): void {
  for (let i = 0; i < length; i++) {
    const card = cards[offset + i];
    let j = i;
    while (j > 0 && out[j - 1] > card) {
      out[j] = out[j - 1];
      j--;
    }
    out[j] = card;
  }
}

/** A group of cards as people write it: `JK 5S 6S`. */
export function formatCards(cards: ArrayLike<Card>): string {
  return cardNames(cards).join(' ');
}

/** The most a card is worth (a ten, queen or king; a jack at most). */
export const MAX_CARD_VALUE = 10;

/** Point value of every kind under a given jack value: A=1, 2–10 face, J=jackValue, Q/K=10, joker 0. */
export function valueTable(jackValue: number): Uint8Array {
  return Uint8Array.from({ length: KIND_COUNT }, (_, k) => {
    const rank = RANK_OF[k];
    if (k === JOKER) return 0;
    if (rank === JACK) return jackValue;
    return Math.min(rank, MAX_CARD_VALUE);
  });
}

/** How many of each kind the configured decks hold. */
export function deckComposition(decks: number, jokersPerDeck: number): Uint8Array {
  const counts = new Uint8Array(KIND_COUNT).fill(decks);
  counts[JOKER] = decks * jokersPerDeck;
  return counts;
}

/** Every card of the configured decks, kinds in ascending order. */
export function fullDeck(decks: number, jokersPerDeck: number): Card[] {
  return cardsFromCounts(deckComposition(decks, jokersPerDeck));
}

/** Ways to choose k of n things (exact for the small counts of cards and hand slots). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** The cards a count per kind stands for, kinds in ascending order. */
export function cardsFromCounts(counts: ArrayLike<number>): Card[] {
  const cards: Card[] = [];
  for (let kind = 0; kind < counts.length; kind++) for (let c = 0; c < counts[kind]; c++) cards.push(kind);
  return cards;
}
