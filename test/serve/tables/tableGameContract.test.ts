// The environment contract (test/env/envContract.ts) on the server's table game: whole games with
// the default reward, played through the Gym Table (serve/tables/tableGame.ts); its record replays.
import { TableGame } from '../../../serve/tables/tableGame.js';
import { type ContractStep, envContract } from '../../env/envContract.js';

envContract({
  name: 'the server’s TableGame',
  takes: (options) => options.episode === 'game' && (options.reward ?? 'zeroSum') === 'zeroSum' && options.rewardScale === undefined,
  make(options) {
    let game: TableGame | null = null;
    const show = (played: TableGame): ContractStep => ({
      seat: played.toMove ?? -1,
      legalIds: played.over ? [] : played.legalIds(),
      mask: played.table.mask.slice(),
      ...(played.over ? {} : { observation: played.table.observation.slice() }),
      rewards: played.table.rewards.slice(),
      status: !played.over ? 'ongoing' : played.truncated ? 'truncated' : 'terminated',
    });
    const current = () => {
      if (game === null) throw new Error('reset first');
      return game;
    };
    return {
      reset: (seed) => {
        game = new TableGame({
          preset: options.preset ?? 'standard',
          rules: {},
          players: options.players ?? 2,
          seed,
          maxTurns: options.maxTurns ?? undefined,
        });
        return show(game);
      },
      step: (action) => {
        current().step(action);
        return show(current());
      },
      record: () => current().record(),
    };
  },
});
