import { describe, expect, it } from 'vitest';
import { envOptionsSchema } from '../../../env/gym/episode.js';
import { REWARD_SCHEMES, type RewardScheme, type EndedRound, writeRoundRewards } from '../../../env/gym/rewards.js';
import type { RoundResult } from '../../../env/rules/state.js';

// Four seats; seat 3 was eliminated before this round (points null). Seat 1 won the round with
// 0 points; seat 2 landed on a milestone (40 + 10 = 50 → 25), seat 0 went from 20 to 47.
const result: RoundResult = {
  outcome: 'yaniv',
  caller: 1,
  handValues: [27, 0, 10, null],
  points: [27, 0, 10, null],
  totals: [47, 5, 25, 210],
  eliminated: [],
  winner: 1,
};
const end = (wholeGame: boolean, gameWinner = -1): EndedRound => ({
  players: 4,
  result,
  startTotals: [20, 5, 40, 210],
  wholeGame,
  gameWinner,
});

function rewards(scheme: RewardScheme, roundEnd: EndedRound, episodeOver: boolean): number[] {
  const out = new Float32Array(6).fill(9);
  writeRoundRewards(scheme, 0.5, roundEnd, episodeOver, out, 1);
  return Array.from(out);
}

describe('reward schemes', () => {
  it('pay what each seat lost, scaled, to the seats of the round only (the others keep their value)', () => {
    expect(rewards('roundPenalty', end(true), false)).toEqual([9, -13.5, -0, -5, 9, 9]);
    // Mean of 27, 0, 10 is 37/3.
    const zeroSum = [27, 0, 10].map((p) => Math.fround(-(p - 37 / 3) * 0.5));
    expect(rewards('zeroSum', end(true), false)).toEqual([9, ...zeroSum, 9, 9]);
    // Changes of total 27, 0, −15: mean 4.
    expect(rewards('zeroSumTotals', end(true), false)).toEqual([9, -11.5, 2, 9.5, 9, 9]);
  });

  it('winLoss pays only at the end of the episode, unscaled: every seat of a game, the seats of a round', () => {
    expect(rewards('winLoss', end(true, 2), false)).toEqual([9, 9, 9, 9, 9, 9]);
    expect(rewards('winLoss', end(true, 2), true)).toEqual([9, Math.fround(-1 / 3), Math.fround(-1 / 3), 1, Math.fround(-1 / 3), 9]);
    expect(rewards('winLoss', end(false), true)).toEqual([9, -0.5, 1, -0.5, 9, 9]);
  });

  it('equity pays each seat of the round its change of equity, unscaled, every round', () => {
    const equity = { start: [0.3, 0.4, 0.3, 0], end: [0.1, 0.5, 0.4, 0] };
    expect(rewards('equity', { ...end(true), equity }, false)).toEqual([9, ...[-0.2, 0.1, 0.1].map(Math.fround), 9, 9]);
    expect(() => rewards('equity', end(true), false)).toThrow(/no game equity/);
  });

  it('are the values of the env option, whose description names each of them', () => {
    const field = envOptionsSchema.shape.reward;
    for (const scheme of REWARD_SCHEMES) {
      expect(field.parse(scheme)).toBe(scheme);
      expect(field.description).toContain(`"${scheme}"`);
    }
    expect(REWARD_SCHEMES).toEqual(['roundPenalty', 'zeroSum', 'zeroSumTotals', 'winLoss', 'equity']);
  });
});
