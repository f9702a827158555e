// The advisor with explanations (every move worth weighing played out: serve/inference/winChance.ts) at its
// default budget, as a client meets it: `yaniv serve` in its own process, one client asking
// about positions of random games at 2, 4 and 8 seats one request at a time (mean, p50, p99 ms;
// target mean ≤ 20 ms, p99 ≤ 100 ms), then 16 clients at once (the inference workers batch the
// model's calls; each advice's playouts stay its own). The machine's load is printed beside.
import os from 'node:os';
import { DEFAULT_PRESET, YanivEnv, randomLegalAction, seededRng } from '../env/index.js';
import { isAgentName } from '../agents/registry.js';
import { OUTLOOK_CANDIDATES, OUTLOOK_DEFAULTS } from '../agents/equity/moveOutlook.js';
import { type ViewJson, viewToJson } from '../serve/protocol/viewJson.js';
import { adviceClosedLoop, connect, percentile, startServer } from './serveClient.js';

const SECONDS = Number(process.env.BENCH_ADVICE_SECONDS ?? 6);

/** Views of the player to move in random games at this table size, every phase. */
function positions(players: number, count: number): ViewJson[] {
  const views: ViewJson[] = [];
  const rng = seededRng(players);
  for (let game = 0; views.length < count; game++) {
    const env = new YanivEnv({ players, episode: 'round' });
    let { info } = env.reset({ seed: game });
    while (!env.done && views.length < count) {
      views.push(viewToJson(env.view(info.currentPlayer), DEFAULT_PRESET, {}));
      ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
    }
  }
  return views;
}

interface AdviceLoad {
  requests: number;
  rate: number;
  mean: number;
  p50: number;
  p99: number;
  errors: number;
}

async function adviceLoad(url: string, agent: string, clients: number, views: ViewJson[]): Promise<AdviceLoad> {
  const connections = await Promise.all(Array.from({ length: clients }, () => connect(url)));
  // Warm-up: the models load, and the equity of a table size without shipped data is measured once.
  const { latencies, seconds, errors } = await adviceClosedLoop(connections, {
    agent,
    views,
    warmupMs: 1500,
    seconds: SECONDS,
    seeded: true,
  });
  return {
    requests: latencies.length,
    rate: latencies.length / seconds,
    mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
  };
}

export async function run(): Promise<void> {
  const agents = isAgentName('neural') ? ['neural', 'strong'] : ['strong'];
  const server = await startServer(agents.join(','));
  try {
    console.log(
      `advice with explanations: ${OUTLOOK_DEFAULTS.worlds} worlds × up to ${OUTLOOK_CANDIDATES} moves played out per request, positions of random games (every phase), JSON, ${SECONDS} s per row; load average before: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      '\n| agent | players | clients | requests | requests/s | mean ms | p50 ms | p99 ms |\n| --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const agent of agents)
      for (const players of [2, 4, 8]) {
        const views = positions(players, 1000);
        for (const clients of [1, 16]) {
          const load = await adviceLoad(server.url, agent, clients, views);
          const cells = [load.requests, load.rate.toFixed(1), load.mean.toFixed(1), load.p50.toFixed(1), load.p99.toFixed(1)];
          console.log(`| ${agent} | ${players} | ${clients} | ${cells.join(' | ')}${load.errors ? ` (${load.errors} errors)` : ''} |`);
        }
      }
    console.log(
      `\nload average after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (goal at one client: mean ≤ 20 ms, p99 ≤ 100 ms)`,
    );
  } finally {
    server.child.kill('SIGTERM');
  }
}
