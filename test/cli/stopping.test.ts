// One SIGTERM stops every long-running command within seconds, whatever it is doing — the learner
// (`yaniv train --redis`) waiting for actors, an actor playing, a bench worker idle or mid-job, a
// server with a live table — with Redis up or gone: each saves what it should (the learner's
// checkpoint; a worker's job handed back to the queue) or says plainly what it could not. Real
// processes and a real redis-server; every wait is on an event (a log line, a job's state, the exit).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../agents/tournament/benchJob.js';
import { RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import { ServeProcess } from '../../scripts/serveProcess.js';
import { TestClient, until } from '../serve/helpers.js';
import { type Child, exitCode, killAll, requireBuild, start } from './processes.js';

const available = redisAvailable();
/** "Within a few seconds" of the signal, with room for a loaded machine: before this change the learner and the worker never stopped. */
const STOP_MS = 12_000;
const TINY = ['--hidden-units', '8', '--games-per-actor', '4', '--rollout-samples', '128', '--minibatch-size', '64', '--max-turns', '30'];
const QUICK = [...TINY, '--imitation-episodes', '4', '--episode', 'round', '--eval-every', '0', '--eval-games', '0', '--backend', 'wasm'];

let folder = '';
let redis: RedisServer;
let redisDown = false;

const waitFor = (what: string, check: () => boolean | Promise<boolean>) => until(check, what, 90_000);
const line = (child: Child, pattern: RegExp) => waitFor(String(pattern), () => pattern.test(child.stderr()));

/** SIGTERM once; the exit code (within STOP_MS, else the test fails showing the output). */
async function terminate(child: Child): Promise<number | null> {
  child.process.kill('SIGTERM');
  return exitCode(child, STOP_MS);
}

describe('one SIGTERM stops the learner with its actors in this process, mid-batch', () => {
  it('stops with its checkpoint, the batch being gathered dropped', async () => {
    requireBuild();
    const out = mkdtempSync(path.join(tmpdir(), 'yaniv-stopping-local-'));
    try {
      // A batch far larger than the test lets it gather (the last --rollout-samples counts): the signal comes while the actors play it.
      const learner = start(
        'train',
        '--episodes',
        '40',
        '--out',
        out,
        ...QUICK,
        '--rollout-samples',
        '1000000',
        '--workers',
        '1',
        '--no-progress',
      );
      await line(learner, /yaniv train → /);
      expect(await terminate(learner), learner.stderr()).toBe(0);
      expect(learner.stderr()).toMatch(/stopped while waiting for the next batch/);
      expect(existsSync(path.join(out, 'checkpoint', 'trainer.json'))).toBe(true);
    } finally {
      killAll();
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!available)('one SIGTERM stops each long-running command within seconds', () => {
  beforeAll(async () => {
    requireBuild();
    folder = mkdtempSync(path.join(tmpdir(), 'yaniv-stopping-'));
    redis = await RedisServer.start();
  });
  afterEach(() => {
    killAll();
    if (redisDown) redis.launch();
    redisDown = false;
  });
  afterAll(() => {
    killAll();
    redis?.dispose();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const stopRedis = () => {
    redis.stop();
    redisDown = true;
  };

  describe('the learner waiting for actors', () => {
    for (const down of [false, true]) {
      it(`Redis ${down ? 'gone' : 'up'}: stops with its checkpoint${down ? ', saying it could not mark the run finished' : ''}`, async () => {
        const out = path.join(folder, `learner-${down}`);
        const learner = start('train', '--episodes', '40', '--out', out, '--redis', redis.url, ...QUICK, '--no-progress');
        await line(learner, /join it with: yaniv actor/);
        if (down) stopRedis();
        expect(await terminate(learner), learner.stderr()).toBe(0);
        expect(learner.stderr()).toMatch(/stopped while waiting for the next batch/);
        expect(learner.stderr()).toMatch(/stopped at 0 episodes; resume with: yaniv train --resume/);
        expect(existsSync(path.join(out, 'checkpoint', 'trainer.json'))).toBe(true);
        if (down) expect(learner.stderr()).toMatch(/could not mark run \w+ finished \(Redis unreachable\)/);
      });
    }
  });

  describe('an actor playing for a run', () => {
    for (const down of [false, true]) {
      it(`Redis ${down ? 'gone' : 'up'}: stops, the parts being played dropped${down ? ', saying it could not sign off' : ''}`, async () => {
        const out = path.join(folder, `actor-${down}`);
        const learner = start('train', '--episodes', '100000', '--out', out, '--redis', redis.url, ...QUICK, '--no-progress');
        await line(learner, /join it with: yaniv actor --redis URL --run (\w+)/);
        const run = /--run (\w+)/.exec(learner.stderr())?.[1] ?? '';
        const actor = start('actor', '--redis', redis.url, '--run', run, '--workers', '0', '--backend', 'wasm');
        await line(actor, /actor\(s\) playing for run/);
        if (down) stopRedis();
        expect(await terminate(actor), actor.stderr()).toBe(0);
        expect(actor.stderr()).toMatch(/stopped: \d+ parts sent to run/);
        if (down) expect(actor.stderr()).toMatch(/could not sign off in Redis \(unreachable\)/);
      });
    }
  });

  describe('a bench worker', () => {
    let connection: Redis;
    let queue: Queue;
    beforeAll(() => {
      connection = new Redis(redis.url, { maxRetriesPerRequest: null });
      connection.on('error', () => undefined);
      queue = new Queue(QUEUE_NAME, { connection });
      queue.on('error', () => undefined);
    });
    afterAll(async () => {
      await queue?.close();
      connection?.disconnect();
    });

    const worker = () => start('worker', '--redis', redis.url, '--concurrency', '1', '--lock-seconds', '30');

    it('waiting for jobs: stops at once', async () => {
      const idle = worker();
      await line(idle, /job\(s\) at once from/);
      expect(await terminate(idle), idle.stderr()).toBe(0);
      expect(idle.stderr()).toMatch(/stopped: 0 jobs, 0 games played/);
    });

    for (const down of [false, true]) {
      it(`mid-job, Redis ${down ? 'gone: says it could not hand the job back' : 'up: hands the job back to the queue at once'}`, async () => {
        await queue.obliterate({ force: true });
        const busy = worker();
        await line(busy, /job\(s\) at once from/);
        // One long job (a thousand games of the strong agent against another): still being played when the signal comes.
        start(
          'bench',
          '--agents',
          'strong,intermediate',
          '--games',
          '1000',
          '--job-games',
          '1000',
          '--redis',
          redis.url,
          '--no-progress',
          '--json',
          '-',
        );
        let job = '';
        await waitFor('the worker playing the job', async () => {
          const active = await queue.getActive();
          job = active.find((j) => j.processedBy?.endsWith(`:${busy.process.pid}`))?.id ?? '';
          return job !== '';
        });
        if (down) stopRedis();
        expect(await terminate(busy), busy.stderr()).toBe(0);
        if (down) {
          expect(busy.stderr()).toMatch(
            new RegExp(
              `could not hand job ${job} back \\(Redis unreachable or the job gone\\): it returns to the queue when its lock expires`,
            ),
          );
        } else {
          expect(busy.stderr()).toContain(`job ${job} handed back to the queue`);
          expect(await queue.getJobState(job)).toBe('waiting');
        }
      });
    }
  });

  describe('yaniv serve --redis with a live table', () => {
    it('Redis gone: stops within its --shutdown-ms bound, saying the table could not be handed over', async () => {
      const server = await ServeProcess.start([
        '--redis',
        redis.url,
        '--agents',
        'novice',
        '--workers',
        '0',
        '--shutdown-ms',
        '2000',
        '--log-level',
        'warn',
      ]);
      const client = await TestClient.greeted(server.url);
      expect(await client.request({ type: 'create_table', seats: ['client', 'novice'], seed: 1 })).toMatchObject({ type: 'table_created' });
      stopRedis();
      const stopped = server.stop('SIGTERM');
      expect(await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve('late'), STOP_MS))])).not.toBe('late');
      await stopped;
      expect(server.stderr).toMatch(/"event":"drain_incomplete"/);
      client.ws.terminate();
    });
  });
});
