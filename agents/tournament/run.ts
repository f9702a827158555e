/**
 * Runs a tournament. Each game's seeds depend only on the tournament seed and the game's place in
 * the schedule, and results are gathered in schedule order, so the same seed gives the same result
 * whatever the number of workers and wherever they run (dispatch.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GameDispatcher, threadDispatcher } from './dispatch.js';
import type { MatchResult } from './match.js';
import { type ScheduledGame, schedule } from './schedule.js';
import { type PlayedGame, type TournamentSummary, summarize } from './stats.js';
import type { TournamentConfig } from './tournamentConfig.js';

export type { TournamentConfig } from './tournamentConfig.js';

export interface RunOptions {
  /** Called after each finished game with the count so far. */
  onProgress?: (done: number, total: number) => void;
  /** The compiled worker script of the default dispatcher (dist/agents/tournament/worker.js). */
  workerUrl?: URL;
  /** Where the games are played (default: worker threads of this process). */
  dispatcher?: GameDispatcher;
}

export async function runTournament(config: TournamentConfig, options: RunOptions = {}): Promise<TournamentSummary> {
  if (config.lineup && (config.lineup.length !== config.players || config.lineup.some((name) => !config.agents.includes(name)))) {
    throw new Error(`the lineup ${config.lineup.join(',')} must name ${config.players} seats from the agents ${config.agents.join(',')}`);
  }
  const played = await playGames(config, schedule(config.agents, config.players, config.games, config.lineup), options);
  return summarize(config.agents, played);
}

/** Plays the scheduled games (on the dispatcher of `options`) and returns them in schedule order. */
export async function playGames(
  config: TournamentConfig,
  scheduled: readonly ScheduledGame[],
  options: RunOptions = {},
): Promise<PlayedGame[]> {
  if (config.saveRecords !== undefined) mkdirSync(config.saveRecords, { recursive: true });
  const results = new Array<MatchResult | undefined>(scheduled.length);
  let done = 0;
  const collect = (index: number, result: MatchResult) => {
    if (results[index] !== undefined) return;
    if (config.saveRecords !== undefined && result.record) {
      writeFileSync(join(config.saveRecords, `game-${String(index).padStart(6, '0')}.json`), JSON.stringify(result.record) + '\n');
      delete result.record;
    }
    results[index] = result;
    options.onProgress?.(++done, scheduled.length);
  };
  await (options.dispatcher ?? threadDispatcher(options.workerUrl)).play(config, scheduled, collect);
  const missing = results.findIndex((result) => result === undefined);
  if (missing !== -1) throw new Error(`game ${missing} of the tournament was never reported`);
  return scheduled.map((game) => ({ seats: game.seats, result: results[game.index] as MatchResult }));
}
