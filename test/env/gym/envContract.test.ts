// The environment contract (test/env/envContract.ts) on the Gym layer's wrappers of an Episode:
// YanivEnv, VecEnv (one game; its auto-reset ends our episode) and the Table they play through.
import { Episode, ONGOING, TERMINATED, parseEnvOptions } from '../../../env/gym/episode.js';
import { Table } from '../../../env/gym/table.js';
import { VecEnv } from '../../../env/gym/vecEnv.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';
import { ACTION_COUNT } from '../../../env/gym/actionLayout.js';
import { MAX_PLAYERS } from '../../../env/rules/rules.js';
import { type ContractStep, envContract } from '../envContract.js';

const statusOf = (status: number): ContractStep['status'] =>
  status === ONGOING ? 'ongoing' : status === TERMINATED ? 'terminated' : 'truncated';

envContract({
  name: 'YanivEnv',
  make(options) {
    const env = new YanivEnv({ ...options, history: true });
    const show = ({ observation, info }: ReturnType<YanivEnv['reset']>, status: ContractStep['status']): ContractStep => ({
      seat: info.currentPlayer,
      legalIds: Array.from(info.legalIds.subarray(0, info.legalCount)),
      mask: info.actionMask.slice(),
      ...(status === 'ongoing' ? { observation: observation.slice() } : {}),
      rewards: info.rewards.slice(),
      status,
    });
    return {
      reset: (seed) => show(env.reset({ seed }), 'ongoing'),
      step: (action) => {
        const result = env.step(action);
        return show(result, result.terminated ? 'terminated' : result.truncated ? 'truncated' : 'ongoing');
      },
      record: () => env.exportPosition().record,
    };
  },
});

envContract({
  name: 'VecEnv',
  make(options) {
    const env = new VecEnv({ ...options, num: 1 });
    const show = (status: ContractStep['status']): ContractStep => ({
      seat: status === 'ongoing' ? env.currentPlayers[0] : -1,
      legalIds: status === 'ongoing' ? Array.from(env.legalIds.subarray(0, env.legalCounts[0])) : [],
      ...(status === 'ongoing' ? { mask: env.masks.slice(0, ACTION_COUNT), observation: env.observations.slice() } : {}),
      rewards: env.rewards.slice(0, MAX_PLAYERS),
      status,
    });
    return {
      reset: (seed) => {
        env.reset(seed);
        return show('ongoing');
      },
      step: (action) => {
        env.step([action]);
        return show(env.terminated[0] ? 'terminated' : env.truncated[0] ? 'truncated' : 'ongoing');
      },
    };
  },
});

envContract({
  name: 'Table (env/gym/table.ts)',
  make(options) {
    const table = new Table(new Episode(parseEnvOptions({ ...options, history: true })));
    const show = (status: ContractStep['status']): ContractStep => ({
      seat: table.seat,
      legalIds: Array.from(table.legalIds.subarray(0, table.legalCount)),
      mask: table.mask.slice(),
      ...(status === 'ongoing' ? { observation: table.observation.slice() } : {}),
      rewards: table.rewards.slice(),
      status,
    });
    return {
      reset: (seed) => {
        table.reset({ seed });
        return show('ongoing');
      },
      step: (action) => show(statusOf(table.step(action))),
      record: () => {
        const history = table.episode.history;
        if (!history) throw new Error('no history');
        return history.toPosition(table.episode.state).record;
      },
    };
  },
});
