// bestGroupPoints finds the most points a hand can lay without listing the groups; the plain
// reference lists every legal group (generateDiscards) and takes the most points. They agree on
// random hands (two decks' worth of copies and up to eight jokers), every way of picking from
// sets and runs, with and without quick discards, and random card values (jokers included).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DiscardList,
  JOKER,
  KIND_COUNT,
  PRESET_NAMES,
  bestGroupPoints,
  generateDiscards,
  parseCard,
  resolveRules,
  ruleTables,
} from '../../../env/index.js';
import type { PickRules } from '../../../env/rules/groups.js';

const list = new DiscardList();

/** The plain reference: the most points among the listed groups. */
function listedBest(hand: Uint8Array, rules: PickRules, values: Uint8Array): number {
  if (hand.length === 0) return 0;
  generateDiscards(hand, 0, hand.length, rules, list);
  let best = 0;
  for (let i = 0; i < list.count; i++) best = Math.max(best, list.points(i, values));
  return best;
}

/** A hand of up to 9 cards: at most two copies of a natural card, at most eight jokers. */
const handArb = fc
  .array(fc.oneof(fc.integer({ min: 0, max: JOKER - 1 }), fc.constant(JOKER)), { minLength: 0, maxLength: 9 })
  .filter((cards) => cards.every((c) => cards.filter((d) => d === c).length <= (c === JOKER ? 8 : 2)));

const rulesArb = fc.record({
  pickFromSet: fc.constantFrom<'any' | 'ends'>('any', 'ends'),
  pickFromRun: fc.constantFrom<'any' | 'ends'>('any', 'ends'),
  quickDiscard: fc.boolean(),
});

describe('bestGroupPoints', () => {
  it('equals the most points among the listed groups, for any values', () => {
    fc.assert(
      fc.property(handArb, rulesArb, fc.uint8Array({ minLength: KIND_COUNT, maxLength: KIND_COUNT, max: 30 }), (cards, rules, values) => {
        const hand = Uint8Array.from(cards);
        expect(bestGroupPoints(hand, 0, hand.length, rules, values)).toBe(listedBest(hand, rules, values));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals it under every preset, read at an offset in a bigger buffer', () => {
    for (const preset of PRESET_NAMES) {
      const rules = resolveRules({ preset, players: 3 });
      const { values } = ruleTables(rules);
      fc.assert(
        fc.property(handArb, (cards) => {
          const buffer = Uint8Array.from([JOKER, ...cards, 0]);
          expect(bestGroupPoints(buffer, 1, cards.length, rules, values)).toBe(listedBest(Uint8Array.from(cards), rules, values));
        }),
        { numRuns: 500 },
      );
    }
  });

  it('finds the group a player would see: a set over a higher single, a run with a joker in its gap', () => {
    const rules = resolveRules({ players: 2 });
    const { values } = ruleTables(rules);
    const hand = (...names: string[]) => Uint8Array.from(names, (name) => parseCard(name) as number);
    // The pair of fives (10) beats the nine (9).
    expect(bestGroupPoints(hand('5C', '5D', '9H'), 0, 3, rules, values)).toBe(10);
    // 4-joker-6 of spades (10) beats the six (6).
    expect(bestGroupPoints(hand('4S', '6S', 'JK'), 0, 3, rules, values)).toBe(10);
    // 8-9-10 of hearts and the king: the run (27) beats the king (10).
    expect(bestGroupPoints(hand('8H', 'KD', '9H', '10H'), 0, 4, rules, values)).toBe(27);
  });
});
