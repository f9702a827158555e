// The equity measured by playouts (agents/equityPlayouts.ts) is bounded work: a game that does not
// end within its round cap is left out, the games and the fit after them stop at their deadlines,
// and a request that may not measure gets the reason instead of seconds of simulation.
import { describe, expect, it } from 'vitest';
import { FitTooLong, fitSeatPredictor } from '../../../agents/equity/equityFit.js';
import {
  GAME_ROUND_CAP,
  PlayoutsTooLong,
  equityForTable,
  playoutEquity,
  playoutSeatStates,
} from '../../../agents/equity/equityPlayouts.js';
import { resolveRules } from '../../../env/index.js';

const HOUSE = resolveRules({ rules: { eliminationLimit: 120, assafPenalty: 17 }, players: 3 });

describe('playouts for the equity', () => {
  it('leave out the games not over within the round cap', () => {
    const all = playoutSeatStates(HOUSE, 3, 8, 1);
    const capped = playoutSeatStates(HOUSE, 3, 8, 1, { maxRounds: 2, deadline: Infinity });
    expect(all.length).toBeGreaterThan(0);
    // Every game kept under the cap lasted at most 2 rounds: at most 2 states each, fewer states in all.
    expect(capped.length).toBeLessThan(all.length);
    expect(capped.length).toBeLessThanOrEqual(2 * 8);
    expect(GAME_ROUND_CAP).toBeGreaterThan(0);
  });

  it('stop at their deadline', () => {
    expect(() => playoutSeatStates(HOUSE, 3, 8, 1, { maxRounds: GAME_ROUND_CAP, deadline: performance.now() - 1 })).toThrow(
      PlayoutsTooLong,
    );
    expect(() => playoutEquity(HOUSE, 3, 240, 1, 0)).toThrow(/0 of 240 games played within the time budget/);
  });

  it('are fitted within their own deadline: past it the fit gives up, between epochs', () => {
    const states = playoutSeatStates(HOUSE, 3, 8, 1);
    expect(() => fitSeatPredictor(HOUSE, 3, states, { epochs: 400, holdout: 0, deadline: performance.now() - 1 })).toThrow(FitTooLong);
    expect(() => playoutEquity(HOUSE, 3, 8, 1, 60_000, -1)).toThrow(/0 of 400 epochs fitted \(2 seats in\) within the time budget/);
    // Within it, the same fit as with none.
    const none = fitSeatPredictor(HOUSE, 3, states, { epochs: 50, holdout: 0 }).predictor;
    expect(fitSeatPredictor(HOUSE, 3, states, { epochs: 50, holdout: 0, deadline: performance.now() + 60_000 }).predictor).toEqual(none);
  });

  it('are not played for a request told not to measure: it gets the reason', () => {
    const rules = resolveRules({ rules: { eliminationLimit: 121 }, players: 3 });
    const table = equityForTable(rules, 3, 'not measured for this request');
    expect(table).toEqual({ equity: null, calibration: null, reason: 'not measured for this request' });
    // A shipped equity is still given: the reason is only for rules that would need measuring.
    expect(equityForTable(resolveRules({ players: 3 }), 3, 'not measured').source).toBe('shipped');
  });
});
