/** The game equity data a run with reward "equity" hands its actors, one per table size: the file named, or the ones shipped for its rules. */
import { readEquityData, shippedEquityFile } from '../agents/equity/equity.js';
import { type EquityData, EquityError } from '../env/gym/equityData.js';
import type { HyperParameters, RunOptions } from './config.js';

export function rewardEquity(
  hp: Pick<HyperParameters, 'reward' | 'equityFile' | 'critic'>,
  run: Pick<RunOptions, 'preset' | 'rules' | 'players'>,
): EquityData[] | null {
  if (hp.critic === 'rollout' && hp.reward !== 'equity')
    throw new EquityError('--critic rollout values each round played out by the game equity: it needs --reward equity');
  if (hp.reward !== 'equity') return null;
  const sizes = [...new Set(run.players)];
  if (hp.equityFile !== null && sizes.length > 1)
    throw new EquityError(
      `--equity-file names one table size's equity, the run plays ${sizes.join(',')} seats: leave it out to use the shipped ones`,
    );
  return sizes.map((players) => {
    const data = readEquityData(hp.equityFile ?? shippedEquityFile(run.preset, players));
    if (data.players !== players) throw new EquityError(`the equity data is for ${data.players} seats, the run plays ${players}`);
    if (data.preset !== run.preset || JSON.stringify(data.overrides) !== JSON.stringify(run.rules))
      throw new EquityError(
        `the equity data was measured under ${data.preset} ${JSON.stringify(data.overrides)}, the run plays ${run.preset} ${JSON.stringify(run.rules)}`,
      );
    return data;
  });
}
