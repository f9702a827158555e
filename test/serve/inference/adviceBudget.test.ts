// Advice under load (serve/inference/adviceBudget.ts, serve/inference/pool.ts): while advice requests queue, each is
// played out in fewer worlds, never fewer than the server's minimum, and its answer says how
// many; a lone request gets the whole budget, and the same request with the same budget gets the
// same answer.
import { played } from '../helpers.js';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OUTLOOK_DEFAULTS } from '../../../agents/equity/moveOutlook.js';
import { BACKLOG_AT_FULL_BUDGET, worldsUnderLoad } from '../../../serve/inference/adviceBudget.js';
import { type DecideRequest, decideBatch } from '../../../serve/inference/decide.js';
import { InferencePool } from '../../../serve/inference/pool.js';
import { playerView } from '../../../env/rules/view.js';
import { randomPositions } from '../../env/gym/envPositions.js';

const FULL = OUTLOOK_DEFAULTS.worlds;

function requests(count: number): DecideRequest[] {
  const states = randomPositions({ players: 3 }, 4, 4 * count).filter((s) => s.phase < 3);
  return states.slice(0, count).map((s, seed) => ({
    agent: played('strong', 3),
    source: { kind: 'playerView', view: playerView(s, s.current) },
    seed,
    explain: true,
  }));
}

describe('the advice budget under load', () => {
  it('is whole while the workers keep up, then shrinks with the backlog down to the minimum', () => {
    for (let backlog = 0; backlog <= BACKLOG_AT_FULL_BUDGET; backlog++) expect(worldsUnderLoad(backlog, FULL, 6)).toBe(FULL);
    let previous = FULL;
    for (let backlog = BACKLOG_AT_FULL_BUDGET + 1; backlog <= 200; backlog++) {
      const worlds = worldsUnderLoad(backlog, FULL, 6);
      expect(worlds).toBeLessThanOrEqual(previous);
      expect(worlds).toBeGreaterThanOrEqual(6);
      previous = worlds;
    }
    expect(previous).toBe(6);
    // A minimum of the whole budget turns it off.
    expect(worldsUnderLoad(200, FULL, FULL)).toBe(FULL);
  });

  it('plays queued requests out in fewer worlds, each answer saying how many, and a lone one in all', async () => {
    const pool = new InferencePool(
      { workers: 0, batchMax: 64, batchWindowMs: 0, adviceMinWorlds: 4 },
      [played('strong')],
      pino({ level: 'silent' }),
    );
    await pool.start();
    try {
      const queued = requests(40);
      const results = await Promise.all(queued.map((r) => pool.decide(r)));
      const worlds = results.map((r) => (r.ok ? r.advice?.worlds : undefined));
      expect(worlds.every((w) => w !== undefined && w >= 4 && w <= FULL)).toBe(true);
      expect(Math.min(...(worlds as number[]))).toBeLessThan(FULL);
      expect(pool.stats.reducedBudget).toBeGreaterThan(0);
      // Each is the answer to the same request asked with that budget directly, the intervals from fewer worlds.
      for (const [i, result] of results.entries()) {
        const [direct] = await decideBatch([{ ...queued[i], worlds: worlds[i] }]);
        expect(result).toEqual(direct);
      }
      const [lone] = queued;
      const alone = await pool.decide(lone);
      expect(alone.ok && alone.advice?.worlds).toBe(FULL);
      expect(alone).toEqual((await decideBatch([lone]))[0]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
