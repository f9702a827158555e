// Advice under load (serve/inference/pool.ts, agents/equity/moveOutlook.ts OUTLOOK_DEFAULTS,
// agents/equity/headOutlook.ts): the figures do not get worse when the server is busy — queued
// requests get the same evaluation as a lone one (the model's own where the table's model has a
// q head, else the same worlds played out), and each answer equals the same request asked alone.
import { played } from '../helpers.js';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type DecideRequest, decideBatch } from '../../../serve/inference/decide.js';
import { InferencePool } from '../../../serve/inference/pool.js';
import { playerView } from '../../../env/rules/view.js';
import { randomPositions } from '../../env/gym/envPositions.js';

function requests(count: number): DecideRequest[] {
  const states = randomPositions({ players: 3 }, 4, 4 * count).filter((s) => s.phase < 3);
  return states.slice(0, count).map((s, seed) => ({
    agent: played('strong', 3),
    source: { kind: 'playerView', view: playerView(s, s.current) },
    seed,
    explain: true,
  }));
}

describe('advice under load', () => {
  it('gives queued requests the evaluation a lone one gets, each answer the one the request gets alone', async () => {
    const pool = new InferencePool({ workers: 0, batchMax: 64, batchWindowMs: 0 }, [played('strong')], pino({ level: 'silent' }));
    await pool.start();
    try {
      const queued = requests(40);
      const results = await Promise.all(queued.map((r) => pool.decide(r)));
      // At 3 seats the table's model judges the moves itself (worlds 0); elsewhere the whole budget is played out.
      const lone = (await decideBatch([queued[0]]))[0];
      expect(lone.ok && lone.advice?.worlds).toBe(0);
      expect(results.map((r) => r.ok && r.advice?.worlds)).toEqual(queued.map(() => 0));
      for (const [i, result] of results.entries()) expect(result).toEqual((await decideBatch([queued[i]]))[0]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
