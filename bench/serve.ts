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
// the bytes Redis receives per move.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Packr } from 'msgpackr';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { RedisServer } from '../scripts/redisServer.js';
import { DEFAULT_PRESET, YANIV_ACTION, YanivEnv, randomLegalAction, seededRng } from '../env/index.js';
import { isAgentName } from '../agents/registry.js';
import { type ViewJson, viewToJson } from '../serve/viewJson.js';

const MAIN = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const SECONDS = Number(process.env.BENCH_SERVE_SECONDS ?? 4);

type Message = { type: string; id?: number; [key: string]: unknown };

/** Starts `yaniv serve` on a free port; resolves with its URL. */
function startServer(agents: string, main = MAIN, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [main, 'serve', '--port', '0', '--log-level', 'error', '--agents', agents, ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /ws:\/\/[^ ]+\//.exec(out)?.[0];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`yaniv serve exited with ${code}`)));
  });
}

/** A connection with request/reply by id and a handler for other messages. */
const packr = new Packr({ useRecords: false, mapsAsObjects: true });
type Encoding = 'json' | 'msgpack';

async function connect(url: string, onOther: (m: Message) => void = () => undefined, encoding: Encoding = 'json') {
  const ws = new WebSocket(url, `yaniv.v1.${encoding}`, { perMessageDeflate: false });
  const waiting = new Map<number, (m: Message) => void>();
  let next = 1;
  ws.on('message', (data) => {
    const m = (encoding === 'json' ? JSON.parse((data as Buffer).toString()) : packr.unpack(data as Buffer)) as Message;
    const resolve = m.id !== undefined ? waiting.get(m.id) : undefined;
    if (resolve) {
      waiting.delete(m.id as number);
      resolve(m);
    } else onOther(m);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const request = (m: Record<string, unknown>) =>
    new Promise<Message>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      ws.send(encoding === 'json' ? JSON.stringify({ ...m, id }) : packr.pack({ ...m, id }));
    });
  await request({ type: 'hello', version: 1, client: 'bench' });
  return { ws, request };
}

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

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

async function advisorLoad(url: string, agent: string, clients: number, views: ViewJson[], encoding: Encoding): Promise<string> {
  const connections = await Promise.all(Array.from({ length: clients }, () => connect(url, undefined, encoding)));
  const latencies: number[] = [];
  let errors = 0;
  const run = async (c: Awaited<ReturnType<typeof connect>>, i: number, until: number, record: boolean) => {
    for (let k = i; performance.now() < until; k += clients) {
      const started = performance.now();
      const reply = await c.request({ type: 'advise', agent, view: views[k % views.length] });
      if (!record) continue;
      if (reply.type !== 'advice') errors++;
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(connections.map((c, i) => run(c, i, performance.now() + 500, false)));
  const started = performance.now();
  await Promise.all(connections.map((c, i) => run(c, i, started + SECONDS * 1000, true)));
  const seconds = (performance.now() - started) / 1000;
  for (const c of connections) c.ws.close();
  latencies.sort((a, b) => a - b);
  const rate = Math.round(latencies.length / seconds).toLocaleString('en');
  return `${rate} | ${percentile(latencies, 0.5).toFixed(2)} | ${percentile(latencies, 0.99).toFixed(2)}${errors ? ` (${errors} errors)` : ''}`;
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

export async function run(): Promise<void> {
  if (process.env.BENCH_SERVE_ONLY === 'store') return tableStoreLoad();
  const agents = ['strong', ...(isAgentName('neural') ? ['neural'] : [])];
  const compare = process.env.BENCH_SERVE_COMPARE;
  const servers = [{ name: 'this build', ...(await startServer(agents.join(','))) }];
  if (compare) servers.push({ name: compare, ...(await startServer(agents.join(','), path.join(compare, 'dist/cli/main.js'))) });
  try {
    const sets = { mixed: positions(2000), callable: positions(2000, true) };
    console.log(`advisor mode (${SECONDS} s per row, positions of random 3-player games: every phase, or where Yaniv may be called)`);
    if (compare) console.log(`each row measured on this build, then on ${compare}, one after the other`);
    const head = servers.map((s) => `${s.name}: requests/s | p50 ms | p99 ms`).join(' | ');
    console.log(`\n| agent | positions | encoding | clients | ${head} |\n|${' --- |'.repeat(4 + 3 * servers.length)}`);
    for (const agent of agents)
      for (const [kind, views] of Object.entries(sets))
        for (const encoding of ['json', 'msgpack'] as const)
          for (const clients of [1, 16, 64, 256]) {
            const cells: string[] = [];
            for (const server of servers) cells.push(await advisorLoad(server.url, agent, clients, views, encoding));
            console.log(`| ${agent} | ${kind} | ${encoding} | ${clients} | ${cells.join(' | ')} |`);
          }
    console.log('');
    console.log(await opponentLoad(servers[0].url, 16));
    await tableStoreLoad();
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
}
