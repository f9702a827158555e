// Tables shared by several server processes (serve/tables/tableStore.ts, serve/tables/redisTableStore.ts):
// two in-process servers on one real redis-server (and, without Redis, on one shared memory
// store). A client that reconnects to the other server resumes its table there and finishes the
// very game one server alone would have played (same seed, same client choices: the same record);
// drain hands tables over; a Redis restart loses nothing; resumes racing for a table held by another
// OS process (a `yaniv serve` of its own) are decided by each caller's token. The store's own contract (fencing,
// claims, expiry, release) is test/serve/tables/tableStoreContract.ts.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import type { Msg, RunningServer, ServerMessage, ServerOptionsInput } from '../../serve/index.js';
import { tableKeys } from '../../serve/tables/redisTableStore.js';
import { MemoryTableStore, MemoryTables } from '../../serve/tables/tableStore.js';
import { TestClient, chooser, health, playToEnd, startTestServer, until } from './helpers.js';

const available = redisAvailable();
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const OPTIONS: ServerOptionsInput = { workers: 0, agents: ['strong', 'novice'], moveDeadlineMs: null };
const SEATS = ['client', 'strong', 'novice'];
/** Short games: the tests are about the handover, not the game. */
const RULES = { eliminationLimit: 40 };

type GameOver = Msg<'game_over'>;

async function createTable(client: TestClient, seed: number): Promise<Msg<'table_created'>> {
  const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats: SEATS, rules: RULES, seed });
  expect(created.type).toBe('table_created');
  return created;
}

/** Acts `steps` times for the client seat (on the latest state each time); returns the last counter acted on. */
async function playSome(client: TestClient, table: string, choose: ReturnType<typeof chooser>, steps: number): Promise<number> {
  let seen = 0;
  let counter = -1;
  for (let done = 0; done < steps;) {
    const state = (await client.next((m) => m.type === 'state' && m.table === table && m.legal.length > 0, seen)) as Msg<'state'>;
    seen = client.frames.indexOf(state) + 1;
    if (client.frames.slice(seen).some((m) => m.type === 'state' && m.table === table)) continue;
    const reply = await client.request({ type: 'act', table, action: choose(state.legal), counter: state.counter });
    expect(reply.type).toBe('acted');
    counter = state.counter;
    done++;
  }
  return counter;
}

/** The game one server alone plays with this seed and these client choices. */
async function referenceGame(seed: number, choiceSeed: number): Promise<GameOver> {
  const server = await startTestServer(OPTIONS);
  try {
    const client = await TestClient.greeted(server.url);
    const created = await createTable(client, seed);
    const over = await playToEnd(client, created.table, chooser(choiceSeed));
    await client.close();
    return over;
  } finally {
    await server.close();
  }
}

/** Plays `steps` client steps on `first`, disconnects, resumes on `second` and finishes there. */
async function gameAcross(first: RunningServer, second: RunningServer, seed: number, choiceSeed: number, steps: number) {
  const choose = chooser(choiceSeed);
  const a = await TestClient.greeted(first.url);
  const created = await createTable(a, seed);
  await playSome(a, created.table, choose, steps);
  const counterBefore = lastCounter(a.frames, created.table);
  await a.close();
  const b = await TestClient.greeted(second.url);
  const resumed = await b.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: created.token });
  expect(resumed).toMatchObject({ type: 'resumed', table: created.table });
  expect(resumed.counter).toBeGreaterThanOrEqual(counterBefore);
  const over = await playToEnd(b, created.table, choose);
  await b.close();
  return { created, resumed, over };
}

function lastCounter(frames: readonly ServerMessage[], table: string): number {
  const states = frames.filter((m): m is Msg<'state'> => m.type === 'state' && m.table === table);
  return states[states.length - 1].counter;
}

/** `yaniv serve --redis` in a process of its own: its address once it prints it, and its exit code once it exits. */
async function spawnServe(redisUrl: string, extra: string[] = []) {
  const child = spawn(
    process.execPath,
    [MAIN, 'serve', '--port', '0', '--workers', '0', '--agents', 'strong,novice', '--redis', redisUrl, ...extra],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const found = /ws:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`yaniv serve exited with ${code}`)));
  });
  return { child, url, exited };
}

