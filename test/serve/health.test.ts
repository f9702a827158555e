// GET /health as an orchestrator reads it (serve/net/http.ts): 503 `degraded` while the table store
// (a real redis-server) is down and 200 `ok` once it is back; live tables only (a finished game
// and a table whose client left are not counted); the model versions served; the draining flag
// (503 while a stopping process hands its tables over); and a store outage logged as one
// `table_unwritten` line and one summary, not a line per step per table (serve/tables/unwrittenLog.ts).
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_HINT, RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import type { Msg, RunningServer, ServerOptionsInput } from '../../serve/index.js';
import { MemoryTableStore, MemoryTables } from '../../serve/tables/tableStore.js';
import { UnwrittenLog } from '../../serve/tables/unwrittenLog.js';
import { TestClient, chooser, health, playToEnd, startTestServer, until } from './helpers.js';

const OPTIONS: ServerOptionsInput = { workers: 0, agents: ['strong', 'novice'], moveDeadlineMs: null };
const SEATS = ['client', 'strong', 'novice'];
const RULES = { eliminationLimit: 40 };

async function createTable(client: TestClient, seed: number): Promise<string> {
  const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats: SEATS, rules: RULES, seed });
  expect(created.type).toBe('table_created');
  return created.table;
}

/** Acts once for the client seat, on its latest state once that one offers legal actions. */
async function actOnce(client: TestClient, table: string, choose: ReturnType<typeof chooser>): Promise<void> {
  for (;;) {
    const states = client.frames.filter((m): m is Msg<'state'> => m.type === 'state' && m.table === table);
    const latest = states.at(-1);
    if (latest && latest.legal.length > 0) {
      const reply = await client.request({ type: 'act', table, action: choose(latest.legal), counter: latest.counter });
      expect(reply.type).toBe('acted');
      return;
    }
    await client.next((m) => m.type === 'state' && m.table === table);
  }
}

describe('/health on one process (memory store)', () => {
  it('counts live tables only, shows the model versions served and no draining', async () => {
    const server = await startTestServer(OPTIONS);
    try {
      const idle = await health(server);
      expect(idle.code).toBe(200);
      expect(idle.body).toMatchObject({
        status: 'ok',
        store: 'memory',
        storeAvailable: true,
        draining: false,
        tables: 0,
        tablesHeld: 0,
        tokenRequired: false,
      });
      expect(idle.body.models).toEqual({ strong: null, novice: null });

      const finisher = await TestClient.greeted(server.url);
      const finished = await createTable(finisher, 3);
      const leaver = await TestClient.greeted(server.url);
      await createTable(leaver, 4);
      expect((await health(server)).body).toMatchObject({ tables: 2, tablesHeld: 2 });

      await playToEnd(finisher, finished, chooser(3));
      expect((await health(server)).body).toMatchObject({ tables: 1, tablesHeld: 2 });
      await leaver.close();
      await until(async () => (await health(server)).body.tables === 0, 'the abandoned table no longer counted');
      expect((await health(server)).body.tablesHeld).toBe(2);
      await finisher.close();
    } finally {
      await server.close();
    }
  });

  it('answers 503 with draining while a stopping process hands its tables over, then stops', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const store = new MemoryTableStore(new MemoryTables());
    store.release = () => released;
    const server = await startTestServer(OPTIONS, undefined, { store });
    const client = await TestClient.greeted(server.url);
    await createTable(client, 5);
    const closed = server.close();
    await until(async () => (await health(server)).body.draining, 'the health answer saying draining');
    const draining = await health(server);
    expect(draining.code).toBe(503);
    expect(draining.body).toMatchObject({ status: 'shutting_down', draining: true });
    release();
    await closed;
    await client.closedPromise;
    await store.close();
  });
});

describe('UnwrittenLog', () => {
  it('logs the first refused write at once and the rest of the window as one summary line', () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const unwritten = new UnwrittenLog(log, 60_000);
    unwritten.record('t-a', 3, 'unavailable');
    for (let i = 0; i < 40; i++) unwritten.record(i % 2 ? 't-a' : 't-b', 4 + i, i < 39 ? 'unavailable' : 'missing');
    expect(lines.map((l) => l.event)).toEqual(['table_unwritten']);
    unwritten.flush();
    expect(lines[1]).toMatchObject({
      event: 'tables_unwritten',
      level: 40,
      count: 40,
      tables: 2,
      outcomes: { unavailable: 39, missing: 1 },
    });
    unwritten.close();
    expect(lines).toHaveLength(2);
  });
});

describe.skipIf(!redisAvailable())('/health with the Redis store', () => {
  let redis: RedisServer;
  let server: RunningServer;
  const logs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    server = await startTestServer({ ...OPTIONS, redis: redis.url }, logs);
  });

  afterAll(async () => {
    await server?.close();
    redis?.dispose();
  });

  it('is degraded (503) while Redis is down, ok again once it is back; the outage logs one line, a summary, and recovery at warn', async () => {
    expect(await health(server)).toMatchObject({ code: 200, body: { status: 'ok', store: 'redis', storeAvailable: true } });
    const clients = await Promise.all([1, 2].map(() => TestClient.greeted(server.url)));
    const tables = await Promise.all(clients.map((client, i) => createTable(client, 10 + i)));
    const choose = chooser(7);
    redis.stop();
    await until(async () => (await health(server)).code === 503, 'the health answer turning degraded');
    expect((await health(server)).body).toMatchObject({ status: 'degraded', storeAvailable: false, draining: false, tables: 2 });

    for (let step = 0; step < 3; step++) for (const [i, client] of clients.entries()) await actOnce(client, tables[i], choose);
    expect(logs.filter((l) => l.event === 'table_unwritten')).toHaveLength(1);

    redis.launch();
    await until(async () => (await health(server)).code === 200, 'the health answer ok again');
    expect((await health(server)).body).toMatchObject({ status: 'ok', storeAvailable: true });
    expect(logs.find((l) => l.event === 'store_back')?.level).toBe(40);

    await Promise.all(clients.map((client) => client.close()));
    await server.close();
    const summary = logs.find((l) => l.event === 'tables_unwritten');
    expect(summary?.level).toBe(40);
    expect(summary?.count).toBeGreaterThanOrEqual(1);
    expect(summary?.tables).toBeGreaterThanOrEqual(1);
  });
});

describe.skipIf(redisAvailable())('/health with the Redis store', () => it.skip(INSTALL_HINT, () => undefined));
