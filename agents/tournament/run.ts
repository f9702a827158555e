/**
 * Runs a tournament across worker threads. Each game's seeds depend only on the tournament
 * seed and the game's place in the schedule, and results are gathered in schedule order, so
 * the same seed gives the same result whatever the number of workers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type RuleChoice, resolveRules } from '../../env/index.js';
import type { Agent } from '../../env/gym/agent.js';
import { createAgent } from '../registry.js';
import type { EpisodeMode } from '../../env/gym/episode.js';
import { type MatchResult, playMatch } from './match.js';
import { type ScheduledGame, schedule } from './schedule.js';
import { mixSeed } from './seeds.js';
import { type PlayedGame, type TournamentSummary, summarize } from './stats.js';

/** The rules: a preset and overrides (`RuleChoice`), the same as every command's rule flags. */
export interface TournamentConfig extends RuleChoice {
  agents: string[];
  games: number;
  players: number;
  seed: number;
  episode: EpisodeMode;
  workers: number;
  /** Turns after which a game stops unfinished (default: playMatch's). */
  maxTurns?: number;
  saveRecords?: string;
  /** One table named seat by seat (its agents among `agents`, `players` long), instead of every lineup of `agents`. */
  lineup?: string[];
}

/** What a worker needs to play its share. */
export interface WorkerTask {
  config: TournamentConfig;
  games: ScheduledGame[];
}

export type WorkerMessage = { index: number; result: MatchResult } | { error: string };

const DEAL = 1;
const AGENT = 2;

/** Plays scheduled games one after the other in this thread, reporting each. */
export async function playScheduled(
  config: TournamentConfig,
  games: readonly ScheduledGame[],
  report: (index: number, result: MatchResult) => void,
): Promise<void> {
  const rules = resolveRules({ preset: config.preset, rules: config.rules, players: config.players });
  const pool = new Map<string, Agent[]>();
  const agentsFor = async (seats: readonly string[]): Promise<Agent[]> => {
    const agents: Agent[] = [];
    for (const [seat, name] of seats.entries()) {
      let list = pool.get(name);
      if (!list) pool.set(name, (list = []));
      const copy = seats.slice(0, seat).filter((n) => n === name).length;
      while (list.length <= copy) list.push(await createAgent(name));
      agents.push(list[copy]);
    }
    return agents;
  };
  for (const game of games) {
    const record = config.saveRecords !== undefined;
    const result = playMatch({
      rules,
      preset: config.preset,
      overrides: config.rules,
      agents: await agentsFor(game.seats),
      episode: config.episode,
      record,
      dealSeed: mixSeed(config.seed, DEAL, game.deal),
      agentSeed: mixSeed(config.seed, AGENT, game.index),
      maxTurns: config.maxTurns,
    });
    if (config.saveRecords !== undefined && result.record) {
      writeFileSync(join(config.saveRecords, `game-${String(game.index).padStart(6, '0')}.json`), JSON.stringify(result.record) + '\n');
      delete result.record;
    }
    report(game.index, result);
  }
}

export interface RunOptions {
  /** Called after each finished game with the count so far. */
  onProgress?: (done: number, total: number) => void;
  /** The compiled worker script (dist/agents/tournament/worker.js). */
  workerUrl?: URL;
}

export async function runTournament(config: TournamentConfig, options: RunOptions = {}): Promise<TournamentSummary> {
  if (config.lineup && (config.lineup.length !== config.players || config.lineup.some((name) => !config.agents.includes(name)))) {
    throw new Error(`the lineup ${config.lineup.join(',')} must name ${config.players} seats from the agents ${config.agents.join(',')}`);
  }
  const scheduled = schedule(config.agents, config.players, config.games, config.lineup);
  if (config.saveRecords !== undefined) mkdirSync(config.saveRecords, { recursive: true });
  const results = new Array<MatchResult>(scheduled.length);
  let done = 0;
  const collect = (index: number, result: MatchResult) => {
    results[index] = result;
    options.onProgress?.(++done, scheduled.length);
  };
  const workers = Math.max(1, Math.min(config.workers, scheduled.length));
  if (workers === 1) {
    await playScheduled(config, scheduled, collect);
  } else {
    const workerUrl = options.workerUrl ?? new URL('./worker.js', import.meta.url);
    const shares = Array.from({ length: workers }, (_, w) => scheduled.filter((_, i) => i % workers === w));
    await Promise.all(shares.map((games) => runWorker(workerUrl, { config, games }, collect)));
  }
  const played: PlayedGame[] = scheduled.map((game) => ({ seats: game.seats, result: results[game.index] }));
  return summarize(config.agents, played);
}

function runWorker(url: URL, task: WorkerTask, collect: (index: number, result: MatchResult) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: task });
    worker.on('message', (message: WorkerMessage) => {
      if ('error' in message) reject(new Error(message.error));
      else collect(message.index, message.result);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a tournament worker stopped with code ${code}`))));
  });
}
