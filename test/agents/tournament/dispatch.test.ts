// Every bench dispatcher against the one contract (test/agents/tournament/dispatcherContract.ts):
// worker threads of this process, and a BullMQ queue on a real redis-server with a `yaniv worker`
// process playing its jobs.
import { describe, it } from 'vitest';
import { threadDispatcher } from '../../../agents/tournament/dispatch.js';
import type * as QueueModule from '../../../agents/tournament/queue.js';
import { INSTALL_HINT, RedisServer, redisAvailable } from '../../../scripts/redisServer.js';
import { requireBuild, start } from '../../cli/processes.js';
import { dispatcherContract } from './dispatcherContract.js';

const DIST = new URL('../../../dist/agents/tournament/', import.meta.url);

dispatcherContract('worker threads', () =>
  Promise.resolve({ dispatcher: threadDispatcher(new URL('worker.js', DIST)), close: () => Promise.resolve() }),
);

if (redisAvailable()) {
  dispatcherContract('BullMQ', async () => {
    requireBuild();
    const server = await RedisServer.start();
    const worker = start('worker', '--redis', server.url, '--concurrency', '2', '--lock-seconds', '5');
    // The compiled dispatcher: a job names its build (the compiled code's hash), which the worker's must match.
    const compiled = (await import(new URL('queue.js', DIST).href)) as typeof QueueModule;
    const dispatcher = await compiled.queueDispatcher({ url: server.url, log: () => undefined, jobGames: 4 });
    return {
      dispatcher,
      close: async () => {
        worker.process.kill('SIGTERM');
        await worker.exited;
        await dispatcher.close();
        server.dispose();
      },
    };
  });
} else {
  describe('bench dispatcher contract: BullMQ', () => it.skip(INSTALL_HINT, () => undefined));
}
