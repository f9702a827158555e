// `yaniv bench --redis URL` and `yaniv worker --redis URL` as real processes with a real redis-server:
// clear errors (unreachable, wrong password); a job of a foreign shape refused and the worker going
// on; a worker of another build stepping aside (exit 2) and its job played by another; a bench
// through two workers, one of them killed with SIGKILL mid-job, whose results equal the local
// bench's byte for byte.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../agents/tournament/benchJob.js';
import { RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import { until } from '../serve/helpers.js';
import { killAll, requireBuild, start, yaniv } from './processes.js';

const available = redisAvailable();
let server: RedisServer;
let redis: Redis;
let queue: Queue;

const waitUntil = (what: string, check: () => boolean | Promise<boolean>) => until(check, what, 30_000);

const worker = () => start('worker', '--redis', server.url, '--concurrency', '1', '--lock-seconds', '2');
/** Fast agents, a few games a job: each job lasts long enough to be killed in. */
const BENCH = ['bench', '--agents', 'intermediate,novice', '--games', '40', '--seed', '7', '--no-progress', '--json', '-'];

describe.skipIf(!available)('yaniv bench through Redis', () => {
  beforeAll(async () => {
    requireBuild();
    server = await RedisServer.start('s3cret');
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE_NAME, { connection: redis });
  });
  afterAll(async () => {
    killAll();
    await queue?.close();
    redis?.disconnect();
    server?.dispose();
  });

  it('names an unreachable Redis and a wrong password, exit 2', async () => {
    const wrong = server.url.replace('s3cret', 'nope');
    const cases: [string[], RegExp][] = [
      [['worker', '--redis', 'redis://127.0.0.1:1'], /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/],
      [['worker', '--redis', wrong], /refused the credentials: WRONGPASS/],
      [['worker'], /--redis: a Redis URL is required \(or YANIV_REDIS\)/],
      [['worker', '--redis', 'localhost:6379'], /--redis: must be a redis:\/\/ or rediss:\/\/ URL/],
      [[...BENCH, '--redis', wrong], /refused the credentials: WRONGPASS/],
    ];
    // At once: each is a process start.
    const children = cases.map(([args]) => start(...args));
    for (const [n, [args, message]] of cases.entries()) {
      expect(await children[n].exited, args.join(' ')).toBe(2);
      expect(children[n].stderr(), args.join(' ')).toMatch(message);
      expect(children[n].stderr()).not.toContain('s3cret');
    }
  }, 30_000);

  it('a foreign job is refused and the worker goes on; a worker of another build drops leftovers, steps aside for a running bench (exit 2)', async () => {
    const foreign = await queue.add('games', { hello: 'world' }, { jobId: 'foreign-1' });
    const stale = (bench: string) => ({ format: 'yaniv-bench-job/1', build: '0.0.1+000000000000', bench, config: {}, games: [] });
    const one = worker();
    await waitUntil('the foreign job to fail', async () => (await queue.getJobState(foreign.id as string)) === 'failed');
    expect((await queue.getJob(foreign.id as string))?.failedReason).toMatch(/not a yaniv-bench-job\/1 job: format/);
    // Redis marks the job failed before the worker logs it: wait for the line, never read at once.
    const foreignLine = /job foreign-1 failed: not a yaniv-bench-job\/1 job/;
    await waitUntil('the worker logging the foreign job failed', () => foreignLine.test(one.stderr()));
    // A leftover of a bench of another build that is gone: dropped.
    await queue.add('games', stale('gone'), { jobId: 'stale-0', attempts: 5 });
    await waitUntil('the leftover to go', async () => (await queue.getJob('stale-0')) === undefined);
    const droppedLine = /dropped job stale-0: the job comes from build 0\.0\.1\+0{12}; this worker is build \S+, and its bench is gone/;
    await waitUntil('the worker logging the leftover dropped', () => droppedLine.test(one.stderr()));
    // A job of a running bench of another build: this worker is the one out of date.
    await redis.set('yaniv:bench:old:alive', 'running');
    await queue.add('games', stale('old'), { jobId: 'stale-1', attempts: 5 });
    expect(await one.exited, one.stderr()).toBe(2);
    expect(one.stderr()).toMatch(
      /a job of another build came \(job stale-1: the job comes from build 0\.0\.1\+0{12}; this worker is build \S+\)/,
    );
    // The job went back to the queue for a worker of its own build.
    expect(await queue.getJobState('stale-1')).toBe('waiting');
  }, 30_000);

  it('through two workers, one killed with SIGKILL mid-job: the local bench’s results, byte for byte', async () => {
    await queue.obliterate({ force: true });
    const local = yaniv(...BENCH, '--workers', '1');
    expect(local.code, local.stderr).toBe(0);
    const doomed = worker();
    const survivor = worker();
    const bench = start(...BENCH, '--redis', server.url, '--job-games', '8');
    const doomedName = (active: { processedBy?: string }[]) => active.some((job) => job.processedBy?.endsWith(`:${doomed.process.pid}`));
    await waitUntil('a job being played by the doomed worker', async () => doomedName(await queue.getActive()));
    doomed.process.kill('SIGKILL');
    expect(await bench.exited, bench.stderr()).toBe(0);
    expect(bench.stderr()).toMatch(/job \w+-\d+ stalled \(its worker stopped answering\): back on the queue/);
    const remote = JSON.parse(bench.stdout());
    const reference = JSON.parse(local.stdout);
    expect(JSON.stringify(remote.results)).toBe(JSON.stringify(reference.results));
    expect(JSON.stringify(remote.config)).toBe(JSON.stringify(reference.config));
    expect(remote.run.redis).toBe(server.url.replace('s3cret', '***'));
    // The bench leaves none of its jobs behind.
    expect(await queue.getJobCounts('wait', 'active', 'completed', 'failed')).toEqual({ wait: 0, active: 0, completed: 0, failed: 0 });
    survivor.process.kill('SIGTERM');
    expect(await survivor.exited, survivor.stderr()).toBe(0);
    expect(survivor.stderr()).toMatch(/stopped: \d+ jobs, \d+ games played/);
  }, 60_000);
});
