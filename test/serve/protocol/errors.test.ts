// Every error code of the protocol, over a real connection: each is a reply with the request's
// id, a stable code and a message naming the field or the move; nothing is applied.
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAW_DECK_ACTION } from '../../../env/index.js';
import { discardId } from '../../../env/gym/actionLayout.js';
import { agentFor } from '../../../serve/inference/decide.js';
import { ERROR_CODES, type Msg, type RunningServer, type ServerMessage } from '../../../serve/index.js';
import { MemoryTableStore, MemoryTables, type StoredTable, StoreUnavailableError } from '../../../serve/tables/tableStore.js';
import { TestClient, health, playToEnd, played, startTestServer, until } from '../helpers.js';

type ErrorReply = Msg<'error'>;
const seen = new Set<string>();
let server: RunningServer;
let client: TestClient;

beforeAll(async () => {
  // Inference on the main thread, so that the test can make an agent fail (for `internal`).
  server = await startTestServer({ workers: 0, maxTablesPerConnection: 2, agents: ['strong', 'novice'] });
  client = await TestClient.greeted(server.url);
});
afterAll(async () => {
  await client.close();
  await server.close();
  expect([...seen].sort()).toEqual([...ERROR_CODES].sort());
});

async function expectError(message: Record<string, unknown>, code: string, text: RegExp, field?: string, on = client): Promise<ErrorReply> {
  const reply = await on.request<ErrorReply>(message);
  expect(reply).toMatchObject({ type: 'error', code, id: message.id ?? reply.id });
  expect(reply.message).toMatch(text);
  if (field !== undefined) expect(reply.field).toBe(field);
  seen.add(reply.code);
  return reply;
}

async function table(seats: string[], extra: Record<string, unknown> = {}) {
  const since = client.frames.length;
  const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats, seed: 1, ...extra });
  expect(created.type).toBe('table_created');
  const state = (await client.next((m) => m.type === 'state' && m.table === created.table, since)) as Msg<'state'>;
  return { created, state };
}

