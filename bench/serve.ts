// The bot server under load, on loopback: `yaniv serve` runs as its own process (main thread +
// inference workers) and this process is the load generator. Advisor mode: C clients, each
// with one request in flight at a time (a closed loop), asking about positions of random games
// (every phase); requests/s and p50/p99 latency at 1, 16, 64 and 256 clients. Opponent mode:
// 16 clients each playing whole standard games against strong (the client plays its first
// legal action), games/s. The trained model is measured too once the registry has one.
// Rows for JSON and MessagePack, and for positions of every phase ("mixed") and positions where
// Yaniv may be called ("callable", where the Assaf risk is computed). BENCH_SERVE_COMPARE=DIR
// runs a second build's server (DIR/dist/cli/main.js, e.g. a worktree of an older commit) side by
// side: each row is measured on both, one after the other. Table store: table moves/s (bot and
// client steps) with `--redis` against the in-memory store, two servers measured in turns, and
// the bytes Redis receives per move. Then the same advice straight and through nginx (deploy/) to
// one and to two processes, as ratios; last, the memory of a process holding BENCH_SERVE_TABLES
// open tables. BENCH_SERVE_ONLY=advice, store, nginx, memory or opponent runs only that part;
// BENCH_SERVE_CLIENTS=64, BENCH_SERVE_AGENTS=strong, BENCH_SERVE_POSITIONS=mixed and BENCH_SERVE_MODES=advice,policy
// (lists) the advisor rows' client counts, agents, positions and kinds of advice (policy: `outlook: false`);
// BENCH_SERVE_FLAGS='--advice-min-worlds 12' flags for this build's server; BENCH_SERVE_WARMUP_MS (2000) each
// server's unmeasured load in each encoding before its advisor rows; BENCH_SERVE_ROUNDS (3) the rounds of
// each side-by-side row; BENCH_SERVE_SECONDS (4) a round's length.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { RedisServer } from '../scripts/redisServer.js';
import { DEFAULT_PRESET, YANIV_ACTION, YanivEnv, randomLegalAction, seededRng } from '../env/index.js';
import { isAgentName } from '../agents/registry.js';
import { type ViewJson, viewToJson } from '../serve/protocol/viewJson.js';
import { NGINX_INSTALL_HINT, NginxServer, nginxBinary } from '../scripts/nginxServer.js';
import { ServeProcess } from '../scripts/serveProcess.js';
import { type Encoding, type Message, adviceClosedLoop, connect, percentile, startServer } from './serveClient.js';

const MAIN = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const SECONDS = Number(process.env.BENCH_SERVE_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_SERVE_ROUNDS ?? 3);

/** Views of the player to move in random 3-player games, every phase, or only where Yaniv may be called. */
function positions(count: number, callable = false): ViewJson[] {
  const views: ViewJson[] = [];
  const rng = seededRng(1);
  for (let game = 0; views.length < count; game++) {
    const env = new YanivEnv({ players: 3, episode: 'round' });
    let { info } = env.reset({ seed: game });
    while (!env.done && views.length < count) {
      if (!callable || info.actionMask[YANIV_ACTION]) views.push(viewToJson(env.view(info.currentPlayer), DEFAULT_PRESET, {}));
      ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
    }
  }
  return views;
}

interface Load {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  /** The mean worlds the advice was played out in (NaN: none said). */
  worlds: number;
}

async function advisorLoad(
  url: string,
  agent: string,
  clients: number,
  views: ViewJson[],
  encoding: Encoding,
  extra: Record<string, unknown> = {},
): Promise<Load> {
  const connections = await Promise.all(Array.from({ length: clients }, () => connect(url, undefined, encoding)));
  const { latencies, seconds, errors, worlds } = await adviceClosedLoop(connections, {
    agent,
    views,
    warmupMs: 500,
    seconds: SECONDS,
    extra,
  });
  return { rate: latencies.length / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors, worlds };
}

/**
 * What a server is asked for in each kind of advice row: "advice" the default request (with its
 * explanation where the build gives one), "policy" the pick and ranking alone — `outlook: false`,
 * or a build's default request where that build knows no `outlook` and explains nothing anyway
 * (the build before the explanation); null where a build cannot give the policy alone.
 */
