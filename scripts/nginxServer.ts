// A throwaway nginx in front of `yaniv serve` processes, for the tests, the bench and `npm run cluster`:
// deploy/nginx.conf.template rendered with a free loopback port and a temporary prefix (pid, error log,
// temporary files: nothing under /etc, /var or /run), run in the foreground and stopped after.
// Without the binary the tests skip with one line saying how to install it, except in CI (CI=true),
// where a missing binary fails the run.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageRoot } from '../agents/models/modelFolder.js';
import { freePort } from './redisServer.js';

export const NGINX_INSTALL_HINT = 'nginx not found: the load-balancer tests are skipped (install it with: apt-get install -y nginx-light)';

const TEMPLATE = path.join(packageRoot(), 'deploy', 'nginx.conf.template');

/** Debian puts nginx in /usr/sbin, which is not on every user's PATH. */
export function nginxBinary(): string | null {
  for (const candidate of ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx']) {
    if (spawnSync(candidate, ['-v'], { encoding: 'utf8' }).status === 0) return candidate;
  }
  return null;
}

export function nginxAvailable(): boolean {
  const found = nginxBinary() !== null;
  if (!found && process.env.CI === 'true') throw new Error('nginx is missing in CI: .ci/run installs it (apt-get install -y nginx-light)');
  if (!found) console.log(NGINX_INSTALL_HINT);
  return found;
}

/** Each process's parameters in the upstreams: no passive failure marks (deploy/nginx.conf.template says why). */
export const SERVER_PARAMETERS = 'max_fails=0';

export interface NginxConfig {
  /** A directory nginx may write to (pid, error log, temporary files). */
  prefix: string;
  /** What `listen` gets: `127.0.0.1:8080`, or `443 ssl` in production. */
  listen: string;
  /** The processes, as `HOST:PORT`: exactly the list each `yaniv serve --peers` gets. */
  servers: readonly string[];
  workers?: number;
  /** What follows each `server HOST:PORT` (default `max_fails=0`: no failure marks, see the template). */
  serverParameters?: string;
  /** What one client address may have of nginx (default `ADDRESS_LIMITS`). */
  limits?: AddressLimits;
}

/** nginx's fair shares per client address: connections open at once, and requests (each upgrade, each file) a second with a burst. */
export interface AddressLimits {
  readonly connections: number;
  readonly requestsPerSecond: number;
  readonly burst: number;
}

/** For a deployment (`--print-config`): a household or a classroom behind one address plays; one address cannot fill a process. */
export const ADDRESS_LIMITS: AddressLimits = { connections: 100, requestsPerSecond: 10, burst: 50 };

/** For tests, benches and `npm run cluster` on one machine, where every client is on loopback: one address is everyone. */
export const LOOPBACK_CROWD: AddressLimits = { connections: 10_000, requestsPerSecond: 10_000, burst: 10_000 };

/** deploy/nginx.conf.template with its fields filled in. */
export function renderNginxConfig(config: NginxConfig): string {
  if (config.servers.length === 0) throw new RangeError('nginx needs at least one yaniv serve process');
  const parameters = config.serverParameters ?? SERVER_PARAMETERS;
  const servers = config.servers.map((s) => `        server ${s} ${parameters};`).join('\n');
  const fields: Record<string, string> = {
    PREFIX: config.prefix,
    LISTEN: config.listen,
    SERVERS: servers,
    WORKERS: String(config.workers ?? 1),
    CONNPERADDRESS: String((config.limits ?? ADDRESS_LIMITS).connections),
    RATEPERADDRESS: `${(config.limits ?? ADDRESS_LIMITS).requestsPerSecond}r/s`,
    BURSTPERADDRESS: String((config.limits ?? ADDRESS_LIMITS).burst),
  };
  return readFileSync(TEMPLATE, 'utf8').replace(/\{\{([A-Z]+)\}\}/g, (_, name: string) => {
    const value = fields[name];
    if (value === undefined) throw new Error(`deploy/nginx.conf.template: unknown field {{${name}}}`);
    return value;
  });
}

export class NginxServer {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly servers: readonly string[],
  ) {}

  /** nginx on a free loopback port (or `port`) in front of `servers`, with `limits` per address; resolves once it answers. */
  static async start(
    servers: readonly string[],
    port?: number,
    serverParameters?: string,
    limits: AddressLimits = LOOPBACK_CROWD,
  ): Promise<NginxServer> {
    const nginx = new NginxServer(port ?? (await freePort()), mkdtempSync(path.join(tmpdir(), 'yaniv-nginx-')), servers);
    const config = { prefix: nginx.dir, listen: `127.0.0.1:${nginx.port}`, servers, serverParameters, limits };
    writeFileSync(nginx.configFile, renderNginxConfig(config));
    await nginx.launch();
    return nginx;
  }

  get configFile(): string {
    return path.join(this.dir, 'nginx.conf');
  }

  /** ws://127.0.0.1:PORT/ */
  get url(): string {
    return `ws://127.0.0.1:${this.port}/`;
  }

  get httpUrl(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  /** What nginx wrote to its error log. */
  errorLog(): string {
    const file = path.join(this.dir, 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  private async launch(): Promise<void> {
    const binary = nginxBinary();
    if (binary === null) throw new Error(NGINX_INSTALL_HINT);
    const args = ['-p', this.dir, '-c', this.configFile, '-e', path.join(this.dir, 'error.log'), '-g', 'daemon off;'];
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}${this.errorLog()}`);
      const ok = await fetch(`${this.httpUrl}nginx-health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await this.stop();
    throw new Error(`nginx on port ${this.port} did not answer: ${stderr}${this.errorLog()}`);
  }

  /** Stops nginx (SIGTERM: its fast shutdown) and waits until the master is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