/** Two servers sharing one in-memory table store (as two processes share Redis), closed after `run`. */
async function withSharedStore(run: (first: RunningServer, second: RunningServer) => Promise<void>): Promise<void> {
  const shared = new MemoryTables();
  const [first, second] = await Promise.all([
    startTestServer(OPTIONS, undefined, { store: new MemoryTableStore(shared) }),
    startTestServer(OPTIONS, undefined, { store: new MemoryTableStore(shared) }),
  ]);
  try {
    await run(first, second);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
}

describe('two servers sharing one memory store', () => {
  it('a table resumed on the other server finishes as the same game', async () => {
    await withSharedStore(async (first, second) => {
      const reference = await referenceGame(7, 3);
      const { over } = await gameAcross(first, second, 7, 3, 6);
      expect(over.record).toEqual(reference.record);
      expect(over.totals).toEqual(reference.totals);
    });
  });
});

describe('a table with a guest seat across two servers sharing one memory store', () => {
  it('a joiner reaching the other server takes the table over from the store with its seats; the creator resumes there', async () => {
    await withSharedStore(async (first, second) => {
      const a = await TestClient.greeted(first.url);
      const created = await a.request<Msg<'table_created'>>({
        type: 'create_table',
        seats: ['client', 'guest'],
        standIn: 'novice',
        seed: 4,
      });
      // The table is written to the store before table_created goes out: the other process finds it there.
      const b = await TestClient.greeted(second.url);
      const moved = a.next((m) => m.type === 'table_closed');
      const joined = await b.request<Msg<'joined'>>({ type: 'join_table', code: created.invite?.code, name: 'Lee' });
      expect(joined).toMatchObject({ type: 'joined', seat: 1, lobby: true });
      expect(await moved).toMatchObject({ reason: 'resumed_elsewhere' });
      // The creator follows the table to the process that holds it now (as behind nginx, by its id).
      const back = await TestClient.greeted(second.url);
      const resumed = await back.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: created.token });
      expect(resumed).toMatchObject({ type: 'resumed', lobby: true, seats: [{ seat: 0 }, { seat: 1, name: 'Lee', present: true }] });
      await back.request({ type: 'start_table', table: created.table });
      const [overA, overB] = await Promise.all([playToEnd(back, created.table, chooser(1)), playToEnd(b, created.table, chooser(2))]);
      expect(overB.record).toEqual(overA.record);
      await Promise.all([a.close(), b.close(), back.close()]);
    });
  });
});

describe('play again with friends across two servers sharing one memory store', () => {
  it("the next table holds its followers' seats in the store: a follower's new token takes the seat back on the other server", async () => {
    await withSharedStore(async (first, second) => {
      const host = await TestClient.greeted(first.url);
      const table = { type: 'create_table', seats: ['client', 'guest', 'novice'], standIn: 'novice', rules: RULES } as const;
      const created = await host.request<Msg<'table_created'>>({ ...table, seed: 5 });
      const guest = await TestClient.greeted(first.url);
      await guest.request({ type: 'join_table', code: created.invite?.code, name: 'Lee' });
      const told = guest.next((m) => m.type === 'next_table');
      const again = await host.request<Msg<'table_created'>>({ ...table, seed: 6, follows: created.table });
      const next = (await told) as Msg<'next_table'>;
      expect(next).toMatchObject({ table: again.table, follows: created.table, seat: 1 });
      // The guest's connection drops; it comes back through the other process with its new token.
      await guest.close();
      const back = await TestClient.greeted(second.url);
      const resumed = await back.request<Msg<'resumed'>>({ type: 'resume', table: again.table, token: next.token });
      expect(resumed).toMatchObject({
        type: 'resumed',
        seat: 1,
        seats: [{ seat: 0 }, { seat: 1, name: 'Lee' }, { seat: 2 }],
      });
      const hostBack = await TestClient.greeted(second.url);
      await hostBack.request({ type: 'resume', table: again.table, token: again.token });
      expect(await hostBack.request({ type: 'start_table', table: again.table })).toMatchObject({ type: 'started' });
      const [overA, overB] = await Promise.all([playToEnd(hostBack, again.table, chooser(1)), playToEnd(back, again.table, chooser(2))]);
      expect(overB.record).toEqual(overA.record);
      await Promise.all([host.close(), back.close(), hostBack.close()]);
    });
  });
});

