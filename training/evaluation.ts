/**
 * Periodic evaluation of the learner through the tournament code (duplicate deals, seat rotation,
 * Wilson intervals): a saved snapshot of the network, greedy, against `intermediate` and `strong`
 * at each table size of the run (one neural seat against the others). It runs in its own worker
 * thread so that training does not stall.
 */
import { Worker } from 'node:worker_threads';
import type { TrainingEnv } from './config.js';
import { runTournament } from '../agents/tournament/run.js';
import { initBackend } from '../nn/backend.js';
import type { BackendChoice } from '../nn/backendChoice.js';

export const EVALUATION_OPPONENTS = ['intermediate', 'strong'] as const;

export interface EvaluationRequest {
  /** Model folder (saveNetwork layout). */
  model: string;
  matchups: { opponent: string; players: number }[];
  /** Games per match-up (rounded up to whole seat rotations). */
  games: number;
  seed: number;
  /** The run's env settings: its games are played under their rules and episode mode. */
  env: Pick<TrainingEnv, 'preset' | 'rules' | 'episode'>;
  backend: BackendChoice;
}

export interface MatchupResult {
  opponent: string;
  players: number;
  games: number;
  wins: number;
  winRate: number;
  low: number;
  high: number;
  truncated: number;
}

/** The match-ups for a run's table sizes. */
export function evaluationMatchups(players: readonly number[]): { opponent: string; players: number }[] {
  return players.flatMap((p) => EVALUATION_OPPONENTS.map((opponent) => ({ opponent, players: p })));
}

/** A short key for a match-up: "strong-2p". */
export function matchupKey(m: { opponent: string; players: number }): string {
  return `${m.opponent}-${m.players}p`;
}

/** Plays the match-ups in this thread. */
export async function evaluate(request: EvaluationRequest): Promise<MatchupResult[]> {
  await initBackend(request.backend);
  const neural = `neural:${request.model}`;
  const results: MatchupResult[] = [];
  for (const { opponent, players } of request.matchups) {
    const lineup = [neural, ...Array.from({ length: players - 1 }, () => opponent)];
    const summary = await runTournament({
      agents: [neural, opponent],
      games: request.games,
      players,
      preset: request.env.preset,
      rules: request.env.rules,
      seed: request.seed,
      episode: request.env.episode,
      workers: 1,
      lineup,
    });
    const me = summary.agents[0];
    results.push({
      opponent,
      players,
      games: me.games,
      wins: me.wins,
      winRate: me.winRate,
      low: me.winRate95.low,
      high: me.winRate95.high,
      truncated: summary.truncatedGames,
    });
  }
  return results;
}

type EvaluationReply = { results: MatchupResult[] } | { error: string };

/** One evaluation worker thread, one request at a time. */
export class EvaluationWorker {
  private worker: Worker | null = null;
  private busy = false;

  constructor(private readonly url: URL) {}

  get running(): boolean {
    return this.busy;
  }

  run(request: EvaluationRequest): Promise<MatchupResult[]> {
    if (this.busy) throw new Error('an evaluation is already running');
    this.busy = true;
    const worker = (this.worker ??= new Worker(this.url));
    return new Promise<MatchupResult[]>((resolve, reject) => {
      const done = () => {
        this.busy = false;
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const onMessage = (reply: EvaluationReply) => {
        done();
        if ('error' in reply) reject(new Error(`evaluation: ${reply.error}`));
        else resolve(reply.results);
      };
      const onError = (error: Error) => {
        done();
        this.worker = null;
        reject(error);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
  }
}