describe('error codes', () => {
  it('bad_message: a frame that is not JSON, with id null', async () => {
    const since = client.frames.length;
    client.sendRaw('{"type":"ping", "id": 1', false);
    const reply = (await client.next((m) => m.type === 'error', since)) as ErrorReply;
    expect(reply).toMatchObject({ id: null, code: 'bad_message' });
    expect(reply.message).toMatch(/not valid JSON/);
    seen.add(reply.code);
    await expectError(
      { type: 'create_table', seats: ['client', 'champion'] },
      'bad_message',
      /"champion" is neither "client", "guest" nor an agent this server plays \(strong, novice\)/,
      'seats[1]',
    );
    await expectError(
      { type: 'create_table', seats: ['client', 'strong'], rules: { yanivThreshold: 99 } },
      'bad_message',
      /rule option "yanivThreshold" must be an integer from 0 to 30 \(got 99\)/,
      'rules',
    );
  });

  it('bad_message answers with the id whenever it is readable, names the field and says what was expected in words', async () => {
    // Refused for their shape, after the id was read (issue 15: answered id null).
    const deep = `{"type":"ping","id":41,"x":${'['.repeat(40)}${']'.repeat(40)}}`;
    const proto = '{"type":"ping","id":42,"__proto__":{"admin":true}}';
    for (const [raw, id, text] of [
      [deep, 41, /nested deeper than 16 levels/],
      [proto, 42, /"__proto__" is not allowed/],
    ] as const) {
      const since = client.frames.length;
      client.sendRaw(raw, false);
      const reply = (await client.next((m) => m.type === 'error', since)) as ErrorReply;
      expect(reply).toMatchObject({ id, code: 'bad_message' });
      expect(reply.message).toMatch(text);
    }
    // Present with the wrong type: what it holds, not "(missing)".
    const wrong = await expectError({ type: 'act', table: 't', action: '3', counter: 0 }, 'bad_message', /must be an integer/, 'action');
    expect(wrong.message).toMatch(/\(got "3"\)$/);
    await expectError({ type: 'act', table: 't', action: 3 }, 'bad_message', /must be an integer .*\(missing\)$/, 'counter');
    // Checks without a message of their own are in words too, never zod's text.
    const view = { format: 'yaniv-view/1', players: 2, seat: 0, current: 0, phase: 'turn', hand: ['AS'], handSizes: [1, 5] };
    for (const [extra, field, text] of [
      [{ drawnFromDeck: 'yes' }, 'view.drawnFromDeck', /must be true or false \(got "yes"\)/],
      [{ known: 5 }, 'view.known', /must be a list \(got 5\)/],
      [{ preset: 'x'.repeat(50) }, 'view.preset', /must be at most 40 characters/],
      [{ known: [[], []], previous: 'KD' }, 'view.previous', /must be an object \(got "KD"\)/],
    ] as const) {
      const reply = await expectError({ type: 'advise', view: { ...view, ...extra } }, 'bad_message', text, field);
      expect(reply.message).not.toMatch(/Invalid input|expected \w+, received|Too big/);
    }
  });

  it('bad_message before hello names the hello to send', async () => {
    const fresh = await TestClient.connect(server.url);
    await expectError({ type: 'advise', id: 5, table: 'x' }, 'bad_message', /say hello first/, 'type', fresh);
    await fresh.close();
  });

  it('unknown_type', async () => {
    await expectError({ type: 'resign', id: 'a' }, 'unknown_type', /unknown message type "resign"/, 'type');
  });

  it('unsupported_version, in hello and as a subprotocol', async () => {
    await expectError({ type: 'hello', version: 2 }, 'unsupported_version', /speaks protocol version 1 only/, 'version');
    const refused = new TestClient(server.url, 'json', {}, ['yaniv.v2.json']);
    await expect(refused.opened).rejects.toThrow('HTTP 400');
  });

  it('not_your_turn: a bot seat, and a seat that is not to move', async () => {
    const { created } = await table(['strong', 'client'], { thinkMs: 10_000 });
    await expectError(
      { type: 'act', table: created.table, seat: 0, action: DRAW_DECK_ACTION, counter: 0 },
      'not_your_turn',
      /seat 0 is played by the bot strong/,
      'seat',
    );
    await expectError(
      { type: 'act', table: created.table, action: 1, counter: 0 },
      'not_your_turn',
      /it is seat 0's turn, not seat 1's/,
      'seat',
    );
    await client.request({ type: 'leave', table: created.table });
  });

  it("illegal_action with the engine's reason, and stale_state with the current counter", async () => {
    const { created, state } = await table(['client', 'strong']);
    expect(state.counter).toBe(0);
    await expectError(
      { type: 'act', table: created.table, action: DRAW_DECK_ACTION, counter: 0 },
      'illegal_action',
      /action 1352 \(draw from the deck\) is illegal: .*laying a group|phase turn/,
      'action',
    );
    // Seed 1 deals seat 0 no pair: its two lowest cards by kind are no group (a regression: was internal).
    const twoCards = discardId(0b11, 0, 1);
    expect(state.legal.map((l) => l.action)).not.toContain(twoCards);
    const illegal = await expectError(
      { type: 'act', table: created.table, action: twoCards, counter: 0 },
      'illegal_action',
      /^action \d+ \(discard \S+ \S+\) is illegal: \S+ \S+ is not a legal group: two cards of different ranks are not a set, and a run needs three$/,
      'action',
    );
    expect(illegal.reason).toBe(illegal.message.replace(/^action \d+ \(.*?\) is illegal: /, ''));
    const stale = await expectError(
      { type: 'act', table: created.table, action: state.legal[0].action, counter: 3 },
      'stale_state',
      /chosen at counter 3 but the table is at 0/,
      'counter',
    );
    expect(stale.counter).toBe(0);
    await client.request({ type: 'leave', table: created.table });
  });

  it("a discard by its cards: refused with the engine's reason as a field, or played as the legal id laying them", async () => {
    const { created, state } = await table(['client', 'strong']);
    const hand = state.view.hand;
    // Seed 1 deals seat 0 no pair (above): its first two cards are no group.
    const pair = [hand[0], hand[1]];
    const refused = await expectError(
      { type: 'act', table: created.table, cards: pair, counter: 0 },
      'illegal_action',
      /^cards: discard \S+ \S+ is illegal: \S+ \S+ is not a legal group: two cards of different ranks are not a set, and a run needs three$/,
      'cards',
    );
    expect(refused.reason).toMatch(/^\S+ \S+ is not a legal group: two cards/);
    const notHeld = await expectError(
      { type: 'act', table: created.table, cards: ['JK'], counter: 0 },
      'illegal_action',
      /discard JK is illegal: JK is not in seat 0's hand/,
      'cards',
    );
    expect(notHeld.reason).toBe("JK is not in seat 0's hand");
    await expectError(
      { type: 'act', table: created.table, cards: ['4D'], action: 1, counter: 0 },
      'bad_message',
      /give exactly one of action .* or cards/,
      'cards',
    );
    await expectError({ type: 'act', table: created.table, counter: 0 }, 'bad_message', /give exactly one of action/, 'action');
    await expectError({ type: 'act', table: created.table, cards: ['ZZ'], counter: 0 }, 'bad_message', /card name/, 'cards[0]');
    const single = state.legal.find((l) => l.kind === 'discard' && l.cards.length === 1) as Msg<'state'>['legal'][number];
    const since = client.frames.length;
    const acted = await client.request({ type: 'act', table: created.table, cards: single.cards, counter: 0 });
    expect(acted).toMatchObject({ type: 'acted', counter: 1 });
    const event = (await client.next((m) => m.type === 'event' && m.table === created.table, since)) as Msg<'event'>;
    expect(event).toMatchObject({ action: single.action, kind: 'discard', cards: single.cards });
    const drawStep = (await client.next((m) => m.type === 'state' && m.counter === 1, since)) as Msg<'state'>;
    await expectError(
      { type: 'act', table: created.table, cards: [drawStep.view.hand[0]], counter: 1 },
      'illegal_action',
      /a group can be laid only at the start of a turn, not in phase draw/,
      'cards',
    );
    await client.request({ type: 'leave', table: created.table });
  });

  it('unknown_table: a table of another connection, a wrong token', async () => {
    const other = await TestClient.greeted(server.url);
    const theirs = await other.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'novice'] });
    await expectError(
      { type: 'act', table: theirs.table, action: 1, counter: 0 },
      'unknown_table',
      /no table .* on this connection/,
      'table',
    );
    await expectError({ type: 'advise', table: theirs.table }, 'unknown_table', /no table/, 'table');
    await expectError({ type: 'resume', table: theirs.table, token: 'guess' }, 'unknown_table', /with that token/, 'table');
    await other.close();
  });

  it("table_full: the connection's table limit", async () => {
    const a = await table(['client', 'novice']);
    const b = await table(['client', 'novice']);
    await expectError({ type: 'create_table', seats: ['client', 'novice'] }, 'table_full', /has 2 tables in play, the most it may/);
    await client.request({ type: 'leave', table: a.created.table });
    await client.request({ type: 'leave', table: b.created.table });
  });

  it('table_full counts only tables in play: finished games on the connection do not (issue 15)', async () => {
    // An elimination limit of 1: the first round ends each game.
    const finished: string[] = [];
    for (let game = 0; game < 5; game++) {
      const { created } = await table(['client', 'novice'], { rules: { eliminationLimit: 1 } });
      await playToEnd(client, created.table);
      finished.push(created.table);
    }
    const open = await table(['client', 'novice']);
    const more = await table(['client', 'novice']);
    await expectError({ type: 'create_table', seats: ['client', 'novice'] }, 'table_full', /2 tables in play/);
    // The two latest finished games are kept (as many as the limit), older ones were dropped.
    const latest = await client.request({ type: 'advise', table: finished[4] });
    expect(latest).toMatchObject({ type: 'error', code: 'not_your_turn', message: expect.stringMatching(/the game is over/) });
    const oldest = await client.request({ type: 'advise', table: finished[0] });
    expect(oldest).toMatchObject({ type: 'error', code: 'unknown_table' });
    for (const id of [open.created.table, more.created.table, finished[3], finished[4]]) await client.request({ type: 'leave', table: id });
  });

  it('rate_limited: too many messages a second, and the connection closed (1008)', async () => {
    const limited = await startTestServer({ workers: 0, maxMessagesPerSecond: 5, agents: ['novice'] });
    const fast = await TestClient.connect(limited.url);
    const replies = await Promise.allSettled(Array.from({ length: 20 }, () => fast.request<ServerMessage>({ type: 'ping' })));
    const answered = replies.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(answered.filter((r) => r.type === 'pong')).toHaveLength(5);
    const errors = answered.filter((r): r is ErrorReply => r.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'rate_limited' });
    expect(errors[0].message).toMatch(/more than 5 messages a second/);
    expect(await fast.closedPromise).toBe(1008);
    seen.add('rate_limited');
    await limited.close();
  });

  it('unauthorized: 401 before the upgrade without the token, 403 for a foreign origin', async () => {
    const guarded = await startTestServer({ workers: 0, token: 's3cret', agents: ['novice'] });
    const status = await new Promise<{ code: number; body: string }>((resolve) => {
      const req = get(guarded.url.replace('ws:', 'http:'), {
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString();
        });
        res.on('end', () => resolve({ code: res.statusCode ?? 0, body }));
      });
      req.on('error', () => resolve({ code: -1, body: '' }));
    });
    expect(status.code).toBe(401);
    expect(JSON.parse(status.body)).toMatchObject({ error: { code: 'unauthorized' } });
    seen.add('unauthorized');
    const withHeader = new TestClient(guarded.url, 'json', { headers: { Authorization: 'Bearer s3cret' } });
    await withHeader.opened;
    const withQuery = await TestClient.connect(`${guarded.url}?token=s3cret`);
    const foreign = new TestClient(`${guarded.url}?token=s3cret`, 'json', { origin: 'https://evil.example' });
    await expect(foreign.opened).rejects.toThrow('HTTP 403');
    await withHeader.close();
    await withQuery.close();
    await guarded.close();
  });

  it('internal: an agent that fails is reported without details, and the connection goes on', async () => {
    const novice = await agentFor(played('novice'));
    const act = novice.act.bind(novice);
    novice.act = () => {
      throw new Error('secret detail');
    };
    try {
      const { created } = await table(['client', 'novice']);
      const reply = await expectError(
        { type: 'advise', table: created.table, agent: 'novice' },
        'internal',
        /^the server failed on this request; nothing was applied$/,
      );
      expect(JSON.stringify(reply)).not.toContain('secret');
      await client.request({ type: 'leave', table: created.table });
    } finally {
      novice.act = act;
    }
    expect((await client.request({ type: 'ping' })).type).toBe('pong');
  });
});

