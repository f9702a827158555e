// The learned game equity at 3 and 4 seats: the shipped data's invariants, its agreement with
// games played out (one spot; more under test:long), the fit recovering a known predictor, the
// measured states, and the "equity" reward and strong?equity at those table sizes.
import { describe, expect, it } from 'vitest';
import { readEquityData, shippedEquity, shippedEquityFile } from '../../../agents/equity/equity.js';
import { fitSeatPredictor } from '../../../agents/equity/equityFit.js';
import { type SeatState, measureSeatStates, playFromSpot } from '../../../agents/equity/equityModel.js';
import { createAgentFor } from '../../../agents/resolve.js';
import { milestoneEquityPoints } from '../../../agents/bots/strong.js';
import { type SeatsEquityData } from '../../../env/gym/equityData.js';
import { seatEquities } from '../../../env/gym/equity.js';
import { Episode, parseEnvOptions } from '../../../env/gym/episode.js';
import { SeatEquity, seatFeatures } from '../../../env/gym/seatEquity.js';
import { Table } from '../../../env/gym/table.js';
import { resolveRules } from '../../../env/rules/rules.js';
import { randomInt, seededRng } from '../../../env/rules/random.js';
import { playerView } from '../../../env/rules/view.js';

const LONG = process.env.YANIV_PROPERTY_RUNS === 'long';

