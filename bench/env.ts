// Environment throughput: random legal action ids (from the env's legal-id list), with the observation
// and the mask encoded at every step, one thread. Standard rules, 4 players, whole games.
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { randomInt, seededRng, type Rng } from '../env/rules/random.js';
import { VecEnv } from '../env/gym/vecEnv.js';
import { YanivEnv } from '../env/gym/yanivEnv.js';

/** A uniformly random legal id from the env's list of legal ids. */
function pick(ids: Int16Array, offset: number, count: number, rng: Rng): number {
  return ids[offset + randomInt(rng, 0, count - 1)];
}

/** Wall seconds and the CPU seconds this process used: on a busy machine the CPU figure is the honest one. */
export interface EnvBenchResult {
  steps: number;
  episodes: number;
  seconds: number;
  cpuSeconds: number;
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

export function measureSingle(seconds: number, history: boolean, players = 4): EnvBenchResult {
  const env = new YanivEnv({ players, history });
  const rng = seededRng(7);
  let { info } = env.reset({ seed: 1 });
  let steps = 0;
  let episodes = 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < deadline) {
    for (let k = 0; k < 1000; k++) {
      const result = env.step(pick(info.legalIds, 0, info.legalCount, rng));
      info = result.info;
      steps++;
      if (result.terminated || result.truncated) {
        episodes++;
        info = env.reset().info;
      }
    }
  }
  return { steps, episodes, seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuSeconds: cpuSecondsSince(cpu) };
}

export function measureVec(seconds: number, num: number, players = 4): EnvBenchResult {
  const vec = new VecEnv({ num, players });
  const rng = seededRng(7);
  const actions = new Int32Array(num);
  vec.reset(1);
  let steps = 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < num; i++) actions[i] = pick(vec.legalIds, i * ACTION_COUNT, vec.legalCounts[i], rng);
    vec.step(actions);
    steps += num;
  }
  return { steps, episodes: vec.episodes, seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuSeconds: cpuSecondsSince(cpu) };
}

function rate(r: EnvBenchResult): string {
  return `${(r.steps / r.cpuSeconds / 1e6).toFixed(2)} M steps per CPU-second (${(r.steps / r.seconds / 1e6).toFixed(2)} M/s wall)`;
}

export function run(): void {
  measureSingle(0.5, false);
  const bare = measureSingle(3, false);
  const recorded = measureSingle(3, true);
  console.log(
    `YanivEnv, random legal ids:        ${rate(bare)} (history off; ${(bare.steps / Math.max(1, bare.episodes)).toFixed(0)} steps per game)`,
  );
  console.log(`YanivEnv, with history (default):  ${rate(recorded)}`);
  for (const num of [64, 256, 1024]) {
    measureVec(0.5, num);
    const r = measureVec(3, num);
    console.log(`VecEnv N=${String(num).padEnd(5)}                   ${rate(r)} (${r.episodes} games, auto-reset)`);
  }
  console.log('(steps include observation and mask encoding; the random policy samples from the legal-id list, not by scanning the mask)');
}
