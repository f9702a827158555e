import { describe, expect, it } from 'vitest';
import { game } from '../helpers.js';
import { renderState, renderView } from '../../../env/rules/render.js';
import { playerView } from '../../../env/rules/view.js';

describe('render', () => {
  const s = game({ hands: ['5S 6S 7S KH JK', '2C 3C 4C 5C 6C'], discard: '7H', deck: '9D 9C', starter: 0 });

  it('shows a seat its own hand and only the sizes of the others', () => {
    const text = renderView(playerView(s, 0));
    expect(text).toBe(
      [
        'Round 1, turn 0: seat 0 to move (turn)',
        'Rules: Yaniv at ≤ 7, Assaf +30, elimination above 200, 1 deck with 2 jokers each',
        'Deck: 2 cards · pile: (empty)',
        'Previous group: 7H (single); may be taken: 7H',
        '  seat 0 (you, to move): total 0, hand 5S 6S 7S KH JK = 28',
        '  seat 1: total 0, 5 cards',
      ].join('\n'),
    );
    expect(renderView(playerView(s, 1))).not.toMatch(/5S/);
  });

  it('shows everything in the omniscient view', () => {
    const text = renderState(s);
    expect(text).toMatch(/seat 1: total 0, hand 2C 3C 4C 5C 6C = 20/);
    expect(text).toMatch(/Deck, top first: 9D 9C/);
  });
});
