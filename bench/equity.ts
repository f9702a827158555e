// The game equity: making each shipped equity from its data (heads-up: value iteration over both
// totals and the starter; 3–8 seats: the learned predictor, plus the cost of one table's
// equities), and the cost of the "equity" reward to a VecEnv step beside the default reward.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { EQUITY_DIR, readEquityData, solveEquityData } from '../agents/equity/equity.js';
import { packageRoot } from '../agents/models/modelFolder.js';
import { type GameEquity, seatEquities } from '../env/gym/equity.js';
import { isHeadsUpData } from '../env/gym/equityData.js';
import { VecEnv } from '../env/gym/vecEnv.js';
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

/** Microseconds for one table's equities from random totals (all seats in, seat 0 starting). */
function microsPerTable(equity: GameEquity): number {
  const rng = seededRng(2);
  const active = Array<boolean>(equity.players).fill(true);
  const tables = Array.from({ length: 1000 }, () => Array.from(active, () => randomInt(rng, 0, equity.rules.eliminationLimit)));
  const started = performance.now();
  let sink = 0;
  for (let k = 0; k < 20; k++) for (const totals of tables) sink += seatEquities(equity, totals, active, 0)[0];
  if (sink < 0) throw new Error('unreachable');
  return ((performance.now() - started) * 1000) / 20_000;
}

/** Makes every shipped equity from its file (a fresh copy of the data, so that no cached solve is reused); returns the heads-up standard one. */
function solveShipped(): GameEquity | null {
  const dir = path.join(packageRoot(), EQUITY_DIR);
  let headsUp: GameEquity | null = null;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const data = readEquityData(path.join(dir, file));
    const started = performance.now();
    const equity = solveEquityData(data, { cache: false });
    const seconds = (performance.now() - started) / 1000;
    const how = isHeadsUpData(data)
      ? `solved from ${data.model.outcomes.length} round outcomes`
      : `learned from ${data.states} tables of ${data.games} games`;
    console.log(`${file} (${how}): ${seconds.toFixed(3)} s to make, ${microsPerTable(equity).toFixed(2)} µs a table`);
    if (data.players === 2 && data.preset === 'standard') headsUp = equity;
  }
  return headsUp;
}

export function run(): void {
  const equity = solveShipped();
  if (!equity) return;
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
