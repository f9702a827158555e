// Training over Redis with real processes and a real redis-server: clear errors (unreachable, wrong
// password, unknown run); a learner and two `yaniv actor` processes through several weights
// versions, with foreign and truncated stream entries counted and skipped and one actor killed
// with SIGKILL mid-run (the learner goes on; every part sent is used, dropped as stale, or left
// unread, never lost or used twice); Redis restarted under a running actor; the learner killed and
// resumed under the same run ID.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import { until } from '../serve/helpers.js';
import { type Child, exitCode, killAll, requireBuild, start, yaniv } from './processes.js';

const available = redisAvailable();
let folder = '';
let server: RedisServer;

const TINY = ['--hidden-units', '8', '--games-per-actor', '4', '--rollout-samples', '128', '--minibatch-size', '64', '--max-turns', '30'];
const QUICK = [...TINY, '--imitation-episodes', '4', '--episode', 'round', '--eval-every', '0', '--eval-games', '0', '--backend', 'wasm'];

const iterations = (run: string) =>
  existsSync(path.join(run, 'metrics.jsonl'))
    ? readFileSync(path.join(run, 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, number>)
        .filter((l) => (l.type as unknown) === 'iteration')
    : [];

// Generous: on a loaded 2-core machine a learner and an actor take tens of seconds to start and play.
const waitUntil = (what: string, check: () => boolean | Promise<boolean>) => until(check, what, 90_000);

/** A Redis reply of alternating names and values, as an object. */
const fieldsOf = (reply: unknown[]): Record<string, unknown> =>
  Object.fromEntries(Array.from({ length: reply.length / 2 }, (_, i) => [String(reply[2 * i]), reply[2 * i + 1]]));

const runIdOf = (learner: Child) => /run ID (\w+)/.exec(learner.stderr())?.[1] ?? '';

describe.skipIf(!available)('training over Redis', () => {
  beforeAll(async () => {
    requireBuild();
    folder = mkdtempSync(path.join(tmpdir(), 'yaniv-redis-train-'));
    server = await RedisServer.start('s3cret');
  });
  afterAll(() => {
    killAll();
    server?.dispose();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('names an unreachable Redis, a wrong password and an unknown run, exit 2', () => {
    const wrong = server.url.replace('s3cret', 'nope');
    const cases: [string[], RegExp][] = [
      [['actor', '--redis', 'redis://127.0.0.1:1'], /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/],
      [['actor', '--redis', wrong], /refused the credentials: WRONGPASS/],
      [['actor', '--redis', server.url, '--run', 'nosuchrun'], /no run "nosuchrun"/],
      [['actor', '--redis', server.url], /no active run/],
      [['actor'], /--redis: a Redis URL is required \(or YANIV_REDIS\)/],
      [['train', '--episodes', '2', '--out', path.join(folder, 'x'), '--redis', wrong, ...QUICK], /refused the credentials/],
    ];
    for (const [args, message] of cases) {
      const result = yaniv(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr).not.toContain('s3cret');
    }
  });

  it('two actor processes through several versions; bad entries skipped; an actor killed with SIGKILL mid-run', async () => {
    const out = path.join(folder, 'two');
    const learner = start('train', '--episodes', '36', '--out', out, '--redis', server.url, ...QUICK, '--no-progress');
    await waitUntil('the run ID', () => runIdOf(learner) !== '');
    const run = runIdOf(learner);
    const redis = new Redis(server.url);
    const stream = `yaniv:run:${run}:trajectories`;
    // A foreign entry and a truncated one before any actor speaks.
    await redis.xadd(stream, '*', 'hello', 'world');
    await redis.xadd(stream, '*', 'part', Buffer.from([0x85, 0xa6, 0x66]));
    const doomed = start('actor', '--redis', server.url, '--run', run, '--backend', 'wasm');
    const survivor = start('actor', '--redis', server.url, '--backend', 'wasm', '--workers', '0');
    await waitUntil('two iterations', () => iterations(out).length >= 2).catch((error: Error) => {
      throw new Error(`${error.message}\nlearner: ${learner.stderr()}\nactors: ${doomed.stderr()}\n${survivor.stderr()}`);
    });
    doomed.process.kill('SIGKILL');
    expect(await exitCode(learner, 150_000, { survivor }), learner.stderr()).toBe(0);
    expect(await exitCode(survivor, 20_000, { learner }), survivor.stderr()).toBe(0);
    expect(survivor.stderr()).toMatch(/run finished: \d+ parts sent/);

    const lines = iterations(out);
    expect(lines.at(-1)?.weightsVersion).toBeGreaterThanOrEqual(3);
    expect(lines.reduce((n, l) => n + l.badEntries, 0)).toBe(2);
    expect(learner.stderr()).toMatch(/skipped stream entry .*no field "part"/);
    expect(learner.stderr()).toMatch(/skipped stream entry .*not MessagePack/);
    // Every entry read was used once, dropped as stale, or skipped as bad; none is left pending.
    const [group] = (await redis.xinfo('GROUPS', stream)) as unknown[][];
    expect(fieldsOf(group).pending).toBe(0);
    // Each entry the learner read was acknowledged and deleted, so those read are those added less those
    // still in the stream (sent after the learner's last read). XINFO's entries-read is no count here:
    // Redis estimates it once entries have been deleted.
    const streamInfo = fieldsOf((await redis.xinfo('STREAM', stream)) as unknown[]);
    const accounted = lines.reduce((n, l) => n + l.parts + l.staleParts + l.badEntries, 0);
    expect(accounted).toBe((streamInfo['entries-added'] as number) - (streamInfo.length as number));
    await redis.quit();
  }, 180_000);

  it('an actor goes on after a Redis restart; a learner killed and resumed goes on under the same run ID', async () => {
    const out = path.join(folder, 'restart');
    // Far more episodes than the test plays: the learner must still be running when it is killed.
    const learner = start(
      'train',
      '--out',
      out,
      '--redis',
      server.url,
      ...QUICK,
      ...'--episodes 100000 --checkpoint-every 1 --no-progress'.split(' '),
    );
    await waitUntil('the run ID', () => runIdOf(learner) !== '');
    const run = runIdOf(learner);
    const actor = start('actor', '--redis', server.url, '--run', run, '--backend', 'wasm');
    const explain = (error: Error) => {
      throw new Error(`${error.message}\nlearner: ${learner.stderr()}\nactor: ${actor.stderr()}`);
    };
    await waitUntil('two iterations', () => iterations(out).length >= 2).catch(explain);
    const redis = new Redis(server.url, { lazyConnect: true });
    await redis.connect();
    const keys = { header: `yaniv:run:${run}:header`, actors: `yaniv:run:${run}:actors` };
    const versionAtRestart = (JSON.parse((await redis.get(keys.header)) ?? '{}') as { version: number }).version;
    redis.disconnect();
    server.stop();
    server.launch();
    const before = iterations(out).length;
    await waitUntil('iterations after the restart', () => iterations(out).length >= before + 2).catch(explain);
    expect(learner.stderr()).toMatch(/Redis connection back/);
    // The actor reconnected and went on: it reports to the new server (whose keys started empty), and
    // the learner trains on parts played with weights published only after the restart.
    await redis.connect();
    // The actor reports on a 2-second heartbeat: the learner may train twice before the first one after the restart.
    await waitUntil('the actor reporting to the new server', async () => (await redis.hlen(keys.actors)) === 1).catch(explain);
    await waitUntil('a batch played with post-restart weights', () =>
      iterations(out).some((line) => line.actingVersion > versionAtRestart),
    ).catch(explain);
    await redis.quit();
    expect(actor.process.exitCode).toBeNull();

    learner.process.kill('SIGKILL');
    await learner.exited;
    const target = String((iterations(out).at(-1)?.episodes ?? 0) + 8);
    const resumed = start('train', '--resume', '--out', out, '--episodes', target, '--redis', server.url, '--no-progress');
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    expect(resumed.stderr()).toContain(`run ID ${run}`);
    expect(await actor.exited, actor.stderr()).toBe(0);
    const lines = iterations(out);
    expect(lines.map((l) => l.iteration)).toEqual(Array.from({ length: lines.length }, (_, i) => i + 1));
    expect(lines.at(-1)?.episodes).toBeGreaterThanOrEqual(Number(target));
  }, 180_000);
});