async function requestFor(url: string, mode: AdviceMode, agent: string, view: ViewJson): Promise<Record<string, unknown> | null> {
  if (mode === 'advice') return {};
  const c = await connect(url);
  try {
    const asked = await c.request({ type: 'advise', agent, view, outlook: false });
    if (asked.type === 'advice') return { outlook: false };
    const plain = await c.request({ type: 'advise', agent, view });
    return plain.type === 'advice' && plain.moves === undefined ? {} : null;
  } finally {
    c.ws.close();
  }
}

const ADVICE_MODES = ['advice', 'policy'] as const;
type AdviceMode = (typeof ADVICE_MODES)[number];

function loadCells(load: Load): string {
  const rate = Math.round(load.rate).toLocaleString('en');
  return `${rate} | ${load.p50.toFixed(2)} | ${load.p99.toFixed(2)}${load.errors ? ` (${load.errors} errors)` : ''}`;
}

/**
 * The proxy's cost: `strong` advice (mixed positions, JSON) from one process straight, through
 * nginx to that process, and through nginx to it and a second one (least_conn spreads the
 * connections), each clients row measured on the three in turn; ratios to the straight one.
 */
async function nginxRows(views: ViewJson[]): Promise<void> {
  if (nginxBinary() === null) {
    console.log(`\n(no nginx rows: ${NGINX_INSTALL_HINT})`);
    return;
  }
  const args = ['--agents', 'strong', '--log-level', 'error'];
  const processes = await Promise.all([ServeProcess.start(args), ServeProcess.start(args)]);
  const one = await NginxServer.start([processes[0].address]);
  const two = await NginxServer.start(processes.map((p) => p.address));
  const setups = [processes[0].url, one.url, two.url];
  try {
    // Both processes warmed up first (JIT), so that no cell measures a cold one.
    for (const p of processes) await advisorLoad(p.url, 'strong', 16, views, 'json');
    console.log(
      `\nthrough nginx (strong, mixed positions, JSON, ${SECONDS} s per cell; per row ${ROUNDS} rounds, each measuring straight, nginx → 1 and nginx → 2 processes in turn, the order rotated; medians, and the ratio's range over the rounds)`,
    );
    console.log(
      '\n| clients | straight: requests/s | p99 ms | nginx → 1: requests/s | p99 ms | ratio (rate) | nginx → 2: requests/s | p99 ms | ratio (rate) |',
    );
    console.log(`|${' --- |'.repeat(9)}`);
    for (const clients of [1, 16, 64]) {
      const loads: Load[][] = [[], [], []];
      for (let round = 0; round < ROUNDS; round++)
        for (let k = 0; k < setups.length; k++) {
          const setup = (k + round) % setups.length;
          loads[setup].push(await advisorLoad(setups[setup], 'strong', clients, views, 'json'));
        }
      const cells = (ls: Load[]) =>
        `${Math.round(median(ls.map((l) => l.rate))).toLocaleString('en')} | ${median(ls.map((l) => l.p99)).toFixed(1)}`;
      const ratio = (ls: Load[]) => ratioCell(ls, loads[0], (l) => l.rate);
      const errors = loads.flat().reduce((n, l) => n + l.errors, 0);
      console.log(
        `| ${clients} | ${cells(loads[0])} | ${cells(loads[1])} | ${ratio(loads[1])} | ${cells(loads[2])} | ${ratio(loads[2])} |${errors ? ` ${errors} errors` : ''}`,
      );
    }
  } finally {
    await one.dispose();
    await two.dispose();
    await Promise.all(processes.map((p) => p.stop()));
  }
}

async function opponentLoad(url: string, clients: number): Promise<string> {
  let games = 0;
  let steps = 0;
  let stop = false;
  const play = async () => {
    let onState: (m: Message) => void = () => undefined;
    const c = await connect(url, (m) => onState(m));
    while (!stop) {
      await new Promise<void>((resolve) => {
        onState = (m) => {
          if (m.type === 'game_over') {
            games++;
            resolve();
          } else if (m.type === 'state' && (m.legal as unknown[]).length > 0) {
            steps++;
            void c.request({ type: 'act', table: m.table, action: (m.legal as { action: number }[])[0].action, counter: m.counter });
          }
        };
        void c.request({ type: 'create_table', seats: ['client', 'strong'], moveDeadlineMs: null });
      });
    }
    c.ws.close();
  };
  const started = performance.now();
  const timer = setTimeout(() => {
    stop = true;
  }, SECONDS * 1000);
  await Promise.all(Array.from({ length: clients }, play));
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  return `opponent mode: ${(games / seconds).toFixed(1)} games/s (standard rules, 2 players, ${clients} clients each playing whole games against strong; ${Math.round(steps / seconds).toLocaleString('en')} client steps/s)`;
}

