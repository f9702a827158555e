/**
 * The advice in a player's terms (agents/equity/moveOutlook.ts): the moves worth weighing played out
 * from the seat's view, each with its chance to win the game and the points it costs this
 * round, judged by those figures (the suggestion first: the bot's pick unless another move plays
 * out better beyond the noise), and the seat's chance to win — the suggestion played out, with
 * the game equity of the table when the round began beside it. The game equity is the shipped
 * one where it fits, else computed on the fly (agents/equity/equityPlayouts.ts); where none can
 * be, the reason in words.
 */
import { equityForTable } from '../../agents/equity/equityPlayouts.js';
import {
  type MoveOutlook,
  OUTLOOK_DEFAULTS,
  type OutlookBudget,
  STANDINGS,
  moveOutlooks,
  outlookCandidates,
} from '../../agents/equity/moveOutlook.js';
import type { PlayerView } from '../../env/rules/view.js';
import { type TableHead, headOutlooks } from '../../agents/equity/headOutlook.js';
import { roundStartEquity } from '../../agents/equity/qHead.js';

export interface WinChance {
  /** P(the seat wins the game), 0..1: the suggested move played out. */
  readonly probability: number;
  /** Its 95% interval from the worlds played out. */
  readonly low: number;
  readonly high: number;
  /** The game equity at the round's start alone (before this round's cards count). */
  readonly roundStart: number;
  /** Where the game equity comes from: data shipped for these rules and size, or measured by playouts on the server. */
  readonly equity: 'shipped' | 'playouts';
}

/** The model's own evaluation of the table's moves and the seat's observation it reads (serve/inference/decide.ts). */
export interface Evaluation {
  readonly table: TableHead;
  readonly observation: Float32Array;
}

export interface Outlook {
  /** Per move played out, the suggestion first, then the moves judged the same, then those judged worse (each in the candidates' order). */
  readonly moves: readonly MoveOutlook[];
  readonly win: WinChance | null;
  /** Why there is no chance to win, in words (null when there is one). */
  readonly winReason: string | null;
  /** The worlds each move was played out in; 0: the figures are the model's own evaluation. */
  readonly worlds: number;
}

/**
 * Judges the pick and the moves worth weighing: by the model's own evaluation where the table's
 * model has one (`evaluation`, and a game equity), else played out; the same seed, the same answer.
 */
export function outlookOf(
  view: PlayerView,
  legal: readonly number[],
  pick: number,
  ranked: readonly number[],
  seed: number,
  budget: OutlookBudget = OUTLOOK_DEFAULTS,
  /** When set, the reason an equity not yet known is not measured for this request (serve/ruleSetBudget.ts). */
  unmeasured?: string,
  evaluation?: Evaluation,
): Outlook {
  const table = equityForTable(view.rules, view.players, unmeasured);
  const candidates = outlookCandidates(view, legal, pick, ranked);
  const roundStart = table.equity ? roundStartEquity(view, table.equity) : null;
  const byHead = evaluation && roundStart !== null;
  const judged = byHead
    ? headOutlooks(evaluation.table, view, evaluation.observation, candidates, roundStart, table.calibration)
    : moveOutlooks(view, candidates, table.equity, seed, budget, table.calibration);
  const worlds = byHead ? 0 : budget.worlds;
  const moves = STANDINGS.flatMap((standing) => judged.filter((m) => m.standing === standing));
  const played = moves[0].win;
  if (!table.equity || roundStart === null || !played)
    return { moves, win: null, winReason: table.reason ?? 'no game equity for this table', worlds };
  return {
    moves,
    win: { probability: played.mean, low: played.low, high: played.high, roundStart, equity: table.source },
    winReason: null,
    worlds,
  };
}
