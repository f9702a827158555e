// `npm run cluster`: a developer's cluster on loopback — a Redis, N `yaniv serve` processes and nginx
// in front (deploy/nginx.conf.template) — printing the URL to play at; Ctrl-C stops them all.
//   npm run cluster -- [--processes 3] [--port 8080] [--agents strong,novice]
//   npm run cluster -- --print-config [--servers 10.0.0.11:8081,10.0.0.12:8081] [--port 443]   (the nginx configuration only)
// Kill one process (its pid is printed) and watch its players reconnect through nginx to another.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { NginxServer, nginxBinary, renderNginxConfig } from './nginxServer.js';
import { RedisServer, freePort } from './redisServer.js';
import { ServeProcess } from './serveProcess.js';

const USAGE = `Usage: npm run cluster -- [options]

A developer's cluster on loopback: a Redis, N yaniv serve processes and nginx in front.

Options:
  --processes <n>      yaniv serve processes (1 to 32; default 3)
  --port <n>           nginx's port (default 8080)
  --agents <list>      the agents the processes serve (yaniv serve --agents)
  --print-config       print the nginx configuration only
  --servers <list>     with --print-config: the processes' host:port list
  -h, --help           this text
`;

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
    process.stderr.write(`cluster: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

const values = readArgs();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

function whole(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    process.stderr.write(`cluster: --${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(text)})\n`);
    process.exit(2);
  }
  return n;
}

const count = whole('processes', values.processes, 1, 32);
const port = whole('port', values.port, 0, 65535);

async function main(): Promise<void> {
  const ports = await ServeProcess.ports(count);
  const peers = ports.map((p) => `127.0.0.1:${p}`);
  if (values['print-config']) {
    // For real machines: --servers the processes' --peers list.
    const servers = values.servers?.split(',').map((s) => s.trim()) ?? peers;
    process.stdout.write(renderNginxConfig({ prefix: '/var/lib/yaniv-nginx', listen: `127.0.0.1:${port}`, servers }));
    return;
  }
  if (nginxBinary() === null) {
    process.stderr.write('cluster: nginx not found (install it with: apt-get install -y nginx-light)\n');
    process.exit(2);
  }
  const withRedis = spawnSync('redis-server', ['--version']).status === 0;
  if (!withRedis)
    process.stderr.write('cluster: redis-server not found (apt-get install -y redis-server): each table lives in one process only\n');
  const redis = withRedis ? await RedisServer.start() : null;
  const args = ['--peers', peers.join(','), '--log-level', 'warn', ...(values.agents ? ['--agents', values.agents] : [])];
  if (redis) args.push('--redis', redis.url);
  const servers: ServeProcess[] = [];
  let nginx: NginxServer | null = null;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\ncluster: stopping nginx, the servers and Redis\n');
    await nginx?.dispose();
    await Promise.all(servers.map((s) => s.stop('SIGTERM')));
    redis?.dispose();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  try {
    for (const [i, p] of ports.entries()) {
      const server = await ServeProcess.start(args, { port: p, logTo: (line) => process.stderr.write(`[serve ${i + 1}] ${line}\n`) });
      servers.push(server);
      void server.exited.then((code) => {
        if (!stopping)
          process.stdout.write(`cluster: serve ${i + 1} (pid ${server.pid}) exited (${code ?? 'signal'}); nginx sends its tables on\n`);
      });
    }
    nginx = await NginxServer.start(peers, port === 0 ? await freePort() : port);
  } catch (error) {
    process.stderr.write(`cluster: ${(error as Error).message}\n`);
    await stop();
    return;
  }
  const lines = servers.map((s, i) => `  serve ${i + 1}: ${s.address} (pid ${s.pid})`);
  process.stdout.write(
    [
      `cluster: play the bots at ${nginx.httpUrl} (WebSocket ${nginx.url}); Ctrl-C stops everything`,
      ...lines,
      `  nginx: ${nginx.configFile}`,
      `  redis: ${redis ? `${redis.url} (every table in it: kill a process and its players go on elsewhere)` : 'none (each table lives in one process)'}`,
      '',
    ].join('\n'),
  );
}

await main();
