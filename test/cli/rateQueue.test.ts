// `yaniv rate --redis URL` with a `yaniv worker`: the games played through the Redis job queue give
// the local rating's `config` and `results` byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import { killAll, requireBuild, start, yaniv } from './processes.js';

const available = redisAvailable();
let server: RedisServer;

const RATE = ['rate', '--agents', 'random,novice,intermediate', '--games', '24', '--seed', '4', '--no-progress', '--json', '-'];

describe.skipIf(!available)('yaniv rate through Redis', () => {
  beforeAll(async () => {
    requireBuild();
    server = await RedisServer.start('s3cret');
  });
  afterAll(() => {
    killAll();
    server?.dispose();
  });

  it('plays on a yaniv worker and fits the same ratings as a local run', async () => {
    const worker = start('worker', '--redis', server.url, '--concurrency', '1');
    const remote = start(...RATE, '--redis', server.url, '--job-games', '6');
    expect(await remote.exited, remote.stderr()).toBe(0);
    const local = yaniv(...RATE, '--workers', '1');
    expect(local.code, local.stderr).toBe(0);
    const [a, b] = [JSON.parse(remote.stdout()), JSON.parse(local.stdout)];
    expect(JSON.stringify(a.config)).toBe(JSON.stringify(b.config));
    expect(JSON.stringify(a.results)).toBe(JSON.stringify(b.results));
    expect(a.run.redis).toMatch(/^redis:\/\//);
    expect(a.run.redis).not.toContain('s3cret');
    worker.process.kill('SIGTERM');
  }, 120_000);
});
