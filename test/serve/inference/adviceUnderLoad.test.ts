// Advice under load (serve/inference/pool.ts, agents/equity/moveOutlook.ts OUTLOOK_DEFAULTS): the
// figures do not get worse when the server is busy — queued requests are played out in the same
// worlds as a lone one, and each answer equals the same request asked alone.
import { played } from '../helpers.js';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OUTLOOK_DEFAULTS } from '../../../agents/equity/moveOutlook.js';
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
  it('plays queued requests out in the whole budget, each answer the one the request gets alone', async () => {
    const pool = new InferencePool({ workers: 0, batchMax: 64, batchWindowMs: 0 }, [played('strong')], pino({ level: 'silent' }));
    await pool.start();
    try {
      const queued = requests(40);
      const results = await Promise.all(queued.map((r) => pool.decide(r)));
      expect(results.map((r) => r.ok && r.advice?.worlds)).toEqual(queued.map(() => OUTLOOK_DEFAULTS.worlds));
      for (const [i, result] of results.entries()) expect(result).toEqual((await decideBatch([queued[i]]))[0]);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
