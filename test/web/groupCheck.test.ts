// The How-to-play checker (web/groupCheck.ts): the engine's verdict on picked cards, in words and
// glyphs, with the cards the next player could take — the same verdict the engine gives a discard.
import { describe, expect, it } from 'vitest';
import { classifyLaid } from '../../env/rules/groups.js';
import { cardNames, parseCard } from '../../env/rules/cards.js';
import { STANDARD_PICKS, checkGroup } from '../../web/groupCheck.js';

const CARD_CODE = /\b(?:[2-9]|10|[AJQK])[SHDC]\b|\bJK\b/;

describe('web/groupCheck', () => {
  it('reads sets, runs and singles as the engine does, with what may be taken', () => {
    expect(checkGroup(['5S', 'JK', '7S'])).toMatchObject({ legal: true, type: 'run', laid: ['5S', 'JK', '7S'], takeable: ['5S', '7S'] });
    expect(checkGroup(['8H', '8D', 'JK'])).toMatchObject({ legal: true, type: 'set', takeable: ['8H', '8D', 'JK'] });
    expect(checkGroup(['KD'])).toMatchObject({ legal: true, type: 'single', takeable: ['KD'] });
    expect(checkGroup(['7H', 'KH'])).toEqual({
      legal: false,
      words: 'Not a legal group: two cards of different ranks are not a set, and a run needs three.',
    });
    expect(checkGroup(['5S', '6H', '7S']).words).toMatch(/one suit/);
    expect(checkGroup([]).legal).toBe(false);
  });

  it('agrees with the engine on every pair and on runs of three, and never names a card by code', () => {
    const names = cardNames(Array.from({ length: 53 }, (_, k) => k));
    for (const a of names)
      for (const b of names) {
        const engine = classifyLaid(
          [a, b].map((n) => parseCard(n) as number),
          STANDARD_PICKS,
        );
        const shown = checkGroup([a, b]);
        expect(shown.legal, `${a} ${b}`).toBe(!('error' in engine));
        expect(shown.words).not.toMatch(CARD_CODE);
      }
    for (const run of [
      ['AH', '2H', '3H'],
      ['QS', 'KS', 'AS'],
      ['JK', 'JK', '4C'],
      ['9D', '10D', 'JD'],
    ]) {
      const engine = classifyLaid(
        run.map((n) => parseCard(n) as number),
        STANDARD_PICKS,
      );
      expect(checkGroup(run).legal, run.join(' ')).toBe(!('error' in engine));
    }
  });
});
