// The page's reading of card names (web/cards.ts) against the engine's card table.
import { describe, expect, it } from 'vitest';
import { KIND_COUNT, cardName } from '../../env/index.js';
import { cardFace, cardsInWords, sortForDisplay } from '../../web/cards.js';

describe('web/cards', () => {
  it('reads every card name the engine writes, each into its own face', () => {
    const faces = Array.from({ length: KIND_COUNT }, (_, kind) => cardFace(cardName(kind)));
    expect(new Set(faces.map((f) => `${f.rankLabel}${f.symbol}`)).size).toBe(KIND_COUNT);
    expect(faces.map((f) => f.name)).toEqual(Array.from({ length: KIND_COUNT }, (_, kind) => cardName(kind)));
  });

  it('shows rank, suit symbol and colour, the joker apart, in words for screen readers', () => {
    expect(cardFace('10H')).toMatchObject({ rank: 10, rankLabel: '10', suit: 'H', symbol: '♥', colour: 'red', words: '10 of hearts' });
    expect(cardFace('QS')).toMatchObject({ rank: 12, symbol: '♠', colour: 'black', words: 'queen of spades' });
    expect(cardFace('AD')).toMatchObject({ rank: 1, colour: 'red', words: 'ace of diamonds' });
    expect(cardFace('JK')).toMatchObject({ rank: 0, suit: null, colour: 'joker', words: 'joker' });
    expect(cardsInWords(['7C', 'JK'])).toBe('7 of clubs, joker');
    expect(() => cardFace('1S')).toThrow('"1S" is not a card name');
    expect(() => cardFace('7X')).toThrow('"7X" is not a card name');
  });

  it('sorts a hand by rank, then suit, jokers last', () => {
    expect(sortForDisplay(['JK', 'KC', '7H', 'AS', '7S', '10D', 'JK', '7C'])).toEqual(['AS', '7S', '7H', '7C', '10D', 'KC', 'JK', 'JK']);
  });
});
