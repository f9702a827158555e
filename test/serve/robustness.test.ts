// Garbage never crashes the server or touches another table: thousands of malformed messages
// (fast-check) each get one error and no more, after which a clean game is played; oversize
// frames close only their connection; 200 concurrent clients each play a game to the end with
// no lost or crossed messages; a client reconnects and resumes its table; deadlines, idle
// tables, heartbeats and slow consumers are handled.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecord, replay } from '../../env/index.js';
import type { Msg, RunningServer, ServerMessage } from '../../serve/index.js';
import { REPLY_TYPES, type ReplyTo, type Request } from '../../serve/protocol/protocol.js';
import { LONG, TestClient, chooser, playToEnd, startTestServer, until } from './helpers.js';

const SHORT_GAME = { eliminationLimit: 30 };
const REPLIES = new Set<string>([...Object.values(REPLY_TYPES), 'error']);

/** A reply to a request (as opposed to a table message). */
const isReply = (m: ServerMessage) => REPLIES.has(m.type);

function replaysTo(over: Msg<'game_over'>): void {
  const { result } = replay(parseRecord(over.record));
  if (!result.ok) throw new Error(result.error);
  expect(result).toMatchObject({ gameOver: true, winner: over.winner, totals: over.totals });
}

describe('garbage', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ maxMessagesPerSecond: 1_000_000, agents: ['strong', 'novice'] });
  });
  afterAll(() => server.close());

  const valid = fc.constantFrom<Record<string, unknown>>(
    { type: 'ping', id: 1 },
    { type: 'act', id: 2, table: 't-x', action: 5, counter: 0 },
    { type: 'create_table', id: 3, seats: ['client', 'novice'], rules: { eliminationLimit: 30 } },
    {
      type: 'advise',
      id: 4,
      view: {
        format: 'yaniv-view/1',
        players: 2,
        seat: 0,
        current: 0,
        phase: 'turn',
        hand: ['AS'],
        handSizes: [1, 1],
        known: [[], []],
        previous: { type: 'single', cards: ['KD'], pickable: ['KD'] },
        deckSize: 51,
        totals: [0, 0],
      },
    },
    { type: 'resume', id: 5, table: 't-x', token: 'x' },
  );
  const nasty = fc.oneof(
    fc.constantFrom<unknown>(null, [], 1e308, -0, '__proto__', { __proto__: null }, 'x'.repeat(5000), 2 ** 53 + 1, Number.MAX_VALUE),
    fc.jsonValue({ maxDepth: 4 }),
    fc.string({ maxLength: 300 }),
  );
  /** A valid message with one field replaced, removed or added. */
  const mutated = fc
    .tuple(valid, fc.string({ maxLength: 12 }), nasty, fc.constantFrom('replace', 'remove', 'add'))
    .map(([message, key, value, how]) => {
      const copy: Record<string, unknown> = structuredClone(message);
      const keys = Object.keys(copy);
      const target = how === 'add' ? key : keys[key.length % keys.length];
      if (how === 'remove') delete copy[target];
      else copy[target] = value;
      return JSON.stringify(copy);
    });
  const deep = fc.integer({ min: 17, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
  const protoKeys = fc.constantFrom(
    '{"type":"ping","id":1,"__proto__":{"admin":true}}',
    '{"type":"create_table","id":1,"seats":["client","novice"],"rules":{"constructor":{"prototype":1}}}',
    '{"type":"hello","id":1,"version":1e400}',
  );
  const text = fc.oneof(
    mutated,
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
    deep,
    protoKeys,
  );
  const frame = fc.oneof(
    text.map((t) => ({ data: t, binary: false })),
    fc.uint8Array({ maxLength: 300 }).map((b) => ({ data: b, binary: true })),
  );

  it.each(['json', 'msgpack'] as const)(
    'thousands of malformed %s messages each get one reply, then a clean game is played',
    async (encoding) => {
      const runs = LONG ? 20_000 : 1500;
      const client = await TestClient.greeted(server.url, encoding);
      const frames = fc.sample(
        fc.oneof(
          frame,
          mutated.map((t) => ({ data: t, binary: encoding === 'msgpack' })),
        ),
        { numRuns: runs, seed: encoding.length },
      );
      const repliesBefore = client.frames.filter(isReply).length;
      for (const { data, binary } of frames) {
        // On a MessagePack connection, also send the JSON text as a MessagePack string or map.
        if (encoding === 'msgpack' && binary && typeof data === 'string') {
          let parsed: unknown = data;
          try {
            parsed = JSON.parse(data);
          } catch {
            // keep the text itself
          }
          client.send(parsed as object);
        } else {
          client.sendRaw(typeof data === 'string' ? data : Buffer.from(data), binary);
        }
      }
      await until(() => client.frames.filter(isReply).length >= repliesBefore + runs, `${runs} replies`, 45_000);
      // Some mutated messages are valid (a table may even be created); every message was answered once.
      expect(client.frames.filter(isReply).length).toBe(repliesBefore + runs);
      expect(client.frames.filter((m) => m.type === 'error').every((m) => m.type === 'error' && m.code !== 'internal')).toBe(true);
      expect(client.ws.readyState).toBe(client.ws.OPEN);
      await client.close();
      const clean = await TestClient.greeted(server.url, encoding);
      const created = await clean.request<Msg<'table_created'>>({
        type: 'create_table',
        seats: ['client', 'strong'],
        rules: SHORT_GAME,
        seed: 4,
      });
      replaysTo(await playToEnd(clean, created.table, chooser(4)));
      await clean.close();
    },
  );

  it('a frame over 64 KiB closes only its own connection (1009)', async () => {
    const bystander = await TestClient.greeted(server.url);
    const created = await bystander.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'novice'],
      rules: SHORT_GAME,
      seed: 8,
    });
    const big = await TestClient.greeted(server.url);
    big.sendRaw(JSON.stringify({ type: 'ping', id: 1, pad: 'x'.repeat(3 * 1024 * 1024) }), false);
    expect(await big.closedPromise).toBe(1009);
    replaysTo(await playToEnd(bystander, created.table, chooser(8)));
    await bystander.close();
  });

  it("actions for another seat or another client's table change nothing there", async () => {
    const owner = await TestClient.greeted(server.url);
    const intruder = await TestClient.greeted(server.url);
    const created = await owner.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'novice', 'client'],
      rules: SHORT_GAME,
      seed: 9,
      thinkMs: 0,
    });
    const state = (await owner.next((m) => m.type === 'state' && m.seat === 0, 0)) as Msg<'state'>;
    for (let i = 0; i < 50; i++) {
      const reply = await intruder.request({
        type: 'act',
        table: created.table,
        seat: i % 3,
        action: state.legal[i % state.legal.length].action,
        counter: state.counter,
      });
      expect(reply).toMatchObject({ type: 'error', code: 'unknown_table' });
    }
    expect(await owner.request({ type: 'act', table: created.table, seat: 1, action: state.legal[0].action, counter: 0 })).toMatchObject({
      code: 'not_your_turn',
    });
    expect(await owner.request({ type: 'act', table: created.table, seat: 2, action: state.legal[0].action, counter: 0 })).toMatchObject({
      code: 'not_your_turn',
    });
    expect(intruder.frames.filter((m) => m.type !== 'error').some((m) => 'table' in m)).toBe(false);
    replaysTo(await playToEnd(owner, created.table, chooser(9)));
    await owner.close();
    await intruder.close();
  });
});

