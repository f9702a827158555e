// Where the pool decides (serve/inference/pool.ts): a cheap agent's lone request at once on the main thread,
// requests that arrive together queued in batches for the workers (cheap ones at most 16 a batch),
// every answer the same wherever it was decided.
import { played } from '../helpers.js';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type DecideRequest, decideBatch } from '../../../serve/inference/decide.js';
import { InferencePool } from '../../../serve/inference/pool.js';
import { playerView } from '../../../env/rules/view.js';
import { randomPositions } from '../../env/gym/envPositions.js';

function policyRequests(count: number, agent = 'strong'): DecideRequest[] {
  const states = randomPositions({ players: 3 }, 7, 4 * count).filter((s) => s.phase < 3);
  return states.slice(0, count).map((s, seed) => ({
    agent: played(agent, 3),
    source: { kind: 'playerView', view: playerView(s, s.current) },
    seed,
    explain: true,
    outlook: false,
  }));
}

const pools: InferencePool[] = [];
async function pool(workers: number, batchMax = 64): Promise<InferencePool> {
  const made = new InferencePool({ workers, batchMax, batchWindowMs: 0 }, [played('strong'), played('random')], pino({ level: 'silent' }));
  pools.push(made);
  await made.start();
  return made;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('the inference pool', () => {
  it('decides a lone cheap request inline, and one per event-loop turn while nothing waits', async () => {
    const p = await pool(1);
    const [a, b] = policyRequests(2);
    const first = await p.decide(a);
    await new Promise((next) => setImmediate(next));
    const second = await p.decide(b);
    expect(p.stats.inline).toBe(2);
    expect(p.stats.batches).toBe(0);
    expect([first, second]).toEqual(await decideBatch([a, b]));
  });

  it('queues the cheap requests that arrive together, in batches of at most 16, with the same answers', async () => {
    const p = await pool(1);
    const asked = policyRequests(40);
    const answers = await Promise.all(asked.map((r) => p.decide(r)));
    expect(p.stats.inline).toBe(1);
    expect(p.stats.batches).toBeGreaterThanOrEqual(3);
    expect(p.stats.largestBatch).toBeLessThanOrEqual(16);
    expect(answers).toEqual(await decideBatch(asked));
  });

  it('never decides inline what is not cheap or asks for an outlook', async () => {
    const p = await pool(1);
    const [explained] = policyRequests(1).map((r) => ({ ...r, outlook: true }));
    const answer = await p.decide(explained);
    expect(answer.ok).toBe(true);
    expect(p.stats.inline).toBe(0);
    expect(p.stats.batches).toBe(1);
  }, 30_000);

  it('with no workers decides every request on the main thread, the queued ones in batches', async () => {
    const p = await pool(0);
    const asked = policyRequests(20);
    const answers = await Promise.all(asked.map((r) => p.decide(r)));
    expect(p.stats.inline).toBe(1);
    expect(p.stats.largestBatch).toBeLessThanOrEqual(16);
    expect(answers).toEqual(await decideBatch(asked));
  });
});