describe.skipIf(!available)('two servers sharing one redis-server', () => {
  let redis: RedisServer;
  let first: RunningServer;
  let second: RunningServer;
  let direct: Redis;

  beforeAll(async () => {
    redis = await RedisServer.start();
    [first, second] = await Promise.all([
      startTestServer({ ...OPTIONS, redis: redis.url }),
      startTestServer({ ...OPTIONS, redis: redis.url }),
    ]);
    direct = new Redis(redis.url);
    direct.on('error', () => undefined);
  });
  afterAll(async () => {
    direct.disconnect();
    await Promise.all([first?.close(), second?.close()]);
    redis?.dispose();
  });

  it('welcome and /health say the store is redis', async () => {
    const client = await TestClient.connect(first.url);
    const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
    expect(welcome.store).toBe('redis');
    await client.close();
  });

  it('a client that reconnects to the other process resumes there and finishes the same game', async () => {
    const reference = await referenceGame(11, 5);
    const { over, created } = await gameAcross(first, second, 11, 5, 8);
    expect(over.record).toEqual(reference.record);
    expect(over.totals).toEqual(reference.totals);
    expect(over.counter).toBe(reference.counter);
    // The store has every step, and the table's seats and token.
    const [hash, moves] = tableKeys(created.table);
    expect(Number(await direct.hget(hash, 'counter'))).toBe(over.counter);
    expect((await direct.get(moves))?.split(',').length).toBe(over.counter + 1);
    expect(await direct.pttl(hash)).toBeGreaterThan(0);
  });

  it('the old owner, still connected, lets go when another process claims the table', async () => {
    const a = await TestClient.greeted(first.url);
    const created = await createTable(a, 21);
    await playSome(a, created.table, chooser(2), 3);
    const b = await TestClient.greeted(second.url);
    const since = a.frames.length;
    const resumed = await b.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: created.token });
    expect(resumed.type).toBe('resumed');
    const closed = await a.next((m) => m.type === 'table_closed', since);
    expect(closed).toMatchObject({ type: 'table_closed', table: created.table, reason: 'resumed_elsewhere' });
    // The old owner's connection no longer plays it; the new one does, from the same counter.
    const stale = await a.request({ type: 'act', table: created.table, action: 0, counter: resumed.counter });
    expect(stale).toMatchObject({ type: 'error', code: 'unknown_table' });
    const over = await playToEnd(b, created.table, chooser(2));
    expect(over.type).toBe('game_over');
    await Promise.all([a.close(), b.close()]);
  });

  it('a wrong token is unknown_table on any process, and says nothing of the table', async () => {
    const a = await TestClient.greeted(first.url);
    const created = await createTable(a, 31);
    const b = await TestClient.greeted(second.url);
    const forged = await b.request({ type: 'resume', table: created.table, token: 'x'.repeat(created.token.length) });
    expect(forged).toMatchObject({ type: 'error', code: 'unknown_table', field: 'table' });
    const missing = await b.request({ type: 'resume', table: 't-nosuchtable', token: created.token });
    expect(missing).toMatchObject({ type: 'error', code: 'unknown_table' });
    await Promise.all([a.close(), b.close()]);
  });

  it("resumes racing for a table another OS process holds: each caller's own token decides, in either order (issue 39)", async () => {
    // The owner here, the two callers on a `yaniv serve` of its own: the load they race goes through Redis between processes.
    const other = await spawnServe(redis.url);
    const owner = await TestClient.greeted(first.url);
    const [player, intruder] = await Promise.all([TestClient.greeted(other.url), TestClient.greeted(other.url)]);
    for (let trial = 0; trial < 10; trial++) {
      const created = await createTable(owner, 70 + trial);
      const forged = `${created.token.slice(0, -1)}${created.token.endsWith('A') ? 'B' : 'A'}`;
      const right = () => player.request({ type: 'resume', table: created.table, token: created.token });
      const wrong = () => intruder.request({ type: 'resume', table: created.table, token: forged });
      // Sent in one event-loop turn, so that both reach the other process while its load is in flight.
      const [good, bad] = trial % 2 === 0 ? [right(), wrong()] : [...[wrong(), right()].reverse()];
      expect(await good, `trial ${trial}: the real player`).toMatchObject({ type: 'resumed', table: created.table });
      expect(await bad, `trial ${trial}: the wrong token`).toMatchObject({ type: 'error', code: 'unknown_table', field: 'table' });
      expect(intruder.frames.some((m) => 'table' in m && m.table === created.table)).toBe(false);
    }
    await Promise.all([owner.close(), player.close(), intruder.close()]);
    other.child.kill('SIGTERM');
    expect(await other.exited).toBe(0);
  });

  it('drain: the stopping process hands its table over and tells the client to reconnect; the game goes on elsewhere', async () => {
    const draining = await startTestServer({ ...OPTIONS, redis: redis.url });
    const reference = await referenceGame(41, 9);
    const choose = chooser(9);
    const a = await TestClient.greeted(draining.url);
    const created = await createTable(a, 41);
    await playSome(a, created.table, choose, 5);
    const closing = draining.close();
    const notice = (await a.next((m) => m.type === 'reconnect')) as Msg<'reconnect'>;
    expect(notice).toMatchObject({ reason: 'draining', tables: [created.table] });
    expect(await a.closedPromise).toBe(1012);
    await closing;
    const b = await TestClient.greeted(second.url);
    const resumed = await b.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: created.token });
    expect(resumed.counter).toBe(lastCounter(a.frames, created.table));
    const over = await playToEnd(b, created.table, choose);
    expect(over.record).toEqual(reference.record);
    await b.close();
  });

  it('yaniv serve --redis on SIGTERM: drains, exits 0 within its bound, and the table goes on in another process', async () => {
    const { child, url, exited } = await spawnServe(redis.url, ['--shutdown-ms', '3000']);
    const a = await TestClient.greeted(url);
    const created = await createTable(a, 61);
    await playSome(a, created.table, chooser(6), 2);
    child.kill('SIGTERM');
    const notice = (await a.next((m) => m.type === 'reconnect')) as Msg<'reconnect'>;
    expect(notice.tables).toEqual([created.table]);
    expect(await a.closedPromise).toBe(1012);
    expect(await exited).toBe(0);
    const b = await TestClient.greeted(second.url);
    const resumed = await b.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: created.token });
    expect(resumed.counter).toBe(lastCounter(a.frames, created.table));
    await b.close();
  });

  it('Redis restarted: the owner keeps serving from memory and writes the table again once Redis is back', async () => {
    const reference = await referenceGame(51, 4);
    const a = await TestClient.greeted(first.url);
    const created = await createTable(a, 51);
    const choose = chooser(4);
    await playSome(a, created.table, choose, 2);
    redis.stop();
    await playSome(a, created.table, choose, 3);
    redis.launch();
    const counter = lastCounter(a.frames, created.table);
    const probe = new Redis(redis.url);
    probe.on('error', () => undefined);
    try {
      const [hash] = tableKeys(created.table);
      await until(async () => Number((await probe.hget(hash, 'counter')) ?? -1) === counter, 'the table written again once Redis is back');
    } finally {
      probe.disconnect();
    }
    await a.close();
    // The other process reconnects to Redis on its own schedule: resume there once its health says its store is back.
    await until(async () => (await health(second)).code === 200, "the other server's store back");
    const b = await TestClient.greeted(second.url);
    const resumed = await b.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: created.token });
    expect(resumed.counter).toBe(counter);
    const over = await playToEnd(b, created.table, choose);
    expect(over.record).toEqual(reference.record);
    await b.close();
  });
});
