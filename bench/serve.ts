// The bot server under load, on loopback: `yaniv serve` runs as its own process (main thread +
// inference workers) and this process is the load generator. Advisor mode: C clients, each
// with one request in flight at a time (a closed loop), asking about positions of random games
// (every phase); requests/s and p50/p99 latency at 1, 16, 64 and 256 clients. Opponent mode:
// 16 clients each playing whole standard games against strong (the client plays its first
// legal action), games/s. The trained model is measured too once the registry has one.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { DEFAULT_PRESET, YanivEnv, randomLegalAction, seededRng } from '../env/index.js';
import { isAgentName } from '../agents/registry.js';
import { type ViewJson, viewToJson } from '../serve/viewJson.js';

const MAIN = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const SECONDS = Number(process.env.BENCH_SERVE_SECONDS ?? 4);

type Message = { type: string; id?: number; [key: string]: unknown };

/** Starts `yaniv serve` on a free port; resolves with its URL. */
function startServer(agents: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--log-level', 'error', '--agents', agents], {
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
async function connect(url: string, onOther: (m: Message) => void = () => undefined) {
  const ws = new WebSocket(url, 'yaniv.v1.json', { perMessageDeflate: false });
  const waiting = new Map<number, (m: Message) => void>();
  let next = 1;
  ws.on('message', (data) => {
    const m = JSON.parse((data as Buffer).toString()) as Message;
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
      ws.send(JSON.stringify({ ...m, id }));
    });
  await request({ type: 'hello', version: 1, client: 'bench' });
  return { ws, request };
}

/** Views of the player to move in random 3-player games, every phase. */
function positions(count: number): ViewJson[] {
  const views: ViewJson[] = [];
  const rng = seededRng(1);
  for (let game = 0; views.length < count; game++) {
    const env = new YanivEnv({ players: 3, episode: 'round' });
    let { info } = env.reset({ seed: game });
    while (!env.done && views.length < count) {
      views.push(viewToJson(env.view(info.currentPlayer), DEFAULT_PRESET, {}));
      ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
    }
  }
  return views;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

async function advisorLoad(url: string, agent: string, clients: number, views: ViewJson[]): Promise<string> {
  const connections = await Promise.all(Array.from({ length: clients }, () => connect(url)));
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
  return `| ${agent} | ${clients} | ${Math.round(latencies.length / seconds).toLocaleString('en')} | ${percentile(latencies, 0.5).toFixed(2)} | ${percentile(latencies, 0.99).toFixed(2)} |${errors ? ` ${errors} errors` : ''}`;
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

export async function run(): Promise<void> {
  const agents = ['strong', ...(isAgentName('neural') ? ['neural'] : [])];
  const { child, url } = await startServer(agents.join(','));
  try {
    const views = positions(2000);
    console.log(`advisor mode (JSON, ${SECONDS} s per row, positions of random 3-player games in every phase):\n`);
    console.log('| agent | clients | requests/s | p50 ms | p99 ms |\n| --- | --- | --- | --- | --- |');
    for (const agent of agents) {
      for (const clients of [1, 16, 64, 256]) console.log(await advisorLoad(url, agent, clients, views));
    }
    console.log('');
    console.log(await opponentLoad(url, 16));
  } finally {
    child.kill('SIGTERM');
  }
}
