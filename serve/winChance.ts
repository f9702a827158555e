/**
 * The seat's chance to win the game, for the advice: the game equity (agents/equity.ts) of the
 * table when the round began — every total, who is in, who started it — and, for a model trained
 * on the "equity" reward, plus its value estimate. Such a value predicts the change of P(win)
 * from the round's start (either return horizon: to the round's end, or to the outcome), so the
 * sum is the model's own P(win) now, which knows the cards; every other agent's value is in other
 * units (points, scores), so the equity alone is given: P(win) before this round's cards count.
 */
import { shippedEquityFor } from '../agents/equity.js';
import { agentModelCard } from '../agents/registry.js';
import { seatEquities } from '../env/gym/equity.js';
import type { PlayerView } from '../env/rules/view.js';

export interface WinChance {
  /** P(the seat wins the game), 0..1. */
  readonly probability: number;
  /** The game equity at the round's start alone. */
  readonly roundStart: number;
  /** "equity": the equity at the round's start; "equity+value": plus the model's value (reward "equity"). */
  readonly source: 'equity' | 'equity+value';
}

/** The seat's chance to win, or null when no game equity ships for the view's rules and table size. */
export function winChance(agent: string, view: PlayerView, value: number | null): WinChance | null {
  const equity = shippedEquityFor(view.rules, view.players);
  if (!equity) return null;
  // A total below 0 (a client may send one: the view allows start totals of any sign) is at least
  // as far from elimination as 0, and the equity starts at 0: 0 stands for it.
  const totals = view.totals.map((total) => Math.max(total, 0));
  const roundStart = seatEquities(equity, totals, view.active, view.starter)[view.seat];
  if (value !== null && agentModelCard(agent)?.reward === 'equity')
    return { probability: Math.min(Math.max(roundStart + value, 0), 1), roundStart, source: 'equity+value' };
  return { probability: roundStart, roundStart, source: 'equity' };
}