describe('load', () => {
  it('200 concurrent clients each play a game to the end, with no lost or crossed messages', async () => {
    const clients = LONG ? 400 : 200;
    // Every client on one address: its share of the server's connections and tables is all of them here.
    const server = await startTestServer({ agents: ['strong', 'novice'], maxConnectionsPerAddress: clients, maxTablesPerAddress: clients });
    const results = await Promise.all(
      Array.from({ length: clients }, async (_, i) => {
        const client = await TestClient.greeted(server.url, i % 2 ? 'msgpack' : 'json');
        const created = await client.request<Msg<'table_created'>>({
          type: 'create_table',
          seats: ['client', i % 3 ? 'novice' : 'strong'],
          rules: LONG ? {} : { eliminationLimit: 10 },
          seed: i,
        });
        const over = await playToEnd(client, created.table, chooser(i));
        await client.close();
        return { client, table: created.table, over };
      }),
    );
    for (const { client, table, over } of results) {
      expect(client.frames.every((m) => !('table' in m) || m.table === table)).toBe(true);
      const counters = client.frames.filter((m): m is Msg<'event'> => m.type === 'event').map((m) => m.counter);
      expect(counters).toEqual(Array.from({ length: over.counter }, (_, k) => k + 1));
      replaysTo(over);
    }
    expect(new Set(results.map((r) => r.table)).size).toBe(clients);
    await server.close();
  });
});

