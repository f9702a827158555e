// A table bound to a shared store tells no step before the store holds it: a process that
// rebuilds the table after this one dies must not start from a state older than one a client
// was shown (the cluster failover test once saw a client shown counter 8, then 7, when a bot's
// step went out with its write in flight and the process was killed in between).
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { decideBatch, playedAgent } from '../../../serve/inference/decide.js';
import { resolveAgent } from '../../../agents/resolve.js';
import type { ServerMessage } from '../../../serve/protocol/protocol.js';
import { ServerTable } from '../../../serve/tables/table.js';
import { MemoryTableStore, MemoryTables, type TableStore, type WriteOutcome } from '../../../serve/tables/tableStore.js';
import { until } from '../helpers.js';
import { sampleSettings } from './tableStoreContract.js';

/** A memory store whose writes land a few milliseconds after they are asked for, as a network store's do. */
function slowStore(tables: MemoryTables): TableStore {
  const store = new MemoryTableStore(tables);
  const later = (write: () => WriteOutcome) => new Promise<WriteOutcome>((resolve) => setTimeout(() => resolve(write()), 2));
  const { put, append } = { put: store.put.bind(store), append: store.append.bind(store) };
  return Object.assign(store as TableStore, {
    put: (...args: Parameters<typeof put>) => later(() => put(...args)),
    append: (...args: Parameters<typeof append>) => later(() => append(...args)),
  });
}

describe('a table bound to a shared store', () => {
  it("shows no step, a bot's or the client's, before the store holds it", async () => {
    const tables = new MemoryTables();
    const store = slowStore(tables);
    const table = new ServerTable(
      sampleSettings('t-slow', {
        token: 'x',
        rules: { eliminationLimit: 30 },
        seats: [
          { seat: 0, player: 'client' },
          { seat: 1, player: 'bot', agent: 'novice' },
          { seat: 2, player: 'bot', agent: 'strong' },
        ],
        seed: 5,
        maxTurns: 2_000,
        models: {},
      }),
      {
        resolve: (agent, table) => Promise.resolve(resolveAgent(agent, table)),
        decide: async (agent, view, seed) =>
          (await decideBatch([{ agent: playedAgent(agent), source: { kind: 'playerView', view }, seed, explain: false }]))[0],
        log: pino({ level: 'silent' }),
        now: Date.now,
        idleMs: 60_000,
        standInMs: 5000,
        lost: () => undefined,
      },
    );
    const shown: { counter: number; stored: number }[] = [];
    let over = false;
    const owner = {
      deliver: (message: ServerMessage) => {
        if (!('counter' in message) || typeof message.counter !== 'number') return;
        shown.push({ counter: message.counter, stored: tables.entries.get('t-slow')?.snapshot.moves.length ?? 0 });
        if (message.type === 'game_over') over = true;
        if (message.type === 'state' && message.legal.length > 0)
          setImmediate(() => table.act(owner, 0, { action: message.legal[0].action }, message.counter, () => undefined));
      },
      tableClosed: () => undefined,
      follow: () => undefined,
    };
    table.owner = owner;
    table.bind(store, { id: 't-slow', fence: 1 }, false);
    table.start();
    await until(() => over, 'the game over', 45_000);
    table.close();
    expect(shown.length).toBeGreaterThan(20);
    for (const { counter, stored } of shown) expect(stored, `a message at counter ${counter}`).toBeGreaterThanOrEqual(counter);
  });
});
