// tournament section of `npm run bench`: `yaniv bench` through Redis (BullMQ, W `yaniv worker`
// processes of one job at a time) against the local bench on W worker threads, same games, side by
// side, as ratios of games per second.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import Table from 'cli-table3';
import { QUEUE_NAME } from '../agents/tournament/benchJob.js';
import { queueDispatcher } from '../agents/tournament/queue.js';
import { type RunOptions, type TournamentConfig, runTournament } from '../agents/tournament/run.js';
import { RedisServer } from '../scripts/redisServer.js';

const GAMES = Number(process.env.BENCH_TOURNAMENT_GAMES ?? 160);

const config = (workers: number): TournamentConfig => ({
  agents: ['strong', 'intermediate'],
  games: GAMES,
  players: 2,
  seed: 1,
  episode: 'game',
  workers,
  preset: 'standard',
  rules: {},
});

async function gamesPerSecond(workers: number, options: RunOptions = {}): Promise<number> {
  const started = performance.now();
  const summary = await runTournament(config(workers), options);
  return summary.games / ((performance.now() - started) / 1000);
}

/** W worker processes on a fresh redis-server, connected before the clock starts; games/s through them. */
async function throughRedis(workers: number): Promise<number> {
  const server = await RedisServer.start();
  const main = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  const children: ChildProcess[] = [];
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE_NAME, { connection: redis });
  try {
    for (let w = 0; w < workers; w++)
      children.push(spawn(process.execPath, [main, 'worker', '--redis', server.url, '--concurrency', '1'], { stdio: 'ignore' }));
    while ((await queue.getWorkersCount()) < workers) await new Promise((resolve) => setTimeout(resolve, 100));
    const dispatcher = await queueDispatcher({ url: server.url, log: () => undefined });
    try {
      return await gamesPerSecond(workers, { dispatcher });
    } finally {
      await dispatcher.close();
    }
  } finally {
    children.forEach((child) => child.kill('SIGKILL'));
    await queue.close();
    redis.disconnect();
    server.dispose();
  }
}

export async function run(): Promise<void> {
  const table = new Table({ head: ['tournament', 'figure', 'notes'] });
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    table.push(['yaniv bench through Redis', 'no redis-server', '']);
    console.log(table.toString());
    return;
  }
  for (const workers of [1, 2]) {
    const threads = await gamesPerSecond(workers);
    const redis = await throughRedis(workers);
    table.push([
      `yaniv bench through Redis, ${workers} worker process(es) ÷ ${workers} worker thread(s)`,
      (redis / threads).toFixed(2),
      `${redis.toFixed(1)} vs ${threads.toFixed(1)} games/s, ${GAMES} games strong vs intermediate`,
    ]);
  }
  console.log(table.toString());
}