/**
 * A shared store that cannot be reached for one table, sees every claim of another lost to a
 * concurrent one, and holds the drain until told: the server's answers to what a store says.
 */
const BUSY_SETTINGS = {
  preset: 'standard',
  rules: {},
  seats: [
    { seat: 0, player: 'client' as const },
    { seat: 1, player: 'bot' as const, agent: 'strong' },
  ],
  seed: 1,
  thinkMs: 0,
  moveDeadlineMs: null,
  maxTurns: 2_000,
};

class StoreWithTroubles extends MemoryTableStore {
  letGo: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.letGo = resolve));
  constructor() {
    super(new MemoryTables());
  }
  override load(id: string): Promise<StoredTable | null> {
    if (id === 't-busy') return Promise.resolve({ settings: { ...BUSY_SETTINGS, id, token: 'busy-token' }, fence: 1 });
    return Promise.reject(new StoreUnavailableError('the table store cannot be reached: connection refused'));
  }
  override claim(): Promise<{ outcome: 'conflict' }> {
    return Promise.resolve({ outcome: 'conflict' });
  }
  override release(): Promise<void> {
    return this.released;
  }
}

describe('error codes of a server whose tables are in a shared store', () => {
  it('store_unavailable, table_moved and draining', async () => {
    const store = new StoreWithTroubles();
    const shared = await startTestServer({ workers: 0, agents: ['novice'] }, undefined, { store });
    const player = await TestClient.greeted(shared.url);
    await expectError(
      { type: 'resume', table: 't-elsewhere', token: 'any' },
      'store_unavailable',
      /the table store cannot be reached: connection refused; resume again shortly/,
      undefined,
      player,
    );
    await expectError(
      { type: 'resume', table: 't-busy', token: 'busy-token' },
      'table_moved',
      /^table: "t-busy" is moving to another server process: reconnect and resume it with its token$/,
      'table',
      player,
    );
    const created = await player.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'novice'], seed: 1 });
    expect(created.type).toBe('table_created');
    const closing = shared.close();
    await expectError(
      { type: 'create_table', seats: ['client', 'novice'] },
      'draining',
      /this server process is stopping and takes no new tables/,
      undefined,
      player,
    );
    await expectError(
      { type: 'act', table: created.table, action: 0, counter: 0 },
      'table_moved',
      /is moving to another server process/,
      'table',
      player,
    );
    store.letGo();
    const notice = await player.next((m) => m.type === 'reconnect');
    expect(notice).toMatchObject({ type: 'reconnect', reason: 'draining', tables: [created.table] });
    await closing;
    await store.close();
  });
});

