// `yaniv serve` as its own process (dist/cli/main.js), for `npm run cluster`, the load-balancer tests
// and the bench: on a free loopback port, ready once its /health answers, stopped by signal.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../agents/models/modelFolder.js';
import { freePort } from './redisServer.js';

const MAIN = path.join(packageRoot(), 'dist', 'cli', 'main.js');

export class ServeProcess {
  private child: ChildProcess;
  /** What the process wrote to standard error (its JSON log lines), for a failing test's message. */
  stderr = '';
  readonly exited: Promise<number | null>;

  private constructor(
    readonly port: number,
    readonly args: readonly string[],
    logTo?: (line: string) => void,
  ) {
    this.child = spawn(process.execPath, [MAIN, 'serve', '--host', '127.0.0.1', '--port', String(port), ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      this.stderr = (this.stderr + text).slice(-20_000);
      if (logTo) for (const line of text.split('\n')) if (line.trim()) logTo(line);
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** `yaniv serve --host 127.0.0.1 --port PORT ARGS…`; resolves once /health answers. */
  static async start(args: readonly string[], options: { port?: number; logTo?: (line: string) => void } = {}): Promise<ServeProcess> {
    const server = new ServeProcess(options.port ?? (await freePort()), args, options.logTo);
    await server.ready();
    return server;
  }

  /** The free ports for `count` processes, so that each can be told every address (--peers) before any starts. */
  static async ports(count: number): Promise<number[]> {
    const ports = new Set<number>();
    while (ports.size < count) ports.add(await freePort());
    return [...ports];
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `ws://${this.address}/`;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async health(): Promise<Record<string, unknown> | null> {
    try {
      const response = await fetch(`http://${this.address}/health`);
      return response.ok ? ((await response.json()) as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  private async ready(): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (!this.running) throw new Error(`yaniv serve on port ${this.port} exited: ${this.stderr}`);
      if ((await this.health()) !== null) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await this.stop('SIGKILL');
    throw new Error(`yaniv serve on port ${this.port} did not answer /health: ${this.stderr}`);
  }

  /** Sends the signal (SIGTERM: a graceful drain; SIGKILL: a crash) and waits until the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    this.child.kill(signal);
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(killer);
  }
}
