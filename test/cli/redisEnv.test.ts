// One environment variable names the Redis of every command (YANIV_REDIS); set but empty, it means
// unset: the command runs on one machine instead of refusing an empty URL.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REDIS_ENV } from '../../support/redis.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const yaniv = (args: string[], value: string) =>
  spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env: { ...process.env, [REDIS_ENV]: value }, timeout: 120_000 });

describe(`${REDIS_ENV}`, () => {
  it('empty is unset: yaniv bench plays on this machine', () => {
    const run = yaniv(['bench', '--agents', 'strong,novice', '--games', '2', '--workers', '1', '--no-progress'], '');
    expect(run.stderr).not.toMatch(/redis/i);
    expect(run.status).toBe(0);
  });

  it('a bad value is refused by every command naming the flag, exit 2', () => {
    for (const command of [['bench'], ['worker'], ['train', '--episodes', '1'], ['serve', '--port', '0']]) {
      const run = yaniv(command, 'http://not-redis');
      expect(run.status, command.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/--redis: must be a redis:\/\/ or rediss:\/\/ URL/);
    }
  });
});
