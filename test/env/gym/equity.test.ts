import { describe, expect, it } from 'vitest';
import { type RoundOutcomeModel, EquityError } from '../../../env/gym/equityData.js';
import { afterPoints, milestoneGaps } from '../../../env/gym/milestones.js';
import { seatEquities } from '../../../env/gym/equity.js';
import { solveHeadsUpEquity } from '../../../env/gym/headsUpEquity.js';
import { resolveRules } from '../../../env/rules/rules.js';

/** A round model from (starter's points, other's points, count) triples, with no milestone spike measured. */
function modelOf(outcomes: [number, number, number][]): RoundOutcomeModel {
  const rounds = outcomes.reduce((sum, [, , n]) => sum + n, 0);
  const scored = (seat: 0 | 1) => {
    const table: Record<string, [number, number]> = {};
    for (const o of outcomes) {
      const points = o[seat];
      table[points] = [(table[points]?.[0] ?? 0) + o[2], rounds];
    }
    return table;
  };
  return { rounds, outcomes, landing: { starter: {}, other: {} }, scored: { starter: scored(0), other: scored(1) } };
}

describe('heads-up game equity', () => {
  it('matches the hand-computed race to three losses (limit 10, each round one seat scores 5, even odds)', () => {
    const rules = resolveRules({ players: 2, rules: { eliminationLimit: 10, milestones: [] } });
    const equity = solveHeadsUpEquity(
      rules,
      modelOf([
        [0, 5, 1],
        [5, 0, 1],
      ]),
    );
    // The seat at 10 needs the other to lose three rounds before it loses one: (1/2)^3.
    expect(equity.win(10, 0, true)).toBeCloseTo(1 / 8, 6);
    // At 5 against 0: three losses of the other before two of its own, P(≥ 3 of the first 4 rounds) = 5/16.
    expect(equity.win(5, 0, false)).toBeCloseTo(5 / 16, 6);
    expect(equity.win(10, 5, true)).toBeCloseTo(1 / 4, 6);
    expect(equity.win(0, 0, true)).toBeCloseTo(1 / 2, 6);
  });

  it('solves a game with a milestone (totals go down) as the exact linear system does', () => {
    const rules = resolveRules({ players: 2, rules: { eliminationLimit: 10, milestones: [[7, 2]] } });
    const outcomes: [number, number, number][] = [
      [3, 0, 1],
      [0, 3, 1],
      [4, 0, 1],
      [0, 4, 2],
    ];
    const equity = solveHeadsUpEquity(rules, modelOf(outcomes), { tolerance: 1e-12 });
    const exact = exactSolve(rules, outcomes);
    for (let a = 0; a <= 10; a++)
      for (let b = 0; b <= 10; b++)
        for (const aStarts of [true, false]) expect(equity.win(a, b, aStarts)).toBeCloseTo(exact(a, b, aStarts), 8);
    // The case does go down: at 3 a loss of 4 lands on 7 and goes to 2.
    expect(afterPoints(rules, 3, 4)).toBe(2);
    expect(equity.sweeps).toBeGreaterThan(2);
  });

  it('gives terminal states their outcome and the two seats equities that sum to 1', () => {
    const rules = resolveRules({ players: 2, rules: { eliminationLimit: 10, milestones: [[7, 2]] } });
    const equity = solveHeadsUpEquity(
      rules,
      modelOf([
        [3, 0, 2],
        [0, 5, 1],
      ]),
    );
    expect(equity.win(11, 3, true)).toBe(0);
    expect(equity.win(3, 11, false)).toBe(1);
    expect(equity.win(12, 11, true)).toBe(0.5);
    for (let a = 0; a <= 10; a++) {
      for (let b = 0; b <= 10; b++) {
        const seats = seatEquities(equity, [a, b], [true, true], 1);
        expect(seats[0] + seats[1]).toBeCloseTo(1, 9);
        // The same table seen from the other seat (it starts) agrees.
        expect(equity.win(b, a, true)).toBeCloseTo(seats[1], 6);
      }
    }
    expect(seatEquities(equity, [3, 40], [true, false], 0)).toEqual([1, 0]);
  });

  it('names what it cannot do', () => {
    const model = modelOf([[0, 5, 1]]);
    expect(() => solveHeadsUpEquity(resolveRules({ players: 2, rules: { gameEnd: 'yanivCount' } }), model)).toThrow(EquityError);
    const rules = resolveRules({ players: 2, rules: { eliminationLimit: 10 } });
    const equity = solveHeadsUpEquity(
      rules,
      modelOf([
        [0, 5, 1],
        [5, 0, 1],
      ]),
    );
    expect(() => seatEquities(equity, [0, 0, 0], [true, true, true], 0)).toThrow(/for 2 seats/);
    expect(() => equity.win(-1, 0, true)).toThrow(/whole number/);
    expect(() => solveHeadsUpEquity(rules, { ...model, outcomes: [] })).toThrow(/no outcomes/);
  });

  it('lists the milestone gaps above a total', () => {
    const rules = resolveRules({ players: 2, preset: 'dutch' });
    expect(milestoneGaps(rules, 45)).toEqual([5, 55, 105, 155]);
    expect(milestoneGaps(rules, 150)).toEqual([50]);
  });
});

/** P(seat A wins) by Gaussian elimination over every (a, b, A starts) state: an independent check of value iteration. */
function exactSolve(rules: ReturnType<typeof resolveRules>, outcomes: [number, number, number][]) {
  const side = rules.eliminationLimit + 1;
  const n = side * side * 2;
  const index = (a: number, b: number, aStarts: boolean) => (a * side + b) * 2 + (aStarts ? 0 : 1);
  const total = outcomes.reduce((sum, [, , c]) => sum + c, 0);
  const m = Array.from({ length: n }, () => new Float64Array(n + 1));
  for (let a = 0; a < side; a++) {
    for (let b = 0; b < side; b++) {
      for (const aStarts of [true, false]) {
        const row = m[index(a, b, aStarts)];
        row[index(a, b, aStarts)] += 1;
        for (const [starter, other, count] of outcomes) {
          const p = count / total;
          const a2 = afterPoints(rules, a, aStarts ? starter : other);
          const b2 = afterPoints(rules, b, aStarts ? other : starter);
          const limit = rules.eliminationLimit;
          if (a2 > limit && b2 > limit) row[n] += p * (a2 < b2 ? 1 : a2 === b2 ? 0.5 : 0);
          else if (a2 > limit) row[n] += 0;
          else if (b2 > limit) row[n] += p;
          else row[index(a2, b2, !aStarts)] -= p;
        }
      }
    }
  }
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = 0; r < n; r++) {
      if (r === col || m[r][col] === 0) continue;
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  return (a: number, b: number, aStarts: boolean) => m[index(a, b, aStarts)][n] / m[index(a, b, aStarts)][index(a, b, aStarts)];
}
