// From picked cards to the discard the page sends (web/selection.ts): legal discards found by their cards.
import { describe, expect, it } from 'vitest';
import type { LegalAction } from '../../serve/index.js';
import { legalDiscardFor } from '../../web/selection.js';

describe('web/selection', () => {
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
