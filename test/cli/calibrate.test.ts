// `yaniv calibrate` through the real entry point, and the reliability figures it is made of
// (agents/equity/calibration.ts): deciles of the shown chance against the share won, Wilson intervals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Shown, reliability, wilson, worstGap } from '../../agents/equity/calibration.js';
import { readCalibrationCheck } from '../../agents/equity/calibrationChecks.js';
import { resolveAgent } from '../../agents/resolve.js';
import { unratedTable } from '../agents/levelSizes.js';
import { scratchFolder, yaniv, yanivWithin } from './processes.js';

const folder = scratchFolder('yaniv-calibrate-');

describe('reliability by decile', () => {
  it('bins positions by the chance shown and counts the share won, each with its Wilson interval', () => {
    const shown: Shown[] = [
      { shown: 0.05, raw: 0.05, won: false, game: 0 },
      { shown: 0.08, raw: 0.08, won: true, game: 0 },
      { shown: 0.55, raw: 0.55, won: true, game: 1 },
      { shown: 1, raw: 1, won: true, game: 1 },
    ];
    const deciles = reliability(shown);
    expect(deciles.map((d) => [d.low, d.positions, d.actual])).toEqual([
      [0, 2, 0.5],
      [0.5, 1, 1],
      [0.9, 1, 1],
    ]);
    expect(deciles[0].predicted).toBeCloseTo(0.065, 12);
    for (const d of deciles) expect(d.actualLow <= d.actual && d.actual <= d.actualHigh).toBe(true);
  });

  it('judges a decile only when its 95% interval is within ±3 points, and takes the worst gap over those', () => {
    const positions = (n: number, shown: number, wonShare: number): Shown[] =>
      Array.from({ length: n }, (_, i) => ({ shown, raw: shown, won: i < n * wonShare, game: i }));
    // Near 50% the half-width reaches 3 points at about 1,070 positions; near 5%, about 200.
    const [rare, few, many] = reliability([...positions(1100, 0.55, 0.5), ...positions(1000, 0.4, 0.5), ...positions(250, 0.05, 0.04)]);
    expect([few.judged, many.judged, rare.judged]).toEqual([false, true, true]);
    expect((many.actualHigh - many.actualLow) / 2).toBeLessThanOrEqual(0.03);
    expect(worstGap([many, few, rare])).toBeCloseTo(0.05, 12);
  });

  it('gives the textbook Wilson interval', () => {
    const [low, high] = wilson(50, 100);
    expect(low).toBeCloseTo(0.4038, 3);
    expect(high).toBeCloseTo(0.5962, 3);
    expect(wilson(0, 0)).toEqual([0, 1]);
  });
});

describe('yaniv calibrate', () => {
  it('plays the catalog’s model for each table: neural at four seats the four-seat model, level:3 at a size with no levels rated there over the catalog’s model for that size', () => {
    const run = (agent: string, players = '4', preset = 'standard') =>
      yanivWithin(120_000, 'calibrate', '--agent', agent, '--players', players, '--rules', preset, '--games', '1', '--worlds', '2');
    const neural = run('neural');
    expect(neural.code, neural.stderr).toBe(0);
    expect(neural.stderr).toMatch(/yaniv calibrate: neural plays models\/standard-4 \(trained for standard at 4 seats\)/);
    const { preset, unrated, nearest } = unratedTable();
    const level = run('level:3', String(unrated), preset);
    expect(level.code, level.stderr).toBe(0);
    const folder = resolveAgent('neural', { preset, players: unrated }).model?.folder;
    expect(level.stderr).toContain(`yaniv calibrate: level:3 plays ${folder} (nearest-size)`);
    expect(level.stderr).toContain(`warning: level:3 plays its level rated at ${nearest} seats at ${unrated}`);
  }, 120_000);

  it('plays games, shows the chance at positions and writes the figures and the diagram', () => {
    const json = join(folder(), 'calibration.json');
    const chart = join(folder(), 'calibration.svg');
    const child = yanivWithin(
      120_000,
      'calibrate',
      '--players',
      '2',
      '--games',
      '3',
      '--worlds',
      '4',
      '--seed',
      '5',
      '--json',
      json,
      '--chart',
      chart,
    );
    expect(child.code, child.stderr).toBe(0);
    expect(child.stdout).toMatch(/2 players: \d+ positions from 3 games/);
    // What the shipped held-out checks are read with (models/calibration).
    const report = readCalibrationCheck(json);
    expect(report.sizes[0].players).toBe(2);
    expect(report.sizes[0].deciles.reduce((a, d) => a + d.positions, 0)).toBeGreaterThan(3);
    expect(readFileSync(chart, 'utf8')).toMatch(/^<svg/);
  }, 180_000);

  it('fits a calibration map only to enough positions of a preset as it stands, saying why not', () => {
    const fit = join(folder(), 'fit');
    const few = yanivWithin(120_000, 'calibrate', '--players', '2', '--games', '2', '--worlds', '2', '--fit', fit);
    expect(few.code).toBe(2);
    expect(few.stderr).toMatch(/^yaniv: \d+ positions fit one constant, not a map: play more games/);
    const house = yaniv('calibrate', '--rule', 'yanivThreshold=5', '--fit', fit);
    expect(house.code).toBe(2);
    expect(house.stderr).toMatch(/--fit fits a map for a preset as it stands/);
  }, 180_000);

  it('refuses a bad flag with a message naming it', () => {
    const child = yaniv('calibrate', '--players', '9');
    expect(child.code).toBe(2);
    expect(child.stderr).toMatch(/--players/);
  });
});
