// The TypeScript side of python/tests/test_same_as_typescript.py: plays a seeded run of the env
// the way the Python test plays it through the bridge (action = the legal ids' entry number
// (step · 7919 + 13) mod their count), and prints the sha256 of every observation it saw and
// every seat's summed rewards. Usage: node dist/test/python/envTrace.js '{"kind":"aec",...}'.
import { createHash } from 'node:crypto';
import { createAgentFor } from '../../agents/resolve.js';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import type { EnvOptions } from '../../env/gym/episode.js';
import { SingleAgentEnv } from '../../env/gym/singleAgent.js';
import { VecEnv } from '../../env/gym/vecEnv.js';
import { YanivEnv } from '../../env/gym/yanivEnv.js';

interface Trace {
  kind: 'aec' | 'single' | 'vector';
  env: EnvOptions;
  seed: number;
  steps: number;
  opponents?: string;
  num?: number;
}

const choose = (step: number, count: number): number => (step * 7919 + 13) % count;
const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

async function run(trace: Trace): Promise<{ sha256: string; rewards: number[]; episodes: number }> {
  const hash = createHash('sha256');
  let episodes = 0;
  if (trace.kind === 'vector') {
    const num = trace.num ?? 1;
    const vec = new VecEnv({ ...trace.env, num });
    const rewards = new Array<number>(vec.config.players).fill(0);
    vec.reset(trace.seed);
    hash.update(bytes(vec.observations));
    const actions = new Int32Array(num);
    for (let step = 0; step < trace.steps; step++) {
      for (let i = 0; i < num; i++) actions[i] = vec.legalIds[i * ACTION_COUNT + choose(step + i, vec.legalCounts[i])];
      vec.step(actions);
      hash.update(bytes(vec.observations));
      for (let i = 0; i < num; i++) for (let s = 0; s < rewards.length; s++) rewards[s] += vec.rewards[i * 8 + s];
    }
    return { sha256: hash.digest('hex'), rewards, episodes: vec.episodes };
  }
  if (trace.kind === 'single') {
    const env = new SingleAgentEnv({
      ...trace.env,
      history: false,
      opponents: await createAgentFor(trace.opponents ?? 'random', { players: 2 }),
    });
    let { observation, info } = env.reset({ seed: trace.seed });
    hash.update(bytes(observation));
    let reward = 0;
    for (let step = 0; step < trace.steps; step++) {
      const result = env.step(info.legalIds[choose(step, info.legalCount)]);
      hash.update(bytes(result.observation));
      reward += result.reward;
      ({ observation, info } = result.terminated || result.truncated ? (episodes++, env.reset()) : result);
      if (result.terminated || result.truncated) hash.update(bytes(observation));
    }
    return { sha256: hash.digest('hex'), rewards: [reward], episodes };
  }
  const env = new YanivEnv({ ...trace.env, history: false });
  const rewards = new Array<number>(env.players).fill(0);
  let { info } = env.reset({ seed: trace.seed });
  hash.update(bytes(env.table.observation));
  for (let step = 0; step < trace.steps; step++) {
    const result = env.step(info.legalIds[choose(step, info.legalCount)]);
    hash.update(bytes(result.observation));
    result.info.rewards.forEach((r, s) => (rewards[s] += r));
    info = result.info;
    if (result.terminated || result.truncated) {
      episodes++;
      info = env.reset().info;
      hash.update(bytes(env.table.observation));
    }
  }
  return { sha256: hash.digest('hex'), rewards, episodes };
}

process.stdout.write(JSON.stringify(await run(JSON.parse(process.argv[2]) as Trace)) + '\n');
