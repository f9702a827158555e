// `npm run cluster`: a developer's cluster on loopback — a Redis, N `yaniv serve` processes and nginx
// in front (deploy/nginx.conf.template) — printing the URL to play at; Ctrl-C stops them all.
//   npm run cluster -- [--processes 3] [--port 8080] [--agents strong,novice]
//   npm run cluster -- --print-config [--port 8080]                      (the running cluster's nginx configuration)
//   npm run cluster -- --print-config --servers 10.0.0.11:8081,10.0.0.12:8081 [--port 443]   (one for real machines)
// It watches what it started: a process that dies is started again on its port (unless it keeps
// dying at once), a Redis that stops is started again on its port (empty: the processes write their
// tables again); docs/cluster.md is the operator's guide.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NginxServer, nginxBinary, renderNginxConfig } from './nginxServer.js';
import { RedisServer, freePort } from './redisServer.js';
import { ServeProcess } from './serveProcess.js';

const USAGE = `Usage: npm run cluster -- [options]

A developer's cluster on loopback: a Redis, N yaniv serve processes and nginx in front.
A process that dies is started again on its port; so is the Redis. Ctrl-C stops everything.

Options:
  --processes <n>      yaniv serve processes (1 to 32; default 3)
  --port <n>           nginx's port (default 8080; 0: a free one)
  --agents <list>      the agents the processes serve (yaniv serve --agents)
  --print-config       print the nginx configuration of the cluster running on --port
  --servers <list>     with --print-config: the configuration for these host:port processes instead
  -h, --help           this text
`;

/** A process that dies this soon after it started, this many times in a row, is not started again. */
const CRASH_LOOP = { withinMs: 5000, times: 3 };