describe.each([3, 4])('the shipped learned equity (standard, %i seats, strong at every seat)', (players) => {
  const equity = shippedEquity('standard', players);
  const data = readEquityData(shippedEquityFile('standard', players)) as SeatsEquityData;
  const rng = seededRng(players);
  const tables = Array.from({ length: 300 }, () => {
    const totals = Array.from({ length: players }, () => randomInt(rng, 0, 200));
    const active = totals.map(() => randomInt(rng, 0, 3) > 0);
    if (active.filter(Boolean).length < 2) active.fill(true);
    return { totals, active, starter: randomInt(rng, 0, players - 1) };
  });

  it('gives equities that sum to 1 over the seats in, 0 to the seats out, 1 to the last seat in', () => {
    for (const { totals, active, starter } of tables) {
      const seats = seatEquities(equity, totals, active, starter);
      expect(seats.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      seats.forEach((p, seat) => (active[seat] ? expect(p).toBeGreaterThan(0) : expect(p).toBe(0)));
    }
    const alone = seatEquities(
      equity,
      [10, ...Array<number>(players - 1).fill(150)],
      [true, ...Array<boolean>(players - 1).fill(false)],
      1,
    );
    expect(alone).toEqual([1, ...Array<number>(players - 1).fill(0)]);
  });

  it('is monotone in the own total away from milestones', () => {
    const features = seatFeatures(equity.rules, data.predictor.knotStep, data.predictor.maxGap);
    for (const { totals, active, starter } of tables.slice(0, 40)) {
      const seat = active.indexOf(true);
      for (let t = 0; t < 200; t++) {
        if (features.gaps[t].length > 0 || features.gaps[t + 1].length > 0) continue;
        const at = (total: number) => seatEquities(equity, totals.with(seat, total), active, starter)[seat];
        expect(at(t + 1)).toBeLessThanOrEqual(at(t) + 1e-12);
      }
    }
  });

  // A spot of short games at 3 seats in the plain run; more spots, games and 4 seats under test:long.
  it.runIf(LONG || players === 3)(
    'agrees with games played out from fixed spots, within the interval',
    { timeout: LONG ? 1_800_000 : 120_000 },
    async () => {
      const agents = await Promise.all(Array.from({ length: players }, () => createAgentFor('strong', { players: 2 })));
      const spots = [
        [150, 120, 180, 40].slice(0, players),
        ...(LONG ? [[0, 0, 0, 0].slice(0, players), [95, 60, 150, 10].slice(0, players)] : []),
      ];
      for (const totals of spots) {
        const played = playFromSpot('standard', {}, agents, totals, LONG ? 400 : 40, 9);
        const model = seatEquities(
          equity,
          totals,
          totals.map(() => true),
          0,
        );
        model.forEach((p, seat) => {
          const se = Math.sqrt((p * (1 - p)) / played.games);
          expect(Math.abs(played.winsBySeat[seat] / played.games - p)).toBeLessThan(3 * se + 0.01);
        });
      }
    },
  );
});

describe('fitting the learned equity', () => {
  it('recovers the equities of a known predictor from winners drawn by it', () => {
    const rules = resolveRules({ players: 3 });
    const truth = new SeatEquity(rules, 3, {
      knotStep: 10,
      maxGap: 5,
      byActive: Object.fromEntries(
        [2, 3].map((n) => [
          n,
          { total: Array<number>(20).fill(-0.15), gap: [0.8, 0, 0, 0, 0], order: Array.from({ length: n }, (_, i) => (i === 0 ? 0.3 : 0)) },
        ]),
      ),
    });
    const rng = seededRng(5);
    const states: SeatState[] = Array.from({ length: 12_000 }, () => {
      const totals = [0, 1, 2].map(() => randomInt(rng, 0, 200));
      const active = [true, true, randomInt(rng, 0, 1) === 1];
      const starter = randomInt(rng, 0, 2);
      const p = seatEquities(truth, totals, active, starter);
      let u = randomInt(rng, 0, 999_999) / 1_000_000; // a uniform draw in [0, 1)
      const winner = p.findIndex((q) => (u -= q) < 0);
      return { totals, active, starter, winner: winner < 0 ? 2 : winner };
    });
    const { predictor, report } = fitSeatPredictor(rules, 3, states, { knotStep: 10, maxGap: 5, epochs: 600, learningRate: 0.05 });
    const fitted = new SeatEquity(rules, 3, predictor);
    for (const [totals, starter] of [
      [[0, 100, 150], 0],
      [[149, 60, 30], 2],
      [[180, 180, 20], 1],
    ] as const) {
      const want = seatEquities(truth, totals, [true, true, true], starter);
      seatEquities(fitted, totals, [true, true, true], starter).forEach((p, seat) => expect(Math.abs(p - want[seat])).toBeLessThan(0.05));
    }
    expect(report.byActive['3'].holdout).toBeLessThan(report.byActive['3'].uniform);
  });

  it('records every table between rounds of a measured game with the game winner, who is in each of them', async () => {
    const agents = await Promise.all([0, 1, 2].map(() => createAgentFor('strong', { players: 2 })));
    const states = measureSeatStates({ preset: 'standard', overrides: {}, agents, games: 4, seed: 2 });
    expect(states.length).toBeGreaterThan(4);
    expect(states[0].totals).toEqual([0, 0, 0]);
    for (const s of states) {
      expect(s.active[s.winner]).toBe(true);
      s.totals.forEach((t, seat) => s.active[seat] && expect(t).toBeLessThanOrEqual(200));
    }
  });
});

describe('reward "equity" and strong?equity at 3 seats', () => {
  const equity = shippedEquity('standard', 3);

  it('pays each round the change of the learned equity, summing over a game to the outcome minus the starting equity', async () => {
    const table = new Table(new Episode(parseEnvOptions({ players: 3, reward: 'equity', history: false }), undefined, equity));
    const agents = [
      await createAgentFor('strong', { players: 2 }),
      await createAgentFor('intermediate', { players: 2 }),
      await createAgentFor('strong', { players: 2 }),
    ];
    table.reset({ seed: 4 });
    const s = table.episode.state;
    const now = () =>
      seatEquities(
        equity,
        Array.from(s.totals),
        Array.from(s.active, (a) => a === 1),
        s.starter,
      );
    let before = now();
    const start = before;
    const sums = [0, 0, 0];
    table.play(agents, () => {
      if (!table.episode.roundResult) return;
      const after = s.winner >= 0 ? [0, 1, 2].map((seat) => (seat === s.winner ? 1 : 0)) : now();
      for (const seat of [0, 1, 2]) {
        expect(table.rewards[seat]).toBeCloseTo(after[seat] - before[seat], 5);
        sums[seat] += table.rewards[seat];
      }
      before = after;
    });
    expect(s.winner).toBeGreaterThanOrEqual(0);
    for (const seat of [0, 1, 2]) expect(sums[seat]).toBeCloseTo((seat === s.winner ? 1 : 0) - start[seat], 4);
  });

  it('values a milestone landing in P(win) at a 3-seat table', async () => {
    const table = new Table(new Episode(parseEnvOptions({ players: 3, history: false })));
    table.reset({ seed: 1, startTotals: [90, 40, 120] });
    const view = playerView(table.episode.state, 0);
    expect(milestoneEquityPoints(equity, view, 10)).toBeGreaterThan(0);
    expect(milestoneEquityPoints(equity, view, 9)).toBe(0);
    const agent = await createAgentFor('strong?equity=standard', { players: 2 });
    table.play([agent, await createAgentFor('strong', { players: 2 }), await createAgentFor('strong', { players: 2 })]);
    expect(table.episode.state.winner).toBeGreaterThanOrEqual(0);
  });
});
