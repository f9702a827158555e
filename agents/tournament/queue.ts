/**
 * A tournament's games on a Redis job queue (BullMQ): `yaniv bench --redis URL` cuts the schedule
 * into jobs of whole duplicate-deal groups (benchJob.ts) and gathers their results; `yaniv worker
 * --redis URL` on any machine plays them in sandboxed child processes. A job whose worker dies
 * stops renewing its lock and is moved back to the queue by another worker's stalled-job check,
 * then played again there; the deals and the agents' seeds depend on the game's place in the
 * schedule only, so the results are the same wherever and however often a job was played.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Job, Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectRedis } from '../../support/redis.js';
import { redactUrl } from '../../support/secret.js';
import { settledWithin } from '../../support/stopping.js';
import { BuildMismatchError, QUEUE_NAME, benchAliveKey, buildId, makeJob, parseJobResult, splitIntoJobs } from './benchJob.js';
import type { GameDispatcher } from './dispatch.js';
import type { ScheduledGame } from './schedule.js';

/** A job failed for good (a bug, a bad agent spec on the workers, or retries used up): the bench stops, naming it. */
export class RemoteJobError extends Error {
  override name = 'RemoteJobError';
}

/** How long a bench's `alive` key lives without a heartbeat. */
const ALIVE_MS = 15_000;
/** Tries a job gets (a worker's error, or a worker of another build); stalls are counted apart (maxStalledCount). */
const ATTEMPTS = 5;
/** Jobs a bench aims for: enough for many workers to share, few enough that each is worth its round trip. */
const TARGET_JOBS = 64;
/** Fewest games a job holds (whole deal groups may make it more). */
const MIN_JOB_GAMES = 4;

export interface BenchStatus {
  /** Games played so far (finished jobs, and what running jobs reported). */
  played: number;
  total: number;
  /** Worker processes connected to the queue (null: this Redis user may not list clients). */
  workers: number | null;
}

export interface QueueDispatcherOptions {
  url: string;
  log(message: string): void;
  onStatus?(status: BenchStatus): void;
  /** Games per job (default: the schedule in about 64 jobs). */
  jobGames?: number;
}

export interface QueueDispatcher extends GameDispatcher {
  /** The Redis URL, its password hidden. */
  readonly where: string;
  close(): Promise<void>;
}

/** Connects (an unreachable Redis or a wrong password is a TransportSetupError now, not at the first game). */
export async function queueDispatcher(options: QueueDispatcherOptions): Promise<QueueDispatcher> {
  const main = await connectRedis(options.url, 'yaniv-bench');
  const events = await connectRedis(options.url, 'yaniv-bench-events');
  const queue = new Queue(QUEUE_NAME, { connection: main });
  const queueEvents = new QueueEvents(QUEUE_NAME, { connection: events });
  queue.on('error', (error) => options.log(`queue: ${error.message}`));
  queueEvents.on('error', (error) => options.log(`queue events: ${error.message}`));
  return {
    where: redactUrl(options.url),
    async play(config, games, report) {
      const bench = randomBytes(4).toString('hex');
      const parts = splitIntoJobs(games, options.jobGames ?? Math.max(MIN_JOB_GAMES, Math.ceil(games.length / TARGET_JOBS)));
      const played = new Map<string, number>();
      const progress = new Map<string, number>();
      const pending = new Map(parts.map((part, n) => [`${bench}-${n}`, part]));
      // Listening before the jobs exist: no event of theirs is missed.
      const finished = gather(queueEvents, pending, {
        completed(id, part, value) {
          const results = parseJobResult(value, { games: part });
          for (const { index, result } of results) report(index, result);
          played.set(id, results.length);
          progress.delete(id);
          void queue.remove(id).catch(() => 0);
        },
        progress: (id, data) => progress.set(id, data),
        stalled(id) {
          progress.delete(id);
          options.log(`job ${id} stalled (its worker stopped answering): back on the queue for another worker`);
        },
      });
      // A job failing while the jobs are still being added is handled by the await below.
      finished.done.catch(() => undefined);
      await queueEvents.waitUntilReady();
      const alive = keepAlive(main, bench);
      const status = watchStatus(queue, games.length, () => sum(played) + sum(progress), options);
      try {
        await queue.addBulk(
          [...pending].map(([jobId, part]) => ({
            name: 'games',
            data: makeJob(bench, config, part),
            opts: { jobId, attempts: ATTEMPTS, removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } },
          })),
        );
        options.log(`bench ${bench}: ${games.length} games in ${pending.size} jobs on ${redactUrl(options.url)} (build ${buildId()})`);
        await finished.done;
      } catch (error) {
        await Promise.all([...pending.keys()].map((id) => queue.remove(id).catch(() => 0)));
        throw error;
      } finally {
        finished.stop();
        status.stop();
        await alive.stop();
      }
    },
    async close() {
      await queueEvents.close().catch(() => undefined);
      await queue.close().catch(() => undefined);
      main.disconnect();
      events.disconnect();
    },
  };
}

