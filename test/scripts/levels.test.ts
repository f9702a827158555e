// scripts/levels.ts plan: the levels' temperatures are read off a rating-against-temperature run,
// for ratings evenly spaced from the lowest to the best bot's; a run that rated the levels of a
// file themselves (level:1 … level:L) re-plans through that file's temperatures.
import { describe, expect, it } from 'vitest';
import { LEVELS_FORMAT, type LevelsFile } from '../../agents/level.js';
import { type RateReport, plan } from '../../scripts/levels.js';

const report = (ratings: Record<string, number>): RateReport => ({
  config: { agents: Object.keys(ratings), games: 100, players: 5, seed: 1, preset: 'standard', rules: {} },
  results: {
    anchor: 'intermediate',
    anchorRating: 1500,
    ratings: Object.entries(ratings).map(([agent, rating]) => ({ agent, rating, low: rating - 20, high: rating + 20 })),
  } as RateReport['results'],
});

const levelsAt = (temperatures: number[]): LevelsFile => ({
  format: LEVELS_FORMAT,
  preset: 'standard',
  players: 5,
  best: 'neural',
  anchor: 'intermediate',
  anchorRating: 1500,
  ratedBy: 'planned',
  reference: {},
  levels: temperatures.map((temperature, i) => ({ level: i + 1, temperature, yanivShare: 1, rating: 0, low: 0, high: 0 })),
});

describe('levels.js plan', () => {
  it('reads the temperatures off the rated settings, the top level the best bot itself', () => {
    const planned = plan(
      report({ neural: 2100, 'level?temperature=4': 1900, 'level?temperature=9': 1500, intermediate: 1500 }),
      3,
      1500,
      'neural',
      null,
    );
    // 1800 is a quarter of the way from T = 4 (1900) to T = 9 (1500), linear in log(1 + T).
    const between = Math.expm1(Math.log1p(4) + 0.25 * (Math.log1p(9) - Math.log1p(4)));
    expect(planned.levels.map((l) => [l.temperature, l.rating])).toEqual([
      [9, 1500],
      [Number(between.toFixed(2)), 1800],
      [0, 2100],
    ]);
    expect(planned.ratedBy).toMatch(/^planned from: yaniv rate /);
  });

  it('re-plans from a run of the levels themselves through the file they were rated from', () => {
    const first = levelsAt([12, 6, 3, 0]);
    const measured = report({ 'level:1': 1500, 'level:2': 1800, 'level:3': 2050, 'level:4': 2100, intermediate: 1500 });
    const planned = plan(measured, 4, 1500, 'neural', first);
    expect(planned.levels.map((l) => l.rating)).toEqual([1500, 1700, 1900, 2100]);
    expect(planned.levels[0].temperature).toBe(12);
    expect(planned.levels.at(-1)?.temperature).toBe(0);
    // 1900 lies between level 2 (T = 6, 1800) and level 3 (T = 3, 2050): a temperature between theirs.
    expect(planned.levels[2].temperature).toBeGreaterThan(3);
    expect(planned.levels[2].temperature).toBeLessThan(6);
    expect(() => plan(measured, 4, 1500, 'neural', null)).toThrow(/neural was not rated/);
  });
});
