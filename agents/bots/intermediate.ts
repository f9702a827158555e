/**
 * `intermediate` — the second rung of the published ladder: lays the longest legal
 * multi-card group if it has one, else the discard with the most points; takes a pickable
 * card of the previous group if it would form a legal multi-card group with the rest of its
 * hand, or if it is worth at most 2; else draws; calls Yaniv whenever legal.
 */
import type { Action } from '../../env/index.js';
import { type RuleBot, type RuleContext, afterDraw, legalOfType } from './ruleBot.js';
import { highestPoints } from './novice.js';
import { formsGroupWith, valuesOf } from './tactics.js';

export const intermediate: RuleBot = ({ view, legal }) => {
  const values = valuesOf(view);
  if (view.phase === 'afterDraw') return afterDraw(legal);
  if (view.phase === 'draw') return usefulDraw(view, legal, 2);
  if (legal.some((a) => a.type === 'yaniv')) return { type: 'yaniv' };
  const discards = legalOfType(legal, 'discard');
  const groups = discards.filter((d) => d.cards.length >= 2);
  if (groups.length === 0) return highestPoints(discards, values);
  const longest = Math.max(...groups.map((d) => d.cards.length));
  return highestPoints(
    groups.filter((d) => d.cards.length === longest),
    values,
  );
};

/**
 * The draw of a bot that takes a previous card when it makes a group with its hand, else the
 * cheapest worth at most `cheap`, else draws from the deck (the cheapest first among equals).
 */
export function usefulDraw(view: RuleContext['view'], legal: RuleContext['legal'], cheap: number): Action {
  const values = valuesOf(view);
  const draws = legalOfType(legal, 'draw');
  const taken = draws.filter((d) => d.source !== 'deck').sort((a, b) => values[a.source as number] - values[b.source as number]);
  const useful =
    taken.find((d) => formsGroupWith(view.hand, d.source as number, view)) ?? taken.find((d) => values[d.source as number] <= cheap);
  return useful ?? draws.find((d) => d.source === 'deck') ?? draws[0];
}