describe('tables over time', () => {
  let server: RunningServer;
  const logs: Record<string, unknown>[] = [];
  beforeAll(async () => {
    // The default idle limit (10 min): a table here is never closed for idling by a stall of the machine.
    server = await startTestServer({ agents: ['novice'], moveDeadlineMs: 60_000 }, logs);
  });
  afterAll(() => server.close());

  it('a client that reconnects resumes its table with the token, where it was', async () => {
    const first = await TestClient.greeted(server.url, 'msgpack');
    const created = await first.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'novice'],
      rules: SHORT_GAME,
      seed: 12,
    });
    const state = (await first.next((m) => m.type === 'state', 0)) as Msg<'state'>;
    await first.request({ type: 'act', table: created.table, action: state.legal[0].action, counter: state.counter });
    await first.close();

    const second = await TestClient.greeted(server.url);
    const resumed = await second.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: created.token });
    expect(resumed).toMatchObject({ type: 'resumed', table: created.table, token: created.token, seats: created.seats, seat: null });
    const after = (await second.next((m) => m.type === 'state', 0)) as Msg<'state'>;
    expect(after.counter).toBe(resumed.counter);
    expect(after.counter).toBeGreaterThanOrEqual(1);

    // A third connection takes it over: the second is told so.
    const third = await TestClient.greeted(server.url);
    await third.request({ type: 'resume', table: created.table, token: created.token });
    expect(await second.next((m) => m.type === 'table_closed', 0)).toMatchObject({ reason: 'resumed_elsewhere' });
    expect(await second.request({ type: 'advise', table: created.table })).toMatchObject({ code: 'unknown_table' });
    replaysTo(await playToEnd(third, created.table, chooser(12)));
    await second.close();
    await third.close();
  });

  it('a client seat that lets its deadline pass gets the documented default action', async () => {
    const client = await TestClient.greeted(server.url);
    const created = await client.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'novice'],
      seed: 5,
      moveDeadlineMs: 100,
    });
    const state = (await client.next((m) => m.type === 'state', 0)) as Msg<'state'>;
    expect(state.deadlineMs).not.toBeNull();
    const event = (await client.next((m) => m.type === 'event', 0)) as Msg<'event'>;
    expect(event).toMatchObject({ timeout: true, actor: 0, kind: 'discard' });
    const singles = state.legal.filter((l) => l.kind === 'discard' && l.cards.length === 1);
    const value = (card: string) =>
      (({ A: 1, J: 10, Q: 10, K: 10 }) as Record<string, number>)[card.slice(0, -1)] ?? (Number(card.slice(0, -1)) || 0);
    expect(value(event.cards[0])).toBe(Math.max(...singles.map((l) => value(l.cards[0]))));
    const draw = (await client.next((m) => m.type === 'event' && m.counter === 2, 0)) as Msg<'event'>;
    expect(draw).toMatchObject({ timeout: true, kind: 'draw' });
    await client.request({ type: 'leave', table: created.table });
    await client.close();
  });

  it('a table no client touches is closed after idleTableMs', async () => {
    // Its own server with a short idle limit, so that the other tests' tables never race it.
    const idleLogs: Record<string, unknown>[] = [];
    const idle = await startTestServer({ agents: ['novice'], idleTableMs: 300, moveDeadlineMs: 60_000 }, idleLogs);
    const client = await TestClient.greeted(idle.url);
    const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'novice'] });
    expect(await client.next((m) => m.type === 'table_closed', 0)).toMatchObject({ table: created.table, reason: 'idle' });
    expect(await client.request({ type: 'resume', table: created.table, token: created.token })).toMatchObject({ code: 'unknown_table' });
    expect(idleLogs.some((l) => l.event === 'table_expired')).toBe(true);
    await client.close();
    await idle.close();
  });
});

