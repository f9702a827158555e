// The calibration map of the advisor's chance to win (agents/equity/calibrationMap.ts): fitted by
// pool-adjacent-violators, monotone and within [0, 1], applied the same way every time, shipped
// maps checked at the read edge, and advice for a table without a map left as played out.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_FORMAT,
  CalibrationError,
  type CalibrationMap,
  applyCalibration,
  calibrateEstimate,
  fitIsotonic,
  parseCalibrationMap,
  readCalibrationMap,
  shippedCalibrationFor,
} from '../../../agents/equity/calibrationMap.js';
import { equityForTable } from '../../../agents/equity/equityPlayouts.js';
import { type Estimate, type MoveOutlook, moveOutlooks, outlookCandidates } from '../../../agents/equity/moveOutlook.js';
import { Episode, parseEnvOptions } from '../../../env/gym/episode.js';
import { Table } from '../../../env/gym/table.js';
import { randomInt, seededRng } from '../../../env/rules/random.js';
import { resolveRules } from '../../../env/rules/rules.js';
import type { PlayerView } from '../../../env/rules/view.js';
import { outlookOf } from '../../../serve/inference/winChance.js';

/** Positions whose true chance is `truth(raw)`, drawn with a seeded generator. */
function sample(n: number, seed: number, truth: (raw: number) => number): { raw: number; won: boolean }[] {
  const rng = seededRng(seed);
  return Array.from({ length: n }, () => {
    const raw = randomInt(rng, 0, 12) / 12;
    return { raw, won: randomInt(rng, 0, 9999) / 10000 < truth(raw) };
  });
}

function mapOf(knots: [number, number][]): CalibrationMap {
  return {
    format: CALIBRATION_FORMAT,
    preset: 'standard',
    players: 2,
    agent: 'strong',
    games: 1,
    seed: 1,
    worlds: 12,
    positions: 1,
    knots,
  };
}

describe('fitting a calibration map', () => {
  it('pools adjacent violators into the textbook isotonic fit', () => {
    const pairs = [0.1, 0.2, 0.3, 0.4].flatMap((raw, i) => [
      { raw, won: [true, false, true, true][i] },
      { raw, won: [false, false, true, true][i] },
    ]);
    // Shares won 0.5, 0, 1, 1: the first two pool to 0.25 at their mean chance 0.15.
    expect(fitIsotonic(pairs, 1)).toEqual([
      [0.15000000000000002, 0.25],
      [0.3, 1],
      [0.4, 1],
    ]);
  });

  it('is monotone, within [0, 1], with blocks of at least the minimum, whatever the outcomes', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const pairs = sample(2000, seed, (raw) => 0.1 + 0.6 * raw + 0.2 * Math.sin(seed * raw * 9));
      const knots = fitIsotonic(pairs, 100);
      const map = parseCalibrationMap(mapOf(knots), 'fitted');
      for (let i = 1; i < map.knots.length; i++) {
        expect(map.knots[i][0]).toBeGreaterThan(map.knots[i - 1][0]);
        expect(map.knots[i][1]).toBeGreaterThanOrEqual(map.knots[i - 1][1]);
      }
      let before = -1;
      for (let p = 0; p <= 1; p += 0.01) {
        const mapped = applyCalibration(map.knots, p);
        expect(mapped).toBeGreaterThanOrEqual(Math.max(before, 0));
        expect(mapped).toBeLessThanOrEqual(1);
        before = mapped;
      }
    }
  });

  it('refuses too few positions to fit more than a constant', () => {
    expect(() =>
      fitIsotonic(
        sample(150, 1, (raw) => raw),
        100,
      ),
    ).toThrow(/150 positions fit one constant/);
  });

  it('recovers an overconfident chance on its own positions', () => {
    const truth = (raw: number) => 0.05 + 0.8 * raw;
    const knots = fitIsotonic(sample(40_000, 3, truth));
    for (const raw of [0.25, 0.5, 0.75]) expect(Math.abs(applyCalibration(knots, raw) - truth(raw))).toBeLessThan(0.03);
  });
});

