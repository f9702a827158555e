// From picked cards to the discard the page sends (web/selection.ts): ids equal to the engine's
// for any hand and any pick, and legal discards found by their cards.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUNS } from '../env/gym/envPositions.js';
import { DISCARD_COUNT, DISCARD_START, HandSlots, discardIdOf as engineDiscardId } from '../../env/gym/actionLayout.js';
import { KIND_COUNT, cardName } from '../../env/index.js';
import type { LegalAction } from '../../serve/index.js';
import { discardIdOf, legalDiscardFor } from '../../web/selection.js';

/** A hand of 1..7 cards from two decks (each kind at most twice) and an ordered pick from it. */
const handAndPick = fc
  .array(fc.integer({ min: 0, max: KIND_COUNT - 1 }), { minLength: 1, maxLength: 7 })
  .filter((kinds) => kinds.every((k) => kinds.filter((x) => x === k).length <= 2))
  .chain((kinds) =>
    fc.tuple(
      fc.constant(kinds),
      fc.shuffledSubarray(
        kinds.map((_, i) => i),
        { minLength: 1 },
      ),
    ),
  );

describe('web/selection', () => {
  it("gives any pick from any hand the engine's discard id", () => {
    fc.assert(
      fc.property(handAndPick, ([kinds, picked]) => {
        const slots = new HandSlots();
        slots.load(kinds, 0, kinds.length);
        const cards = picked.map((i) => kinds[i]);
        const id = discardIdOf(kinds.map(cardName), cards.map(cardName));
        expect(id).toBe(engineDiscardId(slots, cards, 0, cards.length));
        expect(id).toBeGreaterThanOrEqual(DISCARD_START);
        expect(id).toBeLessThan(DISCARD_START + DISCARD_COUNT);
      }),
      { numRuns: 500 * RUNS, seed: 11 },
    );
  });

  it('refuses a pick that is not in the hand', () => {
    expect(() => discardIdOf(['5S', '6S'], ['7S'])).toThrow('7S is not in the hand 5S 6S');
    expect(() => discardIdOf(['5S', '6S'], ['5S', '5S'])).toThrow('5S is not in the hand 5S 6S');
    expect(() => discardIdOf(['5S'], [])).toThrow('a discard needs at least one card');
  });

  it('finds the legal discard of the picked cards, in the order picked when two orders are legal', () => {
    const discard = (action: number, text: string): LegalAction => ({
      action,
      kind: 'discard',
      cards: text.split(' '),
      text: `discard ${text}`,
    });
    const legal: LegalAction[] = [
      discard(1, '5S'),
      discard(9, '5S 6S 7S'),
      discard(20, '7H 7D'),
      discard(21, '7D 7H'),
      { action: 0, kind: 'yaniv', cards: [], text: 'Yaniv' },
    ];
    expect(legalDiscardFor(['7S', '5S', '6S'], legal)?.action).toBe(9);
    expect(legalDiscardFor(['7D', '7H'], legal)?.action).toBe(21);
    expect(legalDiscardFor(['7H', '7D'], legal)?.action).toBe(20);
    expect(legalDiscardFor(['5S'], legal)?.action).toBe(1);
    expect(legalDiscardFor(['5S', '6S'], legal)).toBeNull();
    expect(legalDiscardFor([], legal)).toBeNull();
  });
});
