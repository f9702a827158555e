import { describe, expect, it } from 'vitest';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';

describe('environment options', () => {
  it.each([
    [{ players: 9 }, 'env option "players" must be an integer from 2 to 8 (got 9)'],
    [{}, 'env option "players" must be an integer from 2 to 8 (missing)'],
    [{ players: 2, reward: 'x' }, 'env option "reward" must be one of "roundPenalty", "zeroSum", "zeroSumTotals", "winLoss" (got "x")'],
    [{ players: 2, rewardScale: 0 }, 'env option "rewardScale" must be a positive number (got 0)'],
    [{ players: 2, frob: 1 }, 'unknown env option "frob"; the env options are preset, rules, players'],
  ])('%j is refused, naming the option and what it takes', (options, message) => {
    expect(() => new YanivEnv(options as never)).toThrow(message);
  });
});
