// "Perft" for Yaniv (STYLE.md, chess.js): how many legal discards and whole turns
// (`legalTurns(state).length`) fixed positions have under several rule sets. Every number
// below was counted by hand from the rules, as the comments show, not copied from the engine.
import { describe, expect, it } from 'vitest';
import { type GameState, legalTurns } from '../../../env/index.js';
import { type DealTable, discards, game, play } from '../helpers.js';

/** A position is dealt under the rules of each row: [label, rules, discards, turns]. */
interface Perft {
  name: string;
  position: (table: DealTable) => GameState;
  counts: [string, DealTable, number, number][];
}

const positions: Perft[] = [
  {
    // AS 2S 3S KH KD, turned up 7H (RECORD.md's example, seat 0).
    //   singles AS 2S 3S KH KD ............ 5
    //   set KH KD .......................... 1
    //   run A-2-3 (no jokers, nothing else)  1      → 7 discards
    //   each with 2 draws (deck, 7H)                 → 14 turns; worth 26: no Yaniv
    // The order of a pair never matters, and without jokers a run has one laid order,
    // so every rule set agrees; yanivThreshold 30 adds the Yaniv call.
    name: 'AS 2S 3S KH KD / 7H',
    position: (table) => game({ hands: ['AS 2S 3S KH KD', '9C 9D 4H 5H JK', 'AC AD 2C 2H JK'], discard: '7H', deck: '6C 9H 5D JS' }, table),
    counts: [
      ['standard', {}, 7, 14],
      ['norwegian', { preset: 'norwegian' }, 7, 14],
      ['pickFromRun any', { rules: { pickFromRun: 'any' } }, 7, 14],
      ['yanivThreshold 30', { rules: { yanivThreshold: 30 } }, 7, 15],
    ],
  },
  {
    // JK 5S 6S 7S 5H, turned up 9D, deck top 4S. Worth 23: no Yaniv anywhere.
    //   singles 5S 6S 7S 5H JK ............................................ 5
    //   sets: 5S+JK, 5H+JK, 5S 5H, 5S 5H JK, 6S+JK, 7S+JK ................... 6
    //   runs (pickFromRun "ends": where the joker sits changes the ends):
    //     5-6-7; JK 5 6 7 (4-7); 5 6 7 JK (5-8) ............................ 3
    //     5 6 + JK: JK 5 6 (4-6), 5 6 JK (5-7) .............................. 2
    //     6 7 + JK: JK 6 7 (5-7), 6 7 JK (6-8) .............................. 2
    //     5 JK 7 ............................................................ 1   → 19 discards
    //   standard: 19 × 2 draws = 38 turns.
    //   norwegian (set ends): the 3-card set 5S 5H JK has 3 choices of ends → 19 + 2 = 21; × 2 = 42.
    //   pickFromRun "any": a joker's place no longer matters: 5-6-7, 4-7, 4-6 (or 5-7), 5-7 (or 6-8),
    //     5 JK 7 → 5 runs → 16 discards; × 2 = 32.
    //   quickDiscard: 19 discards; the deck's 4S joins every run starting at 5 (5-6-7, 5 6 7 JK,
    //     5 6 JK, JK 6 7, 5 JK 7) → 38 + 5 = 43 turns.
    name: 'JK 5S 6S 7S 5H / 9D',
    position: (table) => game({ hands: ['JK 5S 6S 7S 5H', 'KC QC JC 10C 9C'], discard: '9D', deck: '4S 2H' }, table),
    counts: [
      ['standard', {}, 19, 38],
      ['norwegian', { preset: 'norwegian' }, 21, 42],
      ['pickFromRun any', { rules: { pickFromRun: 'any' } }, 16, 32],
      ['quickDiscard', { rules: { quickDiscard: true } }, 19, 43],
    ],
  },
  {
    // AS AH 2S 3S JK, turned up 7H. Worth exactly 7.
    //   singles AS AH 2S 3S JK ............................................. 5
    //   sets: AS+JK, AH+JK, AS AH, AS AH JK, 2S+JK, 3S+JK .................... 6
    //   runs: A-2-3, A 2 3 JK (A-4; no room below A) ........................ 2
    //         A 2 JK (only A-3) ............................................ 1
    //         JK 2 3, 2 3 JK (2-4) ................................... 2
    //         A JK 3 ....................................................... 1   → 17 discards
    //   standard: Yaniv (7 ≤ 7) + 17 × 2 = 35.   israeli5: 7 > 5, 34.
    //   pickFromRun "any": JK 2 3 and 2 3 JK are the same → 16 discards, 1 + 32 = 33.
    //   norwegian: AS AH JK has 3 choices of ends → 19 discards; threshold 5 → 38.
    name: 'AS AH 2S 3S JK / 7H',
    position: (table) => game({ hands: ['AS AH 2S 3S JK', 'KC QC JC 10C 9C'], discard: '7H', deck: '4D 2H' }, table),
    counts: [
      ['standard', {}, 17, 35],
      ['israeli5', { preset: 'israeli5' }, 17, 34],
      ['pickFromRun any', { rules: { pickFromRun: 'any' } }, 16, 33],
      ['norwegian', { preset: 'norwegian' }, 19, 38],
    ],
  },
  {
    // Two decks. Seat 1 has laid the run 4C 5C 6C; seat 0 holds 8H 8H 8D JK JK (worth 24).
    //   singles 8H 8D JK (equal cards are one) ............................. 3
    //   sets of eights: naturals {8H} {8H 8H} {8D} {8H 8D} {8H 8H 8D} with 0-2 jokers, at least
    //     2 cards: 2 + 3 + 2 + 3 + 3 = 13; and JK JK: 14
    //   no runs (one natural per suit)                                       → 17 discards
    //   draws: deck, 4C, 6C (the run's ends) → standard 17 × 3 = 51.
    //   norwegian (set ends, ends as unordered pairs of kinds):
    //     pairs: 5 sets × 1
    //     3 cards: 8H JK JK 2, 8H 8H JK 2, 8D JK JK 2, 8H 8D JK 3, 8H 8H 8D 2 = 11
    //     4 cards: 8H 8H JK JK 3, 8H 8D JK JK 4, 8H 8H 8D JK 4 = 11
    //     5 cards: 8H 8H 8D JK JK: {H,H} {H,D} {H,J} {D,J} {J,J} = 5
    //     → 32 sets + 3 singles = 35 discards; × 3 = 105.
    name: '8H 8H 8D JK JK / run 4C 5C 6C (two decks)',
    position: (table) =>
      play(game({ hands: ['8H 8H 8D JK JK', '4C 5C 6C KS QS'], discard: '7H', deck: '2D 3D', starter: 1 }, table), '4C 5C 6C / deck'),
    counts: [
      ['standard', { rules: { decks: 2 } }, 17, 51],
      ['norwegian', { preset: 'norwegian', rules: { decks: 2 } }, 35, 105],
    ],
  },
  {
    // KH JK, turned up AS, deck top JK, slapdown on.
    //   singles KH, JK and the set KH JK (a joker stands in for a king) → 3 discards;
    //   × 2 draws = 6 turns. Worth 0 right after the draw: KH / deck (JK JK) and KH JK / deck
    //   (JK) → + 2 slapdowns = 8. Without slapdown, 6.
    name: 'KH JK / AS, deck JK',
    position: (table) => game({ hands: ['KH JK', 'KC QC'], discard: 'AS', deck: 'JK 2D' }, table),
    counts: [
      ['slapdown', { rules: { slapdown: true } }, 3, 8],
      ['standard', {}, 3, 6],
    ],
  },
  {
    // KS KD 5C, turned up 9H, deck top KH; norwegian with quickDiscard: the first card of a set
    // stays an end, so both orders of the pair count.
    //   singles 3, pairs KS KD and KD KS → 5 discards; × 2 draws = 10 turns;
    //   KH from the deck joins both pairs and both single kings: + 4 → 14.
    //   Without quickDiscard the pair has one order: 4 discards, 8 turns.
    name: 'KS KD 5C / 9H, deck KH',
    position: (table) => game({ hands: ['KS KD 5C', '2C 3C'], discard: '9H', deck: 'KH 2D' }, table),
    counts: [
      ['norwegian + quickDiscard', { preset: 'norwegian', rules: { quickDiscard: true } }, 5, 14],
      ['norwegian', { preset: 'norwegian' }, 4, 8],
    ],
  },
];

describe('perft: legal discards and whole turns from fixed positions', () => {
  for (const { name, position, counts } of positions) {
    describe(name, () => {
      it.each(counts)('%s %j: %i discards, %i turns', (_label, table, discardCount, turnCount) => {
        const s = position(table);
        expect(discards(s)).toHaveLength(discardCount);
        expect(new Set(discards(s)).size).toBe(discardCount);
        expect(legalTurns(s)).toHaveLength(turnCount);
      });
    });
  }
});