/** The bench's key, while it runs: a worker of another build that sees it knows it is the one out of date. */
function keepAlive(redis: Redis, bench: string): { stop(): Promise<void> } {
  const beat = () => redis.set(benchAliveKey(bench), 'running', 'PX', ALIVE_MS).catch(() => undefined);
  void beat();
  const timer = setInterval(() => void beat(), ALIVE_MS / 3);
  return {
    async stop() {
      clearInterval(timer);
      await redis.del(benchAliveKey(bench)).catch(() => undefined);
    },
  };
}

const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);

interface JobEvents {
  completed(id: string, part: ScheduledGame[], value: unknown): void;
  progress(id: string, played: number): void;
  stalled(id: string): void;
}

/** Follows the queue's events for the `pending` jobs (taking each out as it completes) until none is left or one fails. */
function gather(queueEvents: QueueEvents, pending: Map<string, ScheduledGame[]>, on: JobEvents): { done: Promise<void>; stop(): void } {
  let stop: () => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    const completed = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) => {
      const part = pending.get(jobId);
      if (part === undefined) return;
      pending.delete(jobId);
      try {
        on.completed(jobId, part, returnvalue);
      } catch (error) {
        reject(new RemoteJobError(`job ${jobId}: ${(error as Error).message}`));
      }
      if (pending.size === 0) resolve();
    };
    const failed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) => {
      if (pending.has(jobId)) reject(new RemoteJobError(`job ${jobId} failed: ${failedReason}`));
    };
    const progress = ({ jobId, data }: { jobId: string; data: unknown }) => {
      if (pending.has(jobId) && typeof data === 'number') on.progress(jobId, data);
    };
    const stalled = ({ jobId }: { jobId: string }) => {
      if (pending.has(jobId)) on.stalled(jobId);
    };
    queueEvents.on('completed', completed).on('failed', failed).on('progress', progress).on('stalled', stalled);
    stop = () => {
      queueEvents.off('completed', completed).off('failed', failed).off('progress', progress).off('stalled', stalled);
    };
  });
  return { done, stop: () => stop() };
}

/** The status every second, and a line while no worker is connected. */
function watchStatus(queue: Queue, total: number, played: () => number, options: QueueDispatcherOptions): { stop(): void } {
  // The first line after a few seconds: workers started with the bench need a moment to connect.
  let lastWait = Date.now() - 7_000;
  const tick = async () => {
    const workers = await queue.getWorkersCount().catch(() => null);
    options.onStatus?.({ played: played(), total, workers });
    if (workers === 0 && Date.now() - lastWait > 10_000) {
      lastWait = Date.now();
      options.log('waiting for workers: none connected (start one with: yaniv worker --redis URL)');
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), 1000);
  return { stop: () => clearInterval(timer) };
}

// ---- The worker ----

const benchRunning = async (redis: Redis, job: Job) => {
  const bench: unknown = (job.data as { bench?: unknown } | null)?.bench;
  return typeof bench === 'string' && (await redis.exists(benchAliveKey(bench)).catch(() => 1)) === 1;
};

export interface BenchWorkerOptions {
  url: string;
  /** Jobs played at once, each in its own child process. */
  concurrency: number;
  /** How long a job stays with a worker that stopped renewing its lock (died) before another takes it over. */
  lockMs: number;
  log(message: string): void;
  /** True once the worker should stop: the jobs being played are handed back to the queue at once. */
  stopRequested(): boolean;
  /** Aborted on a stop request (the same as stopRequested turning true, without waiting for a poll). */
  stopSignal?: AbortSignal;
  /** The sandboxed processor (dist/agents/tournament/jobProcessor.js). */
  processorUrl?: URL;
}

