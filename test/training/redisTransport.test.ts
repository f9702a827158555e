// The Redis trajectory bus against a real redis-server: a take that waits long for its samples
// still uses each entry once, even after its own entries have idled past the claim time (XAUTOCLAIM
// hands a consumer's own pending entries back).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../support/redis.js';
import { RedisTransport } from '../../training/redisTransport.js';
import { emptyRolloutStats, emptyTrajectoryBatch } from '../../training/trajectory.js';
import type { TrajectoryPart } from '../../training/transport.js';
import { RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import { SAMPLE_RUN } from './transportContract.js';

const available = redisAvailable();
let server: RedisServer;

const part = (actor: string, weightsVersion = 0): TrajectoryPart => ({
  actor,
  weightsVersion,
  mode: { kind: 'ppo' },
  trajectories: emptyTrajectoryBatch(3, false),
  stats: emptyRolloutStats(),
});
const RUN = SAMPLE_RUN;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!available)('Redis trajectory bus', () => {
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(() => server?.dispose());

  it('uses each entry once in a take that outlasts the claim time', async () => {
    const main = await connectRedis(server.url, 'test-learner');
    const blocking = await connectRedis(server.url, 'test-learner-blocking');
    const transport = new RedisTransport(main, blocking, 'claimtest', { log: () => undefined, claimIdleMs: 50 });
    await transport.startLearner(RUN);
    const producer = await connectRedis(server.url, 'test-actor');
    const actor = new RedisTransport(producer, null, 'claimtest', { log: () => undefined });
    await actor.put(part('a'));
    const taking = transport.take({ samples: 9, usable: () => true });
    // Each later part arrives after the first has idled past the claim time.
    await pause(300);
    await actor.put(part('b'));
    await pause(300);
    await actor.put(part('c'));
    const taken = await taking;
    expect(taken.parts.map((p) => p.actor)).toEqual(['a', 'b', 'c']);
    expect(new Set(taken.receipt as string[]).size).toBe(3);
    await transport.ack(taken);
    expect(await main.xlen(transport.keys.stream)).toBe(0);
    await transport.close();
    await producer.quit();
  });

  it('deletes the entries it cannot use at once, not when the take ends (they would hold the actors back)', async () => {
    const main = await connectRedis(server.url, 'test-learner');
    const transport = new RedisTransport(main, null, 'staletest', { log: () => undefined });
    await transport.startLearner(RUN);
    const producer = await connectRedis(server.url, 'test-actor');
    const actor = new RedisTransport(producer, null, 'staletest', { log: () => undefined });
    await actor.put(part('old', 0));
    await actor.put(part('old', 0));
    const taking = transport.take({ samples: 3, usable: (p) => p.weightsVersion >= 1 });
    await pause(300);
    expect(await main.xlen(transport.keys.stream)).toBe(0);
    await actor.put(part('new', 1));
    const taken = await taking;
    expect(taken.parts.map((p) => p.actor)).toEqual(['new']);
    expect(taken.stale).toEqual({ parts: 2, decisions: 6 });
    await transport.close();
    await producer.quit();
  });
});
