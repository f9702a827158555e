import { describe, expect, it } from 'vitest';
import { EquityError } from '../../../env/gym/equityData.js';
import { seatEquities } from '../../../env/gym/equity.js';
import { type SeatPredictor } from '../../../env/gym/equityData.js';
import { SeatEquity, seatFeatures, turnOrder } from '../../../env/gym/seatEquity.js';
import { resolveRules } from '../../../env/rules/rules.js';

/** A predictor for a limit-20 game with a milestone at 15 (→ 5): a point costs 0.1 of score, a milestone 3 away is worth 0.5, starting 0.2. */
function tinyPredictor(players: number): SeatPredictor {
  const byActive: Record<string, SeatPredictor['byActive'][string]> = {};
  for (let n = 2; n <= players; n++)
    byActive[n] = { total: [-1, -1], gap: [0, 0, 0.5], order: Array.from({ length: n }, (_, i) => (i === 0 ? 0.2 : 0)) };
  return { knotStep: 10, maxGap: 3, byActive };
}

describe('the learned game equity at 3–8 seats', () => {
  const rules = resolveRules({ players: 3, rules: { eliminationLimit: 20, milestones: [[15, 5]] } });
  const equity = new SeatEquity(rules, 3, tinyPredictor(3));

  it("is the softmax of the seats' scores: total, milestone gap and place in the turn order", () => {
    const [a, b, c] = seatEquities(equity, [0, 10, 12], [true, true, true], 0);
    // Scores: 0 + 0.2 (starts), −1, −1.2 + 0.5 (12 is 3 below the milestone at 15).
    const e = [Math.exp(0.2), Math.exp(-1), Math.exp(-0.7)];
    const z = e[0] + e[1] + e[2];
    expect(a).toBeCloseTo(e[0] / z, 12);
    expect(b).toBeCloseTo(e[1] / z, 12);
    expect(c).toBeCloseTo(e[2] / z, 12);
  });

  it('gives equities that sum to 1, 0 to a seat out and 1 to the last seat in', () => {
    for (const totals of [
      [0, 0, 0],
      [20, 3, 17],
      [11, 12, 13],
    ]) {
      const seats = seatEquities(equity, totals, [true, true, true], 1);
      expect(seats.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
      expect(seats.every((p) => p > 0 && p < 1)).toBe(true);
    }
    const two = seatEquities(equity, [4, 30, 9], [true, false, true], 1);
    expect(two[1]).toBe(0);
    expect(two[0] + two[2]).toBeCloseTo(1, 12);
    expect(seatEquities(equity, [4, 30, 40], [true, false, false], 1)).toEqual([1, 0, 0]);
  });

  it('treats a total over the limit as out, and a game with every seat out as won by the lowest total', () => {
    expect(seatEquities(equity, [21, 5, 6], [true, true, true], 0)[0]).toBe(0);
    expect(seatEquities(equity, [21, 5, 26], [true, true, true], 0)).toEqual([0, 1, 0]);
    expect(seatEquities(equity, [23, 22, 22], [true, true, true], 0)).toEqual([0, 0.5, 0.5]);
    const firstOver = new SeatEquity(
      resolveRules({ players: 3, rules: { eliminationLimit: 20, gameEnd: 'firstOverLimit' } }),
      3,
      tinyPredictor(3),
    );
    expect(seatEquities(firstOver, [21, 5, 6], [true, true, true], 0)).toEqual([0, 1, 0]);
  });

  it('is monotone in the own total away from milestones', () => {
    const features = seatFeatures(rules, 10, 3);
    for (let t = 0; t < 20; t++) {
      if (features.gaps[t].length > 0 || features.gaps[t + 1].length > 0) continue;
      const here = seatEquities(equity, [t, 8, 8], [true, true, true], 2)[0];
      const next = seatEquities(equity, [t + 1, 8, 8], [true, true, true], 2)[0];
      expect(next).toBeLessThan(here);
    }
  });

  it('orders the seats from the starter, skipping seats out', () => {
    expect(turnOrder([true, true, true, true], 2)).toEqual([2, 3, 0, 1]);
    expect(turnOrder([true, false, true, true], 1)).toEqual([2, 3, 0]);
  });

  it('refuses a predictor that does not fit the table or a table that does not fit it', () => {
    expect(() => new SeatEquity(rules, 1, tinyPredictor(2))).toThrow(/2 or more seats/);
    expect(new SeatEquity(rules, 2, tinyPredictor(2)).seats([0, 19], [true, true], 0)[0]).toBeGreaterThan(0.5);
    expect(() => new SeatEquity(rules, 4, tinyPredictor(3))).toThrow(/no weights for 4 seats in/);
    const bad = { ...tinyPredictor(3), knotStep: 5 };
    expect(() => new SeatEquity(rules, 3, bad)).toThrow(/do not fit its layout/);
    expect(() => seatEquities(equity, [0, 0], [true, true], 0)).toThrow(EquityError);
    expect(() => seatEquities(equity, [0, 0, 0], [true, true, true], 3)).toThrow(/starter/);
    expect(() => seatEquities(equity, [0, -2, 0], [true, true, true], 0)).toThrow(/whole number/);
  });
});
