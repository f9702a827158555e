// A throwaway redis-server for the tests and benches that need one: on a free loopback port, nothing saved to
// disk, stopped after. Without the binary the tests skip with one line saying how to install it,
// except in CI (CI=true), where a missing binary fails the run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const INSTALL_HINT = 'redis-server not found: the Redis tests are skipped (install it with: apt-get install -y redis-server)';

export function redisAvailable(): boolean {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!found && process.env.CI === 'true')
    throw new Error('redis-server is missing in CI: .ci/run installs it (apt-get install -y redis-server)');
  if (!found) console.log(INSTALL_HINT);
  return found;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class RedisServer {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'yaniv-redis-'));
  private constructor(
    readonly port: number,
    readonly password: string | null,
  ) {}

  static async start(password: string | null = null): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), password);
    server.launch();
    return server;
  }

  get url(): string {
    return `redis://${this.password === null ? '' : `:${this.password}@`}127.0.0.1:${this.port}`;
  }

  private get pidFile(): string {
    return path.join(this.dir, 'redis.pid');
  }

  /** Starts the server (again, after `stop`: a restart loses every key). */
  launch(): void {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes'];
    args.push('--pidfile', this.pidFile, '--dir', this.dir, '--maxmemory-policy', 'noeviction');
    if (this.password !== null) args.push('--requirepass', this.password);
    const started = spawnSync('redis-server', args, { encoding: 'utf8' });
    if (started.status !== 0) throw new Error(`redis-server did not start: ${started.stderr}${started.stdout}`);
    for (let i = 0; i < 100; i++) {
      const ping = spawnSync('redis-cli', ['-p', String(this.port), ...(this.password ? ['-a', this.password] : []), 'ping'], {
        encoding: 'utf8',
      });
      if (ping.stdout.includes('PONG')) return;
      spawnSync('sleep', ['0.05']);
    }
    throw new Error(`redis-server on port ${this.port} did not answer`);
  }

  /** The server's pid while it runs (from its pid file), else null. */
  pid(): number | null {
    let pid = 0;
    try {
      pid = Number(readFileSync(this.pidFile, 'utf8').trim());
      process.kill(pid, 0);
      return pid;
    } catch {
      return null;
    }
  }

  /** Stops the server (its pid from the pid file) and waits until it is gone. */
  stop(): void {
    let pid = 0;
    try {
      pid = Number(readFileSync(this.pidFile, 'utf8').trim());
    } catch {
      return;
    }
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      return;
    }
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
        spawnSync('sleep', ['0.05']);
      } catch {
        return;
      }
    }
  }

  dispose(): void {
    this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
