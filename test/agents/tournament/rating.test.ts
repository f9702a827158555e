// The rating fit on synthetic results whose true strengths are known: Plackett–Luce finishing
// orders (Bradley–Terry heads-up) drawn from stated ratings, the fit's ratings within tolerance
// and its 95% intervals covering the truth about as often as they claim.
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { describe, expect, it } from 'vitest';
import { ELO_PER_NAT, type RatedGame, fitRatings } from '../../../agents/tournament/rating.js';
import { type Rng, seededRng } from '../../../env/rules/random.js';

const TRUE: Record<string, number> = { a: 1100, b: 1300, c: 1500, d: 1620, e: 1800, f: 1950 };
const NAMES = Object.keys(TRUE);

/** A finishing order by Plackett–Luce: each place drawn among those left in proportion to 10^(rating/400). */
function placeOrder(seats: readonly string[], rng: Rng): number[] {
  const ranks = new Array<number>(seats.length).fill(-1);
  for (let place = 0; place < seats.length; place++) {
    const left = seats.map((_, seat) => seat).filter((seat) => ranks[seat] < 0);
    const weights = left.map((seat) => Math.exp(TRUE[seats[seat]] / ELO_PER_NAT));
    let u = uniformFloat64(rng) * weights.reduce((a, b) => a + b, 0);
    const chosen = left.find((_, i) => (u -= weights[i]) <= 0) ?? left[left.length - 1];
    ranks[chosen] = place;
  }
  return ranks;
}

/** `games` games at `players` seats, each of `players` distinct agents drawn at random. */
function synthetic(players: number, games: number, seed: number): RatedGame[] {
  const rng = seededRng(seed);
  return Array.from({ length: games }, (_, g) => {
    const pool = [...NAMES];
    const seats = Array.from({ length: players }, () => pool.splice(Math.floor(uniformFloat64(rng) * pool.length), 1)[0]);
    return { seats, ranks: placeOrder(seats, rng), group: g };
  });
}

const anchored = { anchor: 'c', anchorRating: 1500 };

describe('fitRatings', () => {
  it.each([2, 4])('recovers the known ratings at %i seats, each within 3 standard errors and 40 points', (players) => {
    const fit = fitRatings(NAMES, synthetic(players, 6000, players), anchored);
    expect(fit.model).toBe(players === 2 ? 'bradley-terry' : 'plackett-luce');
    expect(fit.ratings.map((r) => r.agent)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    for (const r of fit.ratings) {
      expect(Math.abs(r.rating - TRUE[r.agent])).toBeLessThan(Math.max(1e-9, Math.min(40, 3 * r.standardError)));
      if (r.agent !== 'c') expect(r.standardError).toBeGreaterThan(3);
    }
    const anchor = fit.ratings.find((r) => r.agent === 'c');
    expect(anchor).toMatchObject({ rating: 1500, low: 1500, high: 1500, standardError: 0 });
  });

  it('more seats tell more: the same number of games gives narrower intervals at 4 seats than heads-up', () => {
    const se = (players: number) =>
      fitRatings(NAMES, synthetic(players, 3000, 11), anchored).ratings.find((r) => r.agent === 'a')?.standardError;
    expect(se(4)).toBeLessThan(se(2) as number);
  });

  it('its 95% intervals cover the true ratings about 95% of the time (heads-up and 4 seats)', () => {
    let covered = 0;
    let total = 0;
    for (let replicate = 0; replicate < 30; replicate++) {
      const fit = fitRatings(NAMES, synthetic(replicate % 2 === 0 ? 2 : 4, 1500, 100 + replicate), anchored);
      for (const r of fit.ratings.filter((x) => x.agent !== 'c')) {
        total++;
        if (r.low <= TRUE[r.agent] && TRUE[r.agent] <= r.high) covered++;
      }
    }
    // 150 intervals: at a true 95%, fewer than 134 covered has probability below 0.1%.
    expect(covered / total).toBeGreaterThan(0.89);
    expect(covered / total).toBeLessThan(1);
  });

  it('counts a duplicate-deal group as one cluster: mirrored games whose luck cancels give narrower intervals', () => {
    // Each deal played twice with the seats swapped; the deal decides, so each group is one win each.
    const games: RatedGame[] = [];
    const rng = seededRng(5);
    for (let deal = 0; deal < 400; deal++) {
      const first = uniformFloat64(rng) < 0.5 ? 0 : 1;
      games.push({ seats: ['b', 'c'], ranks: [first, 1 - first], group: deal });
      games.push({ seats: ['c', 'b'], ranks: [first, 1 - first], group: deal });
    }
    const clustered = fitRatings(['b', 'c'], games, anchored);
    const independent = fitRatings(
      ['b', 'c'],
      games.map((game, g) => ({ ...game, group: g })),
      anchored,
    );
    const b = (fit: typeof clustered) => fit.ratings.find((r) => r.agent === 'b');
    expect(b(clustered)?.rating).toBeCloseTo(1500, 6);
    expect(b(clustered)?.standardError).toBeLessThan(1e-6);
    expect(b(independent)?.standardError).toBeGreaterThan(10);
  });

  it('shares a place Breslow-style, keeps an unbeaten agent finite, and names a seat outside the agents', () => {
    const ties: RatedGame[] = Array.from({ length: 50 }, (_, g) => ({ seats: ['b', 'c', 'a'], ranks: [0, 0, 2], group: g }));
    const fit = fitRatings(['a', 'b', 'c'], ties, anchored);
    // b and c share every first place: level, but for the prior's slight pull on a (which never wins).
    expect(Math.abs((fit.ratings.find((r) => r.agent === 'b')?.rating as number) - 1500)).toBeLessThan(2);
    const a = fit.ratings.find((r) => r.agent === 'a')?.rating as number;
    expect(Number.isFinite(a) && a < 1000).toBe(true);
    expect(fit.ratings.map((r) => r.firsts)).toEqual([50, 50, 0]);
    expect(() => fitRatings(['a', 'b'], ties, anchored)).toThrow(/anchor c is not one of the agents/);
    expect(() => fitRatings(['a', 'c'], ties, anchored)).toThrow(/a game seats b, not one of the agents a, c/);
  });
});
