// Every TableStore against the one contract (test/serve/tables/tableStoreContract.ts): the memory store
// shared by three in-process servers, and the Redis store on a real redis-server.
import pino from 'pino';
import { describe, it } from 'vitest';
import { INSTALL_HINT, RedisServer, redisAvailable } from '../../../scripts/redisServer.js';
import { RedisTableStore } from '../../../serve/tables/redisTableStore.js';
import { MemoryTableStore, MemoryTables } from '../../../serve/tables/tableStore.js';
import { tableStoreContract } from './tableStoreContract.js';

tableStoreContract('memory (shared)', () => {
  const tables = new MemoryTables();
  const stores = [new MemoryTableStore(tables), new MemoryTableStore(tables), new MemoryTableStore(tables)] as const;
  return Promise.resolve({ stores, close: async () => void (await Promise.all(stores.map((s) => s.close()))) });
});

if (redisAvailable()) {
  tableStoreContract('redis', async () => {
    const server = await RedisServer.start();
    const log = pino({ level: 'silent' });
    const [a, b, c] = await Promise.all(
      ['owner-a', 'owner-b', 'owner-c'].map((owner) => RedisTableStore.connect({ url: server.url, owner, log })),
    );
    return {
      stores: [a, b, c],
      close: async () => {
        await Promise.all([a, b, c].map((s) => s.close()));
        server.dispose();
      },
      outage: { down: () => server.stop(), up: () => server.launch() },
    };
  });
} else {
  describe('TableStore contract: redis', () => it.skip(INSTALL_HINT, () => undefined));
}
