// Every training transport against the one contract (test/training/transportContract.ts): the
// in-process bus and weight store, and the Redis transport on a real redis-server.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { INSTALL_HINT, RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import { connectRedis } from '../../support/redis.js';
import { LocalTrajectoryBus, LocalWeightStore } from '../../training/localTransport.js';
import { RedisTransport } from '../../training/redisTransport.js';
import { ACTORS, SAMPLE_RUN, transportContract } from './transportContract.js';

transportContract('in-process', () => {
  const bus = new LocalTrajectoryBus(ACTORS, 0, () => undefined);
  return Promise.resolve({ bus, weights: new LocalWeightStore(), actors: bus, close: () => Promise.resolve() });
});

if (redisAvailable()) {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(() => server?.dispose());
  const log = () => undefined;
  const learner = async (run: string) => {
    const transport = new RedisTransport(
      await connectRedis(server.url, 'test-learner'),
      await connectRedis(server.url, 'test-reader'),
      run,
      {
        log,
      },
    );
    await transport.startLearner(SAMPLE_RUN);
    return transport;
  };
  transportContract('redis', async () => {
    const run = randomBytes(4).toString('hex');
    const opened = [await learner(run)];
    const actors = new RedisTransport(await connectRedis(server.url, 'test-actor'), null, run, { log });
    return {
      bus: opened[0],
      weights: opened[0],
      actors,
      nextLearner: async () => {
        opened.push(await learner(run));
        return opened[opened.length - 1];
      },
      putUnreadable: async () => void (await actors.main.xadd(actors.keys.stream, '*', 'part', 'not a part')),
      close: async () => {
        await Promise.all(opened.map((t) => t.close()));
        await actors.main.quit();
      },
    };
  });
} else {
  describe('training transport contract: redis', () => it.skip(INSTALL_HINT, () => undefined));
}
