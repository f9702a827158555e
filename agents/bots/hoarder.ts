/**
 * `hoarder` — a rule bot of another style than `strong`, for the held-out panel (never a
 * training opponent): no card tracking beyond the Assaf risk, no planning. It lays its longest
 * group, breaking ties by the points of its cards worth more than 3 (it keeps its low cards),
 * takes a previous card that makes a group with its hand or is worth at most 3, and calls Yaniv
 * whenever the exact Assaf risk is at most 0.3 (strong waits for 0.1).
 */
import { type Action, assafRiskAtMost } from '../../env/index.js';
import { type RuleBot, afterDraw, legalOfType } from './ruleBot.js';
import { valuesOf } from './tactics.js';
import { usefulDraw } from './intermediate.js';

/** Cards worth this much or less are kept. */
const LOW_CARD = 3;
const HOARDER_CALL_RISK = 0.3;

export const hoarder: RuleBot = ({ view, legal }) => {
  const values = valuesOf(view);
  if (view.phase === 'afterDraw') return afterDraw(legal);
  if (view.phase === 'draw') return usefulDraw(view, legal, LOW_CARD);
  if (legal.some((a) => a.type === 'yaniv') && assafRiskAtMost(view, HOARDER_CALL_RISK)) return { type: 'yaniv' };
  const shed = (action: Extract<Action, { type: 'discard' }>) =>
    action.cards.reduce((sum, card) => sum + (values[card] > LOW_CARD ? values[card] : 0), 0);
  return legalOfType(legal, 'discard').reduce((best, d) => {
    if (d.cards.length !== best.cards.length) return d.cards.length > best.cards.length ? d : best;
    return shed(d) > shed(best) ? d : best;
  });
};