export interface BenchWorkerResult {
  jobs: number;
  games: number;
  /** Why it stopped early: a job of another build came (exit 2), else null. */
  refused: string | null;
}

/** Plays the queue's jobs until `stop` resolves, or until a job of another build shows this worker is out of date. */
export async function runBenchWorker(options: BenchWorkerOptions): Promise<BenchWorkerResult> {
  const connection: Redis = await connectRedis(options.url, 'yaniv-worker');
  const name = `${os.hostname()}:${process.pid}`;
  const worker = new Worker(QUEUE_NAME, options.processorUrl ?? new URL('./jobProcessor.js', import.meta.url), {
    connection,
    name,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    stalledInterval: Math.max(500, Math.round(options.lockMs / 2)),
    maxStalledCount: 3,
    removeOnComplete: { age: 3600 },
    autorun: false,
  });
  const result: BenchWorkerResult = { jobs: 0, games: 0, refused: null };
  let refusedNow: () => void = () => undefined;
  const refused = new Promise<void>((resolve) => (refusedNow = resolve));
  worker.on('error', (error) => options.log(`worker: ${error.message}`));
  worker.on('completed', (job: Job) => {
    result.jobs++;
    result.games += Array.isArray(job.returnvalue) ? job.returnvalue.length : 0;
  });
  worker.on('failed', (job: Job | undefined, error: Error) => {
    if (job === undefined || error.name !== new BuildMismatchError('').name) {
      options.log(`job ${job?.id ?? '?'} failed: ${error.message}`);
      return;
    }
    // Another build's job: this worker is out of date if its bench is running, else the job is a leftover.
    void benchRunning(connection, job).then(async (alive) => {
      if (alive) {
        result.refused = `job ${job.id}: ${error.message}`;
        refusedNow();
        return;
      }
      await job.remove().catch(() => undefined);
      options.log(`dropped job ${job.id}: ${error.message}, and its bench is gone`);
    });
  });
  const active = followActiveJobs(worker);
  options.log(`worker ${name} (build ${buildId()}): ${options.concurrency} job(s) at once from ${redactUrl(options.url)}`);
  const running = worker.run();
  let poll: NodeJS.Timeout | undefined;
  const stopped = new Promise<void>((resolve) => {
    options.stopSignal?.addEventListener('abort', () => resolve(), { once: true });
    poll = setInterval(() => {
      if (options.stopRequested()) resolve();
    }, 200);
  });
  await Promise.race([stopped, refused]);
  clearInterval(poll);
  if (result.refused === null) {
    // Stopping: the jobs being played go back to the queue now (not after their locks expire), their games abandoned.
    worker.removeAllListeners('failed').removeAllListeners('error');
    worker.on('error', () => undefined);
    await handBack([...active.values()], connection, options);
    worker.cancelAllJobs('the worker is stopping');
    await settledWithin(worker.close(true), CLOSE_MS);
  } else {
    await worker.close();
  }
  await settledWithin(running, CLOSE_MS);
  connection.disconnect();
  return result;
}

/** How long stopping waits on Redis (handing a job back, closing) before it lets go. */
const CLOSE_MS = 2000;

/** The jobs this worker is playing now, by id (each with the lock token it holds). */
function followActiveJobs(worker: Worker): Map<string, Job> {
  const active = new Map<string, Job>();
  worker.on('active', (job: Job) => active.set(job.id ?? '', job));
  const settled = (job: Job | undefined) => active.delete(job?.id ?? '');
  worker.on('completed', settled).on('failed', settled);
  return active;
}

/** Moves each job back to the queue's waiting list (another worker plays it next); says which it could not hand back. */
async function handBack(jobs: Job[], connection: Redis, options: Pick<BenchWorkerOptions, 'lockMs' | 'log'>): Promise<void> {
  const couldNot = (job: Job) =>
    options.log(
      `could not hand job ${job.id} back (Redis unreachable or the job gone): it returns to the queue when its lock expires, ${options.lockMs / 1000} s after this worker stops`,
    );
  await Promise.all(
    jobs.map(async (job) => {
      // A Redis that is gone would hold the command until it is back: say so at once.
      if (connection.status !== 'ready') return couldNot(job);
      const moved = job.moveToWait(job.token).then(
        () => true,
        () => false,
      );
      if ((await settledWithin(moved, CLOSE_MS)) && (await moved)) options.log(`job ${job.id} handed back to the queue`);
      else couldNot(job);
    }),
  );
}