/** Resident memory of a process (Linux: /proc/PID/status), in MB; null elsewhere. */
function residentMb(pid: number | undefined): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/**
 * How many tables one process holds at what memory: TABLES four-seat tables (a client seat and
 * three strong bots), each created by its own connection's create_table and waiting for the client's
 * first move, the process's resident memory before and after.
 */
async function tableMemory(): Promise<void> {
  const tables = Number(process.env.BENCH_SERVE_TABLES ?? 4000);
  const server = await ServeProcess.start(['--agents', 'strong', '--workers', '0', '--max-tables', String(tables), '--log-level', 'error']);
  try {
    const connections = Array.from({ length: Math.ceil(tables / 16) }, () => connect(server.url));
    const idle = await Promise.all(connections);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = residentMb(server.pid);
    let created = 0;
    await Promise.all(
      idle.map(async (c, i) => {
        for (let k = 0; k < 16 && i * 16 + k < tables; k++) {
          const reply = await c.request({ type: 'create_table', seats: ['client', 'strong', 'strong', 'strong'], moveDeadlineMs: null });
          if (reply.type === 'table_created') created++;
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = residentMb(server.pid);
    if (before === null || after === null) return console.log('\n(table memory: /proc is not readable here)');
    const perTable = ((after - before) * 1024) / created;
    console.log(
      `\ntable memory: ${created.toLocaleString('en')} open 4-seat tables on ${idle.length} connections: resident ${before.toFixed(0)} MB → ${after.toFixed(0)} MB, ≈ ${perTable.toFixed(1)} KB a table (the connections were open before)`,
    );
    for (const c of idle) c.ws.close();
  } finally {
    await server.stop();
  }
}

/** Tables of a client and two strong bots, the client playing its first legal action: every step (bot or client) counted as the table's counter moves. */
async function tableMoves(url: string, clients: number, seconds: number): Promise<{ moves: number; seconds: number }> {
  let moves = 0;
  let stop = false;
  /** The last counter seen per table: steps are counted as the counter moves (unstreamed ones at game_over). */
  const counters = new Map<string, number>();
  const play = async () => {
    let onMessage: (m: Message) => void = () => undefined;
    const c = await connect(url, (m) => onMessage(m));
    while (!stop) {
      await new Promise<void>((resolve, reject) => {
        onMessage = (m) => {
          if (typeof m.table === 'string' && typeof m.counter === 'number') {
            moves += m.counter - (counters.get(m.table) ?? m.counter);
            counters.set(m.table, m.counter);
          }
          if (m.type === 'game_over') resolve();
          else if (m.type === 'state' && (m.legal as unknown[]).length > 0)
            void c.request({ type: 'act', table: m.table, action: (m.legal as { action: number }[])[0].action, counter: m.counter });
        };
        void c.request({ type: 'create_table', seats: ['client', 'strong', 'strong'], moveDeadlineMs: null }).then((created) => {
          if (created.type !== 'table_created') reject(new Error(`create_table refused: ${JSON.stringify(created)}`));
        });
      });
    }
    c.ws.close();
  };
  const started = performance.now();
  const timer = setTimeout(() => {
    stop = true;
  }, seconds * 1000);
  await Promise.all(Array.from({ length: clients }, play));
  clearTimeout(timer);
  return { moves, seconds: (performance.now() - started) / 1000 };
}

async function netInput(redis: Redis): Promise<number> {
  const info = await redis.info('stats');
  return Number(/total_net_input_bytes:(\d+)/.exec(info)?.[1] ?? NaN);
}

/** The Redis table store against the in-memory one: two servers side by side, measured in turns. */
async function tableStoreLoad(): Promise<void> {
  if (spawnSync('redis-server', ['--version']).status !== 0)
    return console.log('table store: no redis-server (apt-get install -y redis-server)');
  const redisServer = await RedisServer.start();
  const redis = new Redis(redisServer.url);
  const memory = await startServer('strong', MAIN, ['--workers', '0']);
  const stored = await startServer('strong', MAIN, ['--workers', '0', '--redis', redisServer.url]);
  try {
    const rounds = 5;
    const ratios: number[] = [];
    let bytes = 0;
    let storedMoves = 0;
    console.log(
      `\ntable store (${rounds} turns of ${SECONDS / 2} s on each server, 16 clients, tables of a client and two strong bots, every step counted)`,
    );
    console.log('\n| turn | in-memory moves/s | Redis moves/s | ratio | bytes into Redis per move |\n| --- | --- | --- | --- | --- |');
    for (let round = 1; round <= rounds; round++) {
      const a = await tableMoves(memory.url, 16, SECONDS / 2);
      const before = await netInput(redis);
      const b = await tableMoves(stored.url, 16, SECONDS / 2);
      const written = (await netInput(redis)) - before;
      bytes += written;
      storedMoves += b.moves;
      const ratio = b.moves / b.seconds / (a.moves / a.seconds);
      ratios.push(ratio);
      const rate = (r: { moves: number; seconds: number }) => Math.round(r.moves / r.seconds).toLocaleString('en');
      console.log(`| ${round} | ${rate(a)} | ${rate(b)} | ${ratio.toFixed(2)} | ${(written / b.moves).toFixed(0)} |`);
    }
    ratios.sort((x, y) => x - y);
    console.log(
      `\nRedis store ÷ in-memory store: ${ratios[Math.floor(rounds / 2)].toFixed(2)} (median of ${rounds}; range ${ratios[0].toFixed(2)}–${ratios[rounds - 1].toFixed(2)}; goal ≥ 0.8); ${(bytes / storedMoves).toFixed(0)} bytes into Redis per move`,
    );
  } finally {
    memory.child.kill('SIGTERM');
    stored.child.kill('SIGTERM');
    redis.disconnect();
    redisServer.dispose();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The paired ratios pick(a[i]) / pick(b[i]) of two builds' rounds as a cell: their median (range). */
function ratioCell(a: readonly Load[], b: readonly Load[], pick: (l: Load) => number): string {
  const each = a.map((l, i) => pick(l) / pick(b[i])).sort((x, y) => x - y);
  return `${median(each).toFixed(2)} (${each[0].toFixed(2)}–${each[each.length - 1].toFixed(2)})`;
}

const WARMUP_MS = Number(process.env.BENCH_SERVE_WARMUP_MS ?? 2000);

/**
 * 64 clients asking a server for `WARMUP_MS` in each encoding, unmeasured, before its rows: the
 * first seconds of a server run code the JIT has not optimised yet, and its first round would
 * measure the compiler (measured: 5,600 → 7,000 requests/s from the first round to the second).
 */
async function warmUp(url: string, agent: string, views: ViewJson[], extra: Record<string, unknown> | null): Promise<void> {
  if (extra === null) return;
  for (const encoding of ['json', 'msgpack'] as const) {
    const connections = await Promise.all(Array.from({ length: 64 }, () => connect(url, undefined, encoding)));
    await adviceClosedLoop(connections, { agent, views, warmupMs: WARMUP_MS, seconds: 0, extra });
  }
}

/**
 * Advisor mode, a row per agent, positions, kind of advice (BENCH_SERVE_MODES: advice, policy),
 * encoding and clients (BENCH_SERVE_CLIENTS, default 1,16,64,256). With a second build
 * (BENCH_SERVE_COMPARE) each row is measured ROUNDS times on both, the order alternating, and
 * shows medians and this build's ratios to the other (requests/s and p99; their range over the
 * rounds); `worlds`: the mean worlds this build's advice was played out in.
 */
async function advisorRows(servers: { name: string; url: string }[], agents: string[], sets: Record<string, ViewJson[]>): Promise<void> {
  const clientCounts = (process.env.BENCH_SERVE_CLIENTS ?? '1,16,64,256').split(',').map(Number);
  const modes = (process.env.BENCH_SERVE_MODES?.split(',') ?? ADVICE_MODES).filter((m): m is AdviceMode =>
    ADVICE_MODES.includes(m as AdviceMode),
  );
  const rounds = servers.length > 1 ? ROUNDS : 1;
  console.log(
    `advisor mode (${SECONDS} s per cell, positions of random 3-player games: every phase, or where Yaniv may be called; advice: the default request; policy: outlook: false, or an older build's default request where it explains nothing)`,
  );
  if (servers.length > 1)
    console.log(`each row measured ${rounds} times on this build and on ${servers[1].name}, alternating which goes first; medians`);
  const head = servers.map((s) => `${s.name}: requests/s | p50 ms | p99 ms`).join(' | ');
  const ratioHead = servers.length > 1 ? ' rate ratio | p99 ratio |' : '';
  const columns = 6 + 3 * servers.length + (servers.length > 1 ? 2 : 0);
  console.log(`\n| agent | positions | advice | encoding | clients | worlds | ${head} |${ratioHead}\n|${' --- |'.repeat(columns)}`);
  for (const agent of agents)
    for (const [kind, views] of Object.entries(sets))
      for (const mode of modes) {
        const extras = await Promise.all(servers.map((s) => requestFor(s.url, mode, agent, views[0])));
        if (extras[0] === null) continue;
        for (const [k, server] of servers.entries()) await warmUp(server.url, agent, views, extras[k]);
        for (const encoding of ['json', 'msgpack'] as const)
          for (const clients of clientCounts) {
            const loads: Load[][] = servers.map(() => []);
            for (let round = 0; round < rounds; round++)
              for (let k = 0; k < servers.length; k++) {
                const which = (k + round) % servers.length;
                const extra = extras[which];
                if (extra) loads[which].push(await advisorLoad(servers[which].url, agent, clients, views, encoding, extra));
              }
            const cells = loads.map((ls) =>
              ls.length === 0
                ? 'n/a | n/a | n/a'
                : loadCells({
                    rate: median(ls.map((l) => l.rate)),
                    p50: median(ls.map((l) => l.p50)),
                    p99: median(ls.map((l) => l.p99)),
                    errors: ls.reduce((n, l) => n + l.errors, 0),
                    worlds: NaN,
                  }),
            );
            const ratio = (pick: (l: Load) => number) => (loads[1].length === 0 ? 'n/a' : ratioCell(loads[0], loads[1], pick));
            const ratios = servers.length > 1 ? ` ${ratio((l) => l.rate)} | ${ratio((l) => l.p99)} |` : '';
            const worlds = median(loads[0].map((l) => l.worlds));
            const worldsCell = Number.isNaN(worlds) ? '—' : worlds.toFixed(1);
            console.log(`| ${agent} | ${kind} | ${mode} | ${encoding} | ${clients} | ${worldsCell} | ${cells.join(' | ')} |${ratios}`);
          }
      }
}

export async function run(): Promise<void> {
  if (process.env.BENCH_SERVE_ONLY === 'store') return tableStoreLoad();
  const agents = process.env.BENCH_SERVE_AGENTS?.split(',') ?? ['strong', ...(isAgentName('neural') ? ['neural'] : [])];
  const compare = process.env.BENCH_SERVE_COMPARE;
  const kinds = process.env.BENCH_SERVE_POSITIONS?.split(',') ?? ['mixed', 'callable'];
  const sets: Record<string, ViewJson[]> = {};
  for (const kind of kinds) {
    if (kind !== 'mixed' && kind !== 'callable')
      throw new RangeError(`BENCH_SERVE_POSITIONS lists mixed and/or callable (got ${JSON.stringify(kind)})`);
    sets[kind] = positions(2000, kind === 'callable');
  }
  const mixed = sets.mixed ?? positions(2000);
  if (process.env.BENCH_SERVE_ONLY === 'nginx') return nginxRows(mixed);
  if (process.env.BENCH_SERVE_ONLY === 'memory') return tableMemory();
  if (process.env.BENCH_SERVE_ONLY === 'opponent') {
    const server = await startServer('strong');
    console.log(await opponentLoad(server.url, 16));
    server.child.kill('SIGTERM');
    return;
  }
  const flags = process.env.BENCH_SERVE_FLAGS?.split(' ').filter(Boolean) ?? [];
  // Capacity, not the per-connection limit (2,000 messages a second): one client of a fast build passes it.
  const unlimited = ['--max-messages-per-second', '1000000'];
  const servers = [
    {
      name: flags.length > 0 ? `this build (${flags.join(' ')})` : 'this build',
      ...(await startServer(agents.join(','), MAIN, [...unlimited, ...flags])),
    },
  ];
  if (compare) servers.push({ name: compare, ...(await startServer(agents.join(','), path.join(compare, 'dist/cli/main.js'), unlimited)) });
  try {
    await advisorRows(servers, agents, sets);
    if (process.env.BENCH_SERVE_ONLY === 'advice') return;
    console.log('');
    console.log(await opponentLoad(servers[0].url, 16));
    await tableStoreLoad();
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
  await nginxRows(mixed);
  await tableMemory();
}
