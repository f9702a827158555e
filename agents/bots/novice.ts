/**
 * `novice` — the first rung of the published benchmark ladder: lays the legal group with the
 * most points; takes a card of the previous group only if it is worth at most 2, else draws
 * from the deck; calls Yaniv when legal unless the cards it knows to be in some opponent's
 * hand already add up to no more than its own hand.
 */
import type { Action } from '../../env/index.js';
import { type RuleBot, afterDraw, legalOfType } from './ruleBot.js';
import { opponents, pointsOf, valuesOf } from './tactics.js';

export const novice: RuleBot = ({ view, legal }) => {
  const values = valuesOf(view);
  if (view.phase === 'afterDraw') return afterDraw(legal);
  if (view.phase === 'draw') {
    const draws = legalOfType(legal, 'draw');
    const cheap = draws
      .filter((d) => d.source !== 'deck' && values[d.source] <= 2)
      .sort((a, b) => values[a.source as number] - values[b.source as number]);
    return cheap[0] ?? draws.find((d) => d.source === 'deck') ?? draws[0];
  }
  const canCall = legal.some((a) => a.type === 'yaniv');
  const outKnown = opponents(view).some((seat) => view.known[seat].length > 0 && pointsOf(view.known[seat], values) <= view.handValue);
  if (canCall && !outKnown) return { type: 'yaniv' };
  return highestPoints(legalOfType(legal, 'discard'), values);
};

/** The discard with the most points; the first one listed on a tie. */
export function highestPoints(discards: Extract<Action, { type: 'discard' }>[], values: Uint8Array): Action {
  return discards.reduce((best, d) => (pointsOf(d.cards, values) > pointsOf(best.cards, values) ? d : best));
}
