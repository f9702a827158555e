// `npm run cluster` as an operator runs it (dist/scripts/cluster.js, real nginx and redis-server):
// --print-config prints the running cluster's configuration; a process SIGKILLed is started again on
// its port; the cluster's Redis shut down is started again on its port; Ctrl-C stops every process
// it started, the restarted ones included, and leaves no state file. Skipped without nginx or
// redis-server (one line each saying how to install it); in CI it fails.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { nginxAvailable } from '../../scripts/nginxServer.js';
import { redisAvailable } from '../../scripts/redisServer.js';
import { until } from '../serve/helpers.js';

const SCRIPT = fileURLToPath(new URL('../../dist/scripts/cluster.js', import.meta.url));
const available = nginxAvailable() && redisAvailable();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(available)('npm run cluster', () => {
  let cluster: ChildProcess | null = null;
  let out = '';
  const pids = new Set<number>();
  afterAll(() => {
    cluster?.kill('SIGKILL');
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  const waitFor = (pattern: RegExp) => until(() => pattern.test(out), String(pattern), 60_000);
  const pidOf = (pattern: RegExp) => {
    const pid = Number(pattern.exec(out)?.[1]);
    pids.add(pid);
    return pid;
  };

  it('prints its configuration, starts again a process and a Redis that died, and Ctrl-C stops all it started', async () => {
    cluster = spawn(process.execPath, [SCRIPT, '--processes', '2', '--port', '0', '--agents', 'novice'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cluster.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cluster?.once('exit', (code) => resolve(code)));
    await waitFor(/play the bots at http:\/\/127\.0\.0\.1:(\d+)\//);
    const port = Number(/127\.0\.0\.1:(\d+)\/ \(WebSocket/.exec(out)?.[1]);
    const members = [...out.matchAll(/serve \d: (127\.0\.0\.1:\d+)/g)].map((m) => m[1]);
    const first = pidOf(/serve 1: \S+ \(pid (\d+)\)/);
    const redisPort = Number(/redis: redis:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
    const firstRedis = pidOf(/redis: \S+ \(pid (\d+)/);

    const config = spawnSync(process.execPath, [SCRIPT, '--print-config', '--port', String(port)], { encoding: 'utf8' });
    expect(config.status, config.stderr).toBe(0);
    for (const member of members) expect(config.stdout).toContain(`server ${member} max_fails=0;`);
    const none = spawnSync(process.execPath, [SCRIPT, '--print-config', '--port', '1'], { encoding: 'utf8' });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/no cluster is running on port 1/);

    process.kill(first, 'SIGKILL');
    await waitFor(/serve 1 is back: (\S+) \(pid (\d+)\)/);
    expect(/serve 1 is back: (\S+)/.exec(out)?.[1]).toBe(members[0]);
    const again = pidOf(/serve 1 is back: \S+ \(pid (\d+)\)/);
    expect(again).not.toBe(first);
    expect((await fetch(`http://${members[0]}/health`)).status).toBe(200);

    spawnSync('redis-cli', ['-p', String(redisPort), 'shutdown', 'nosave']);
    await waitFor(/Redis is back: \S+ \(pid (\d+)\)/);
    const redisAgain = pidOf(/Redis is back: \S+ \(pid (\d+)\)/);
    expect(redisAgain).not.toBe(firstRedis);
    expect(spawnSync('redis-cli', ['-p', String(redisPort), 'ping'], { encoding: 'utf8' }).stdout.trim()).toBe('PONG');

    const second = pidOf(/serve 2: \S+ \(pid (\d+)\)/);
    cluster.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const pid of [again, second, redisAgain]) expect(alive(pid), `pid ${pid} still running`).toBe(false);
    expect(existsSync(path.join(tmpdir(), `yaniv-cluster-${port}.json`))).toBe(false);
  });
});
