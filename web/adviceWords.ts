/**
 * The advisor's numbers in a player's words. What the numbers mean is in serve/PROTOCOL.md
 * ("What the scores mean"): `score` agents rank a move by minus the points they expect it to
 * cost; trained models (`probability`) rank by how likely the policy is to play it, and their
 * value is the expected zero-sum reward, minus the points the seat gains relative to the
 * table's mean × 0.01.
 */
import type { Msg } from '../client/protocol.js';

export type ScoreKind = Msg<'advice'>['scores'];

/** What the ranked list's numbers are, for its caption. */
export const SCORE_CAPTIONS: Record<ScoreKind, string> = {
  score: 'Best moves, with the points each is expected to cost you (fewer is better)',
  probability: 'Best moves, with how likely the trained bot is to play each',
  none: 'This bot gives only its pick',
};

/** One ranked move's number: "21.8 points", "62%". */
export function scoreInWords(score: number, kind: ScoreKind): string {
  if (kind === 'probability') return `${Math.round(score * 100)}%`;
  if (kind === 'none') return '';
  return points(-score);
}

/** A trained model's value is in hundredths of points relative to the table's mean. */
const VALUE_POINTS = 100;

/** The value estimate as a sentence, or null when the agent gives none. */
export function valueInWords(value: number | null, kind: ScoreKind): string | null {
  if (value === null || kind === 'none') return null;
  if (kind === 'score') return `This move is expected to cost you about ${points(-value)} (fewer is better).`;
  const more = Math.round(-value * VALUE_POINTS);
  if (more === 0) return 'Outlook for this round: about as many points as the table’s average.';
  return `Outlook for this round: about ${points(Math.abs(more))} ${more > 0 ? 'more' : 'fewer'} than the table’s average (fewer is better).`;
}

/** "1 point", "21.8 points", "0 points" (one decimal at most). */
export function points(n: number): string {
  const rounded = Math.round(n * 10) / 10 + 0;
  return `${rounded} point${rounded === 1 ? '' : 's'}`;
}

/** The Assaf risk as a percentage of the calls that would be Assaf'ed. */
export function riskInWords(risk: number): string {
  return `${Math.round(risk * 100)}%`;
}

/** A share as a whole percentage: "63%". */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** A 95% interval of shares: "58–68%". */
export function percentRange({ low, high }: { readonly low: number; readonly high: number }): string {
  return `${Math.round(low * 100)}–${Math.round(high * 100)}%`;
}

/** The chance to win the game as the advice panel says it, or null when there is none (winReasonInWords says why). */
export function winInWords(win: Msg<'advice'>['win']): { text: string; note: string } | null {
  if (win === null) return null;
  return {
    text: `Your chance to win this game: ${percent(win.probability)}`,
    note: `likely ${percentRange(win)}; the suggested move played out from what you can see, by players like the strong bot${
      win.equity === 'playouts' ? ', the game’s outlook measured by the server for these rules' : ''
    }`,
  };
}

/** Why the panel shows no chance to win. */
export function winReasonInWords(reason: string | null): string | null {
  return reason === null ? null : `No chance to win is shown here: ${reason}.`;
}

export type AdvisedMove = NonNullable<Msg<'advice'>['moves']>[number];

/** A played-out move's figures: "win 63% (58–68%)", "about 6.3 points this round (4.1–8.5)". */
export function outlookInWords(move: AdvisedMove): { win: string | null; points: string } {
  const round = (n: number) => Math.round(n * 10) / 10 + 0;
  return {
    win: move.win === null ? null : `win ${percent(move.win.mean)} (${percentRange(move.win)})`,
    points: `about ${points(move.points.mean)} this round (${round(move.points.low)}–${round(move.points.high)})`,
  };
}
