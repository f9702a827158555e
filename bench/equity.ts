// The game equity: solving the shipped heads-up equity (value iteration over both totals and the
// starter), and the cost of the "equity" reward to a VecEnv step beside the default reward.
import { readEquityData, shippedEquityFile } from '../agents/equity.js';
import { solveHeadsUpEquity } from '../env/gym/equity.js';
import { VecEnv } from '../env/gym/vecEnv.js';
import { resolveRules } from '../env/rules/rules.js';
import { randomInt, seededRng } from '../env/rules/random.js';

function stepsPerSecond(env: VecEnv, steps: number): number {
  const rng = seededRng(1);
  const actions = new Int32Array(env.num);
  const started = performance.now();
  for (let t = 0; t < steps; t++) {
    for (let i = 0; i < env.num; i++) actions[i] = env.legalIds[i * env.actionCount + randomInt(rng, 0, env.legalCounts[i] - 1)];
    env.step(actions);
  }
  return (steps * env.num) / ((performance.now() - started) / 1000);
}

export function run(): void {
  const data = readEquityData(shippedEquityFile('standard', 2));
  const started = performance.now();
  const equity = solveHeadsUpEquity(resolveRules({ preset: data.preset, rules: data.overrides, players: 2 }), data.model);
  console.log(
    `solve (standard, heads-up, ${data.model.outcomes.length} outcomes): ${((performance.now() - started) / 1000).toFixed(2)} s, ${equity.sweeps} sweeps`,
  );
  const plain = new VecEnv({ num: 64, players: 2, reward: 'zeroSumTotals' });
  const withEquity = new VecEnv({ num: 64, players: 2, reward: 'equity', equity });
  plain.reset(1);
  withEquity.reset(1);
  // Alternate, so that both see the same machine load.
  let a = 0;
  let b = 0;
  for (let k = 0; k < 3; k++) {
    a += stepsPerSecond(plain, 2000);
    b += stepsPerSecond(withEquity, 2000);
  }
  console.log(
    `VecEnv N=64 random steps: zeroSumTotals ${(a / 3 / 1e6).toFixed(2)} M/s, equity ${(b / 3 / 1e6).toFixed(2)} M/s (ratio ${(b / a).toFixed(2)})`,
  );
}
