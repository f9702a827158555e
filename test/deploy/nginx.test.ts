// Three `yaniv serve` processes behind a real nginx (deploy/nginx.conf.template), on loopback:
// 200 clients play whole games through it (no message lost, none crossed between tables, no frame
// showing another seat's hidden cards), each table held by the process nginx's consistent hash of
// its id names, so that a reconnect with ?table=ID finds it there; and bad input through nginx —
// forged, stale and foreign table tokens, oversized and garbage frames, a missing bearer token,
// garbage HTTP — gets the documented error codes while every process stays up. Without nginx these
// tests are skipped (one line says how to install it); in CI they fail.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replay, parseRecord } from '../../env/index.js';
import type { Msg } from '../../serve/protocol/protocol.js';
import { UpstreamRing } from '../../serve/net/ring.js';
import { NginxServer, nginxAvailable } from '../../scripts/nginxServer.js';
import { ServeProcess } from '../../scripts/serveProcess.js';
import { LONG, TestClient, chooser, playToEnd, until } from '../serve/helpers.js';
import { checkNoLeaks } from '../serve/leaks.js';
import { startCluster, stopCluster } from './cluster.js';

const TOKEN = 'nginx-test-token';
const SHORT = { eliminationLimit: 10 };

describe.runIf(nginxAvailable())('yaniv serve behind nginx', () => {
  let servers: ServeProcess[] = [];
  let nginx: NginxServer;
  let ring: UpstreamRing;
  const at = (query: Record<string, string> = {}) => `${nginx.url}?${new URLSearchParams({ token: TOKEN, ...query }).toString()}`;

  beforeAll(async () => {
    // Every client on loopback: one address's share of a process is all of it here (nginx names the client: --trust-proxy).
    ({ servers, nginx, ring } = await startCluster(await ServeProcess.ports(3), [
      ...'--agents novice,strong --workers 0 --log-level warn --token'.split(' '),
      TOKEN,
      ...['--trust-proxy', '127.0.0.1', '--max-connections-per-address', '1000', '--max-tables-per-address', '1000'],
    ]));
  });
  afterAll(() => stopCluster({ nginx, servers }));

  /** An nginx of the template in front of the cluster with per-address limits of its own, for `run` on its URL. */
  async function throughTightNginx(
    limits: { connections: number; requestsPerSecond: number; burst: number },
    run: (url: string) => Promise<void>,
  ) {
    const tight = await NginxServer.start(
      servers.map((s) => s.address),
      undefined,
      undefined,
      limits,
    );
    try {
      await run(`${tight.url}?token=${TOKEN}`);
    } finally {
      await tight.dispose();
    }
  }

  async function newTable(client: TestClient, seed: number, rules: object = SHORT): Promise<Msg<'table_created'>> {
    const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'novice'], rules, seed });
    expect(created.type).toBe('table_created');
    return created;
  }

  it("the template's per-address limits: past its connections, one address gets 429 from nginx; a freed place is taken again", async () => {
    await throughTightNginx({ connections: 3, requestsPerSecond: 1000, burst: 1000 }, async (url) => {
      const held = await Promise.all(Array.from({ length: 3 }, () => TestClient.greeted(url)));
      await expect(TestClient.connect(url)).rejects.toThrow('HTTP 429');
      await held[0].close();
      // nginx frees the place once the proxied connection has ended on its side.
      await until(async () => {
        const again = new TestClient(url);
        const ok = await again.opened.then(
          () => true,
          () => false,
        );
        await again.close();
        return ok;
      }, 'a place freed');
      await Promise.all(held.slice(1).map((c) => c.close()));
    });
  });

  it("the template's per-address request rate: upgrades past the burst get 429 from nginx, the first ones go through", async () => {
    await throughTightNginx({ connections: 1000, requestsPerSecond: 1, burst: 2 }, async (url) => {
      const tries = Array.from({ length: 10 }, () => new TestClient(url));
      const outcomes = await Promise.all(
        tries.map((c) =>
          c.opened.then(
            () => 'open',
            (error: Error) => error.message,
          ),
        ),
      );
      await Promise.all(tries.map((c) => c.close()));
      // One a second and a burst of 2: within the second or two this takes, at most 3 or 4 are let through.
      expect(outcomes.filter((o) => o === 'open').length).toBeGreaterThanOrEqual(1);
      expect(outcomes.filter((o) => o === 'HTTP 429').length).toBeGreaterThanOrEqual(5);
      expect(outcomes.every((o) => o === 'open' || o === 'HTTP 429')).toBe(true);
    });
  });

  it('200 clients play whole games through it: nothing lost, crossed or leaked, each table on the process its id hashes to', async () => {
    const count = LONG ? 400 : 200;
    const played = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const client = await TestClient.greeted(at(), i % 2 ? 'msgpack' : 'json');
        const created = await client.request<Msg<'table_created'>>({
          type: 'create_table',
          seats: ['client', i % 3 ? 'novice' : 'strong'],
          rules: LONG ? {} : SHORT,
          seed: i,
        });
        const over = await playToEnd(client, created.table, chooser(i));
        await client.close();
        return { client, created, over };
      }),
    );
    for (const game of played) {
      const { client, created, over } = game;
      expect(client.frames.every((m) => !('table' in m) || m.table === created.table)).toBe(true);
      const counters = client.frames.filter((m): m is Msg<'event'> => m.type === 'event').map((m) => m.counter);
      expect(counters).toEqual(Array.from({ length: over.counter }, (_, k) => k + 1));
      const { result } = replay(parseRecord(over.record));
      if (!result.ok) throw new Error(result.error);
      expect([result.totals, result.winner]).toEqual([over.totals, over.winner]);
      expect(await checkNoLeaks(game)).toBeGreaterThan(0);
    }
    expect(new Set(played.map((g) => g.created.table)).size).toBe(count);
    // Finished tables stay on their process (for resume): each holds exactly the ids the ring gives it.
    for (const server of servers) {
      const owned = played.filter((g) => ring.owner(g.created.table) === server.address).length;
      expect(owned).toBeGreaterThan(0);
      // Every game is over: none is live, each is still held.
      expect(await server.health()).toMatchObject({ tables: 0, tablesHeld: owned });
    }
    // Only the owner knows a table here (no Redis): a reconnect naming it through nginx must land there.
    for (const { created, over } of played.slice(0, 30)) {
      const again = await TestClient.greeted(at({ table: created.table }));
      expect(await again.request({ type: 'resume', table: created.table, token: created.token })).toMatchObject({ type: 'resumed' });
      expect(await again.next((m) => m.type === 'game_over', 0)).toMatchObject({ totals: over.totals, winner: over.winner });
      await again.close();
    }
  });

  it('a forged token, a table gone, a table owned elsewhere and a garbage ?table= get unknown_table', async () => {
    const owner = await TestClient.greeted(at());
    const created = await newTable(owner, 1);
    const forged = await TestClient.greeted(at({ table: created.table }));
    const wrongToken = created.token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect(await forged.request({ type: 'resume', table: created.table, token: wrongToken })).toMatchObject({ code: 'unknown_table' });
    expect(await forged.request({ type: 'resume', table: 't-forged', token: created.token })).toMatchObject({ code: 'unknown_table' });

    const gone = await newTable(owner, 2);
    expect(await owner.request({ type: 'leave', table: gone.table })).toMatchObject({ type: 'left' });
    const late = await TestClient.greeted(at({ table: gone.table }));
    expect(await late.request({ type: 'resume', table: gone.table, token: gone.token })).toMatchObject({ code: 'unknown_table' });

    // A connection routed to another process than the table's owner (no store: that process has never heard of it).
    let other = created;
    for (let tries = 0; tries < 20 && ring.owner(other.table) === ring.owner(created.table); tries++) {
      const client = await TestClient.greeted(at());
      other = await newTable(client, 3);
      await client.close();
    }
    expect(ring.owner(other.table)).not.toBe(ring.owner(created.table));
    const elsewhere = await TestClient.greeted(at({ table: other.table }));
    expect(await elsewhere.request({ type: 'resume', table: created.table, token: created.token })).toMatchObject({
      code: 'unknown_table',
    });

    const garbage = await TestClient.greeted(at({ table: `\u0000\u00ff'"<>${'x'.repeat(3000)}` }));
    expect(await garbage.request({ type: 'resume', table: created.table, token: 'x' })).toMatchObject({ code: 'unknown_table' });
    // The owner still plays its table to the end.
    expect((await playToEnd(owner, created.table, chooser(1))).type).toBe('game_over');
    for (const c of [owner, forged, late, elsewhere, garbage]) await c.close();
  });

  it('oversized, garbage and non-UTF-8 frames, a missing token, a foreign subprotocol and garbage HTTP through nginx: the documented answers, nothing down', async () => {
    const big = await TestClient.greeted(at());
    big.sendRaw(JSON.stringify({ type: 'ping', id: 1, pad: 'x'.repeat(100 * 1024) }), false);
    expect(await big.closedPromise).toBe(1009);

    const junk = await TestClient.greeted(at());
    junk.sendRaw('{"type":"ping", "id": 1', false);
    expect(await junk.next((m) => m.type === 'error')).toMatchObject({ code: 'bad_message', id: null });
    junk.sendRaw(Buffer.from([0xc1, 0x00, 0xff]), true);
    expect(await junk.next((m) => m.type === 'error' && junk.frames.filter((f) => f.type === 'error').length === 2)).toMatchObject({
      code: 'bad_message',
    });
    expect(await junk.request({ type: 'ping' })).toMatchObject({ type: 'pong' });
    await junk.close();

    const utf = await TestClient.greeted(at());
    utf.sendRaw(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), false);
    expect(await utf.closedPromise).toBe(1007);

    await expect(TestClient.connect(nginx.url)).rejects.toThrow('HTTP 401');
    await expect(new TestClient(at(), 'json', {}, ['yaniv.v9.json']).opened).rejects.toThrow('HTTP 400');

    const reply = await new Promise<string>((resolve) => {
      const socket = connect(nginx.port, '127.0.0.1', () => socket.end('\u0001\u0002 GARBAGE\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);

    for (const server of servers) {
      expect(server.running).toBe(true);
      expect(await server.health()).toMatchObject({ status: 'ok' });
    }
    const client = await TestClient.greeted(at());
    const created = await newTable(client, 7);
    expect((await playToEnd(client, created.table, chooser(7))).type).toBe('game_over');
    await client.close();
  });
});