function readArgs() {
  try {
    return parseArgs({
      options: {
        processes: { type: 'string', default: '3' },
        port: { type: 'string', default: '8080' },
        agents: { type: 'string' },
        'print-config': { type: 'boolean', default: false },
        servers: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
}

function fail(message: string): never {
  process.stderr.write(`cluster: ${message}\n`);
  process.exit(2);
}

function whole(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    fail(`--${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(text)})`);
  return n;
}

/** What a running cluster writes for `--print-config` (and an operator) to find it by nginx's port. */
interface ClusterState {
  pid: number;
  nginxConfig: string;
  servers: string[];
  redis: string | null;
}

const stateFile = (port: number) => path.join(tmpdir(), `yaniv-cluster-${port}.json`);

function printConfig(port: number, servers: string | undefined): void {
  if (servers !== undefined) {
    const list = servers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.length === 0) fail('--servers needs at least one host:port');
    process.stdout.write(renderNginxConfig({ prefix: '/var/lib/yaniv-nginx', listen: `127.0.0.1:${port}`, servers: list }));
    return;
  }
  const file = stateFile(port);
  const state = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ClusterState) : null;
  if (state === null || !alive(state.pid) || !existsSync(state.nginxConfig))
    fail(`no cluster is running on port ${port} (start one with npm run cluster, or give --servers host:port,… for real machines)`);
  process.stdout.write(readFileSync(state.nginxConfig, 'utf8'));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const say = (line: string) => process.stdout.write(`cluster: ${line}\n`);

/** The cluster's processes: each started again on its port when it dies, unless the cluster is stopping or it keeps dying at once. */
class Members {
  readonly servers: ServeProcess[] = [];
  private stopping = false;

  constructor(
    private readonly ports: readonly number[],
    private readonly args: readonly string[],
  ) {}

  async start(): Promise<void> {
    for (const index of this.ports.keys()) this.servers.push(await this.launch(index, 0));
  }

  private async launch(index: number, quickDeaths: number): Promise<ServeProcess> {
    const started = Date.now();
    const server = await ServeProcess.start(this.args, {
      port: this.ports[index],
      logTo: (line) => process.stderr.write(`[serve ${index + 1}] ${line}\n`),
    });
    void server.exited.then((code) => this.exited(index, server, code, Date.now() - started < CRASH_LOOP.withinMs ? quickDeaths + 1 : 0));
    return server;
  }

  private async exited(index: number, server: ServeProcess, code: number | null, quickDeaths: number): Promise<void> {
    if (this.stopping) return;
    const name = `serve ${index + 1} (pid ${server.pid}, ${server.address})`;
    if (quickDeaths >= CRASH_LOOP.times) {
      say(
        `${name} exited (${code ?? 'signal'}) ${quickDeaths} times within ${CRASH_LOOP.withinMs / 1000} s of starting: not starting it again (its log is above); nginx sends its tables on`,
      );
      return;
    }
    say(`${name} exited (${code ?? 'signal'}); nginx sends its tables on; starting it again on its port`);
    try {
      const again = await this.launch(index, quickDeaths);
      if (this.stopping) return void again.stop('SIGTERM');
      this.servers[index] = again;
      say(`serve ${index + 1} is back: ${again.address} (pid ${again.pid})`);
    } catch (error) {
      say(`serve ${index + 1} could not be started again: ${(error as Error).message}`);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.servers.map((s) => s.stop('SIGTERM')));
  }
}

/** Starts the cluster's Redis again, on its port, whenever it is found stopped (an operator's restart, a crash). */
function watchRedis(redis: RedisServer): { stop(): void } {
  const timer = setInterval(() => {
    if (redis.pid() !== null) return;
    say(`Redis on port ${redis.port} stopped; starting it again (empty: the processes write their tables again)`);
    try {
      redis.launch();
      say(`Redis is back: ${redis.url} (pid ${redis.pid()})`);
    } catch (error) {
      say(`Redis could not be started again: ${(error as Error).message}`);
    }
  }, 1000);
  return { stop: () => clearInterval(timer) };
}

async function run(count: number, wanted: number, agents: string | undefined): Promise<void> {
  if (nginxBinary() === null) fail('nginx not found (install it with: apt-get install -y nginx-light)');
  const withRedis = spawnSync('redis-server', ['--version']).status === 0;
  if (!withRedis) say('redis-server not found (apt-get install -y redis-server): each table lives in one process only');
  const port = wanted === 0 ? await freePort() : wanted;
  const ports = await ServeProcess.ports(count);
  const peers = ports.map((p) => `127.0.0.1:${p}`);
  const redis = withRedis ? await RedisServer.start() : null;
  const args = [
    '--peers',
    peers.join(','),
    // nginx, on loopback here, names each client in X-Forwarded-For: the per-address limits count the client.
    '--trust-proxy',
    '127.0.0.1',
    '--log-level',
    'warn',
    ...(agents ? ['--agents', agents] : []),
    ...(redis ? ['--redis', redis.url] : []),
  ];
  const members = new Members(ports, args);
  const redisWatch = redis ? watchRedis(redis) : null;
  let nginx: NginxServer | null = null;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping nginx, the servers and Redis');
    redisWatch?.stop();
    await nginx?.dispose();
    await members.stop();
    redis?.dispose();
    rmSync(stateFile(port), { force: true });
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  try {
    await members.start();
    nginx = await NginxServer.start(peers, port);
  } catch (error) {
    say((error as Error).message);
    await stop();
    return;
  }
  const state: ClusterState = { pid: process.pid, nginxConfig: nginx.configFile, servers: peers, redis: redis?.url ?? null };
  writeFileSync(stateFile(port), JSON.stringify(state));
  process.stdout.write(
    [
      `cluster: play the bots at ${nginx.httpUrl} (WebSocket ${nginx.url}); Ctrl-C stops everything`,
      ...members.servers.map((s, i) => `  serve ${i + 1}: ${s.address} (pid ${s.pid})`),
      `  nginx: ${nginx.configFile} (npm run cluster -- --print-config --port ${port})`,
      `  redis: ${redis ? `${redis.url} (pid ${redis.pid()}; every table in it: kill a process and its players go on elsewhere)` : 'none (each table lives in one process)'}`,
      '',
    ].join('\n'),
  );
}

const values = readArgs();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const count = whole('processes', values.processes, 1, 32);
const port = whole('port', values.port, 0, 65535);
if (values['print-config']) printConfig(port, values.servers);
else if (values.servers !== undefined) fail('--servers goes with --print-config');
else await run(count, port, values.agents);