describe('error codes of the bounded inference pool', () => {
  /** A table under house rules whose chance to win is not known: its first advice measures it (hundreds of ms of a worker). */
  async function houseTable(on: TestClient, eliminationLimit: number): Promise<string> {
    const since = on.frames.length;
    const created = await on.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'strong'],
      seed: 3,
      rules: { eliminationLimit },
    });
    expect(created.type).toBe('table_created');
    await on.next((m) => m.type === 'state' && m.table === created.table && m.legal.length > 0, since);
    return created.table;
  }

  it('timed_out: a request past the deadline is answered, its worker replaced, and the next one served', async () => {
    const logs: Record<string, unknown>[] = [];
    const slow = await startTestServer({ agents: ['strong'], requestDeadlineMs: 100 }, logs);
    const on = await TestClient.greeted(slow.url);
    try {
      const table = await houseTable(on, 450);
      const answered = expectError(
        { type: 'advise', table },
        'timed_out',
        /not decided within the server's deadline of 100 ms/,
        undefined,
        on,
      );
      // While the stuck worker is replaced, /health says degraded; then ok again.
      await until(async () => {
        const { code, body } = await health(slow);
        return code === 503 && body.status === 'degraded' && body.stuckWorkers > 0;
      }, 'health telling of the stuck worker');
      await answered;
      expect(logs.some((l) => l.event === 'worker_stuck')).toBe(true);
      await until(async () => (await health(slow)).code === 200, 'health ok once the worker is replaced');
      const quick = await on.request({ type: 'advise', table, outlook: false });
      expect(quick.type).toBe('advice');
    } finally {
      await on.close();
      await slow.close();
    }
  });

  it('overloaded: past --max-queue waiting requests, refused at once', async () => {
    const busy = await startTestServer({ agents: ['strong'], maxQueue: 1 });
    const on = await TestClient.greeted(busy.url);
    try {
      const table = await houseTable(on, 460);
      const replies = await Promise.all(Array.from({ length: 8 }, () => on.request<ServerMessage>({ type: 'advise', table })));
      const refused = replies.filter((r): r is ErrorReply => r.type === 'error');
      expect(refused.length).toBeGreaterThan(0);
      for (const reply of refused)
        expect(reply).toMatchObject({ code: 'overloaded', message: expect.stringMatching(/1 inference requests are waiting/) });
      seen.add('overloaded');
      expect(replies.filter((r) => r.type === 'advice').length).toBeGreaterThan(0);
    } finally {
      await on.close();
      await busy.close();
    }
  });
});
