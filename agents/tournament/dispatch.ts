/**
 * Where a tournament's games are played, behind one small interface: a `GameDispatcher` plays
 * scheduled games and reports each result once, in any order (the results are gathered in
 * schedule order afterwards, so where a game was played never changes the summary). The default
 * plays them on worker threads of this process; queue.ts on `yaniv worker` processes of any
 * machine through a Redis job queue.
 */
import { Worker } from 'node:worker_threads';
import type { MatchResult } from './match.js';
import { playScheduled } from './play.js';
import type { TournamentConfig } from './tournamentConfig.js';
import type { ScheduledGame } from './schedule.js';

export type ReportGame = (index: number, result: MatchResult) => void;

export interface GameDispatcher {
  /** Plays every game and reports each once; rejects with an error naming the problem. */
  play(config: TournamentConfig, games: readonly ScheduledGame[], report: ReportGame): Promise<void>;
}

/** What a worker thread needs to play its share. */
export interface WorkerTask {
  config: TournamentConfig;
  games: ScheduledGame[];
}

/** A worker's result, or its error with the error's name (so that an AgentSpecError stays one across the thread). */
export type WorkerMessage = { index: number; result: MatchResult } | { error: string; name: string };

/** The games dealt round-robin over `config.workers` threads (one: this thread). `workerUrl`: the compiled worker.js. */
export function threadDispatcher(workerUrl = new URL('./worker.js', import.meta.url)): GameDispatcher {
  return {
    async play(config, games, report) {
      const workers = Math.max(1, Math.min(config.workers, games.length));
      if (workers === 1) return playScheduled(config, games, report);
      const shares = Array.from({ length: workers }, (_, w) => games.filter((_, i) => i % workers === w));
      await Promise.all(shares.map((share) => runWorker(workerUrl, { config, games: share }, report)));
    },
  };
}

function runWorker(url: URL, task: WorkerTask, report: ReportGame): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: task });
    worker.on('message', (message: WorkerMessage) => {
      if ('error' in message) reject(Object.assign(new Error(message.error), { name: message.name }));
      else report(message.index, message.result);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a tournament worker stopped with code ${code}`))));
  });
}
