/**
 * The held-out panel: opponents never used in training (the trainer refuses them as opponents),
 * of builds unlike `strong` — a rule bot of another style (`hoarder`) and a Monte-Carlo search
 * over its own worlds with its own playouts (`montecarlo`). A model is judged against each member
 * beside a reference (`strong`) against the same member on the same deals: one seat against the
 * rest of the table all played by the member. Beating the heuristic you trained against is not
 * the same as playing well; this is how the difference shows.
 */
import type { PanelResult } from '../models/modelCard.js';
import { ruleChoiceOf } from '../agentSpec.js';
import { type RunOptions, type TournamentConfig, playGames } from './run.js';
import { schedule } from './schedule.js';
import { type AgentSummary, type Interval, type PlayedGame, meanInterval, summarize } from './stats.js';

export const PANEL = ['hoarder', 'montecarlo'] as const;

/** Whether an agent spec names a panel member (whatever its parameters): such a spec never trains. */
export function isPanelAgent(spec: string): boolean {
  const base = spec.split(/[:?]/)[0];
  return (PANEL as readonly string[]).includes(base);
}

export interface PanelRow {
  opponent: string;
  subject: AgentSummary;
  reference: AgentSummary;
  /** Subject's win rate less the reference's, paired game by game over the same deals and seats, with its 95% interval. */
  difference: { mean: number } & Interval;
}

/** One seat of `subject` (then of `reference`) against the rest of the table played by each panel member, on the same deals. */
export async function runPanel(
  config: TournamentConfig,
  subject: string,
  reference: string,
  options: RunOptions = {},
  panel: readonly string[] = PANEL,
): Promise<PanelRow[]> {
  const rows: PanelRow[] = [];
  for (const opponent of panel) {
    const play = async (agent: string) => {
      const lineup = [agent, ...new Array<string>(config.players - 1).fill(opponent)];
      const table = { ...config, agents: [agent, opponent], lineup };
      const played = await playGames(table, schedule(table.agents, table.players, table.games, lineup), options);
      return { played, summary: summarize(table.agents, played) };
    };
    const a = await play(subject);
    const b = await play(reference);
    rows.push({
      opponent,
      subject: a.summary.agents[0],
      reference: b.summary.agents[0],
      difference: pairedDifference(a.played, b.played, subject, reference),
    });
  }
  return rows;
}

/** The mean of (subject won − reference won) over games played on the same deal and seat, with a normal 95% interval. */
export function pairedDifference(
  a: readonly PlayedGame[],
  b: readonly PlayedGame[],
  subject: string,
  reference: string,
): { mean: number } & Interval {
  let sum = 0;
  let squares = 0;
  let n = 0;
  a.forEach((game, i) => {
    const other = b[i];
    if (game.result.truncated || other.result.truncated) return;
    const d = Number(wonBy(game, subject)) - Number(wonBy(other, reference));
    sum += d;
    squares += d * d;
    n++;
  });
  if (n === 0) return { mean: 0, low: -1, high: 1 };
  return { mean: sum / n, ...meanInterval(sum, squares, n) };
}

function wonBy(game: PlayedGame, agent: string): boolean {
  return game.seats.some((name, seat) => name === agent && game.result.seats[seat].won);
}

/** The rows of one panel run as a model card keeps them (agents/models/modelCard.ts `recordPanelResults`). */
export function panelResults(
  rows: readonly PanelRow[],
  config: Pick<TournamentConfig, 'players' | 'seed' | 'preset' | 'rules'>,
  command: string,
  measured: string,
): PanelResult[] {
  const side = (a: AgentSummary) => ({
    agent: a.agent,
    games: a.games - a.unfinished,
    wins: a.wins,
    winRate: a.winRate,
    low: a.winRate95.low,
    high: a.winRate95.high,
    meanPlace: a.meanPlace,
  });
  return rows.map((row) => ({
    players: config.players,
    rules: ruleChoiceOf(config),
    opponent: row.opponent,
    seed: config.seed,
    model: side(row.subject),
    reference: side(row.reference),
    difference: { mean: row.difference.mean, low: row.difference.low, high: row.difference.high },
    command,
    measured,
  }));
}