describe('connections', () => {
  it('a peer that does not answer protocol pings is terminated; the application ping works before hello', async () => {
    const server = await startTestServer({ agents: ['novice'], heartbeatMs: 100 });
    const quiet = new TestClient(server.url, 'json', { autoPong: false });
    await quiet.opened;
    expect((await quiet.request({ type: 'ping' })).type).toBe('pong');
    expect(await quiet.closedPromise).toBe(1006);
    await server.close();
  });

  it('a client that does not read is closed (1013) once too much is buffered for it', async () => {
    const logs: Record<string, unknown>[] = [];
    const server = await startTestServer({ agents: ['novice'], maxBufferedBytes: 64 * 1024, maxMessagesPerSecond: 1_000_000 }, logs);
    const slow = await TestClient.greeted(server.url);
    const socket = (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    for (let i = 0; i < 3000; i++) slow.send({ type: 'hello', id: i, version: 1 });
    await until(() => logs.some((l) => l.event === 'slow_consumer'), 'the slow-consumer log line');
    socket.resume();
    expect(await slow.closedPromise).toBe(1013);
    await server.close();
  });
});

describe('documented close codes and origins (PROTOCOL.md)', () => {
  it('invalid UTF-8 in a text frame closes with 1007; Origin: null is refused unless allowed', async () => {
    const served = await startTestServer({ workers: 0, agents: ['novice'] });
    const allowing = await startTestServer({ workers: 0, agents: ['novice'], allowOrigins: ['null'] });
    try {
      const client = await TestClient.connect(served.url);
      client.sendRaw(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), false);
      expect(await client.closedPromise).toBe(1007);
      const sandboxed = new TestClient(served.url, 'json', { origin: 'null' });
      await expect(sandboxed.opened).rejects.toThrow('HTTP 403');
      const allowed = new TestClient(allowing.url, 'json', { origin: 'null' });
      await allowed.opened;
      await allowed.close();
    } finally {
      await served.close();
      await allowing.close();
    }
  });
});

describe('the request → reply map (REPLY_TYPES)', () => {
  it('is what the server answers to each request type, and types the reply', async () => {
    const served = await startTestServer({ workers: 0, agents: ['novice'] });
    try {
      const client = await TestClient.connect(served.url);
      /** A typed request: the compiler knows the reply's fields from the request's type. */
      const ask = <T extends keyof typeof REPLY_TYPES>(message: Request<T>) => client.request<ReplyTo<T>>({ ...message });
      const welcome = await ask({ type: 'hello', id: 'h', version: 1 });
      expect(welcome.limits.maxTablesPerConnection).toBe(16);
      const created = await ask({ type: 'create_table', id: 'c', seats: ['client', 'novice'], seed: 4 });
      const state = (await client.next((m) => m.type === 'state' && m.legal.length > 0, 0)) as Msg<'state'>;
      const replies: ServerMessage[] = [
        welcome,
        await ask({ type: 'ping', id: 'p' }),
        created,
        await ask({ type: 'advise', id: 'a', table: created.table }),
        await ask({ type: 'act', id: 'x', table: created.table, action: state.legal[0].action, counter: state.counter }),
        await ask({ type: 'resume', id: 'r', table: created.table, token: created.token }),
        await ask({ type: 'leave', id: 'l', table: created.table }),
      ];
      const hosted = await ask({ type: 'create_table', id: 'g', seats: ['client', 'guest'], standIn: 'novice' });
      const friend = await TestClient.greeted(served.url);
      const joined = await friend.request<ReplyTo<'join_table'>>({ type: 'join_table', id: 'j', code: hosted.invite?.code ?? '' });
      replies.push(hosted, joined, await ask({ type: 'start_table', id: 's', table: hosted.table }));
      await friend.close();
      expect(replies.map((r) => r.type)).toEqual([
        'welcome',
        'pong',
        'table_created',
        'advice',
        'acted',
        'resumed',
        'left',
        'table_created',
        'joined',
        'started',
      ]);
      expect(Object.keys(REPLY_TYPES).map((type) => REPLY_TYPES[type as keyof typeof REPLY_TYPES])).toEqual([
        'welcome',
        'pong',
        'table_created',
        'acted',
        'advice',
        'resumed',
        'left',
        'joined',
        'started',
      ]);
      await client.close();
    } finally {
      await served.close();
    }
  });
});
