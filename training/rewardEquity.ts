/** The game equity data a run with reward "equity" hands its actors: the file named, or the one shipped for its rules. */
import { readEquityData, shippedEquityFile } from '../agents/equity.js';
import { type EquityData, EquityError } from '../env/gym/equity.js';
import type { HyperParameters, RunOptions } from './config.js';

export function rewardEquity(
  hp: Pick<HyperParameters, 'reward' | 'equityFile'>,
  run: Pick<RunOptions, 'preset' | 'rules' | 'players'>,
): EquityData | null {
  if (hp.reward !== 'equity') return null;
  if (run.players.some((n) => n !== 2))
    throw new EquityError(`--reward equity is heads-up only today: train with --players 2 (got ${run.players.join(',')})`);
  const data = readEquityData(hp.equityFile ?? shippedEquityFile(run.preset, 2));
  if (data.preset !== run.preset || JSON.stringify(data.overrides) !== JSON.stringify(run.rules))
    throw new EquityError(
      `the equity data was measured under ${data.preset} ${JSON.stringify(data.overrides)}, the run plays ${run.preset} ${JSON.stringify(run.rules)}`,
    );
  return data;
}
