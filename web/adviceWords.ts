/**
 * The advisor's numbers in a player's words. What the numbers mean is in serve/PROTOCOL.md
 * ("Advisor mode"): each move's chance to win and points this round come from the moves played
 * out, which also judge the suggestion; the agent's own ranking is only its order (a trained
 * model's: how likely it is to play each move), never a second points figure.
 */
import type { Msg } from '../client/protocol.js';

export type ScoreKind = Msg<'advice'>['scores'];

/** What the agent's own ranking shows, for its caption. */
export const SCORE_CAPTIONS: Record<ScoreKind, string> = {
  score: 'The bot’s own order of the moves, by its quick planning (before playing them out)',
  probability: 'The bot’s own order of the moves, with how likely the trained bot is to play each',
  none: 'This bot gives only its pick',
};

/** One ranked move's number: "62%" for a trained model's policy; nothing for an agent's own scores (the moves' points are the played-out ones). */
export function scoreInWords(score: number, kind: ScoreKind): string {
  return kind === 'probability' ? `${Math.round(score * 100)}%` : '';
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

/** Whether the moves' figures are the table model's own evaluation (`worlds` 0: its q head) rather than moves played out. */
function judgedByModel(worlds: number | undefined): boolean {
  return worlds === 0;
}

/** The chance to win the game as the advice panel says it, or null when there is none (winReasonInWords says why). */
export function winInWords(win: Msg<'advice'>['win'], worlds?: number): { text: string; note: string } | null {
  if (win === null) return null;
  const how = judgedByModel(worlds)
    ? 'the trained model’s own judgement of the suggested move, from what you can see'
    : 'the suggested move played out from what you can see, by players like the strong bot';
  return {
    text: `Your chance to win this game: ${percent(win.probability)}`,
    note: `likely ${percentRange(win)}; ${how}${win.equity === 'playouts' ? ', the game’s outlook measured by the server for these rules' : ''}`,
  };
}

/** Why the panel shows no chance to win. */
export function winReasonInWords(reason: string | null): string | null {
  return reason === null ? null : `No chance to win is shown here: ${reason}.`;
}

export type AdvisedMove = NonNullable<Msg<'advice'>['moves']>[number];

/** The tag of a move by how the moves played out judge it (none for a worse one). */
export const STANDING_TAGS: Record<AdvisedMove['standing'], string | null> = {
  suggested: 'suggested',
  same: 'about the same',
  worse: null,
};

/**
 * Who suggests the move; when the moves played out overrule the bot's own choice, the words
 * around what it alone would pick (`before` the move, `after` it).
 */
export function suggestionInWords(advice: Pick<Msg<'advice'>, 'agent' | 'pick' | 'agentPick' | 'moves' | 'worlds'>): {
  lead: string;
  overruled: { before: string; after: string } | null;
} {
  if (advice.pick.action === advice.agentPick.action) return { lead: `${advice.agent} suggests `, overruled: null };
  // Its own pick is worse than the suggestion beyond the noise, or (rarely: another move beat it, and the suggestion beat that one) about the same.
  const standing = advice.moves?.find((m) => m.action === advice.agentPick.action)?.standing;
  if (judgedByModel(advice.worlds))
    return {
      lead: 'Judged by the trained model from what you can see, the advisor suggests ',
      overruled: {
        before: `${advice.agent} on its own would pick `,
        after: standing === 'worse' ? ', which the model judges worse.' : ', which the model judges below another move.',
      },
    };
  return {
    lead: 'Played out from what you can see, the advisor suggests ',
    overruled: {
      before: `${advice.agent} on its own would pick `,
      after: standing === 'worse' ? ', which played out worse.' : ', which another move beat when played out.',
    },
  };
}

/** A played-out move's figures: "win 63% (58–68%)", "about 6.3 points this round (4.1–8.5)". */
export function outlookInWords(move: AdvisedMove): { win: string | null; points: string } {
  const round = (n: number) => Math.round(n * 10) / 10 + 0;
  return {
    win: move.win === null ? null : `win ${percent(move.win.mean)} (${percentRange(move.win)})`,
    points: `about ${points(move.points.mean)} this round (${round(move.points.low)}–${round(move.points.high)})`,
  };
}