describe('applying a calibration map', () => {
  const map = mapOf([
    [0.1, 0.05],
    [0.5, 0.45],
    [0.9, 0.8],
  ]);

  it('is linear between knots, flat beyond the ends, and the same every time', () => {
    expect(applyCalibration(map.knots, 0)).toBe(0.05);
    expect(applyCalibration(map.knots, 0.3)).toBeCloseTo(0.25, 12);
    expect(applyCalibration(map.knots, 0.7)).toBeCloseTo(0.625, 12);
    expect(applyCalibration(map.knots, 1)).toBe(0.8);
    const estimate = { mean: 0.62, low: 0.41, high: 0.83 };
    const once = calibrateEstimate(map, estimate);
    expect(calibrateEstimate(map, estimate)).toEqual(once);
    expect(once.low).toBeLessThanOrEqual(once.mean);
    expect(once.mean).toBeLessThanOrEqual(once.high);
    expect(once.mean).toBe(applyCalibration(map.knots, 0.62));
  });

  it('leaves the estimate as it is without a map', () => {
    const estimate = { mean: 0.62, low: 0.41, high: 0.83 };
    expect(calibrateEstimate(null, estimate)).toBe(estimate);
  });
});

describe('a calibration map file', () => {
  it('names the field of a malformed map', () => {
    const knots = [
      [0.2, 0.5],
      [0.4, 0.3],
    ];
    expect(() => parseCalibrationMap({ ...mapOf([]), knots }, 'bad.json')).toThrow(/bad\.json: knots\.1\.1 must not be below/);
    const fine = mapOf([
      [0.1, 0.2],
      [0.2, 0.3],
    ]);
    expect(() =>
      parseCalibrationMap(
        {
          ...fine,
          knots: [
            [0.1, 0.2],
            [0.2, 1.5],
          ],
        },
        'bad.json',
      ),
    ).toThrow(/knots\.1\.1 .*1/);
    const { players: _players, ...noPlayers } = fine;
    expect(() => parseCalibrationMap(noPlayers, 'bad.json')).toThrow(CalibrationError);
    expect(() => parseCalibrationMap(noPlayers, 'bad.json')).toThrow(/bad\.json: players /);
    const folder = mkdtempSync(join(tmpdir(), 'yaniv-calibration-'));
    try {
      writeFileSync(join(folder, 'broken.json'), '{"format":');
      expect(() => readCalibrationMap(join(folder, 'broken.json'))).toThrow(/broken\.json is not JSON/);
      expect(() => readCalibrationMap(join(folder, 'missing.json'))).toThrow(/missing\.json cannot be read \(ENOENT\)/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('ships for standard rules at 2 and 4 seats, and for no house-rule table', () => {
    for (const players of [2, 4]) expect(shippedCalibrationFor(resolveRules({ players }), players)?.players).toBe(players);
    const house = resolveRules({ players: 2, rules: { yanivThreshold: 5 } });
    expect(shippedCalibrationFor(house, 2)).toBeNull();
    expect(equityForTable(resolveRules({ players: 2 }), 2).calibration).not.toBeNull();
  });
});

/** Decisions of a game played by random legal moves: the seat's view and its legal ids. */
function decisions(players: number, seed: number, count: number): { view: PlayerView; legal: number[] }[] {
  const table = new Table(new Episode(parseEnvOptions({ players, episode: 'game', history: false })));
  table.reset({ seed });
  const rng = seededRng(seed);
  const found: { view: PlayerView; legal: number[] }[] = [];
  for (let step = 0; found.length < count && table.seat >= 0; step++) {
    const input = table.input();
    const legal = Array.from(table.legalIds.subarray(0, table.legalCount));
    if (step % 7 === 0) found.push({ view: input.view, legal });
    table.step(legal[randomInt(rng, 0, legal.length - 1)]);
  }
  return found;
}

describe('the advice through the map', () => {
  // A table without a map: test/agents/equity/shippedCalibration.test.ts.
  it('shows the played-out chance through the shipped map (mean and interval ends)', () => {
    for (const players of [2, 3]) {
      const table = equityForTable(resolveRules({ players }), players);
      for (const [k, { view, legal }] of decisions(players, 11, 3).entries()) {
        const candidates = outlookCandidates(view, legal, legal[0], []);
        // The advice's chance is the suggested move's (the one judgement: agents/equity/moveOutlook.ts judge).
        const suggested = (outlooks: MoveOutlook[]) => outlooks.find((o) => o.standing === 'suggested')?.win as Estimate;
        const raw = suggested(moveOutlooks(view, candidates, table.equity, k));
        const mapped = suggested(moveOutlooks(view, candidates, table.equity, k, undefined, table.calibration));
        expect(table.calibration).not.toBeNull();
        expect(mapped).toEqual(calibrateEstimate(table.calibration, raw));
        const advice = outlookOf(view, legal, legal[0], [], k);
        expect([advice.win?.probability, advice.win?.low, advice.win?.high]).toEqual([mapped.mean, mapped.low, mapped.high]);
        expect(outlookOf(view, legal, legal[0], [], k)).toEqual(advice);
      }
    }
  });
});
