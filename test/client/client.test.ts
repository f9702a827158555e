// The typed protocol client (client/client.ts, `yaniv-arena/client`) against a real server over
// real sockets (the `ws` package's WebSocket, as a Node 20 program passes it): every message
// checked by the server's own schema on the way in, refusals as RefusedError with their code,
// a state that came before playOut was called, and a closed connection.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefusedError, YanivClient } from '../../client/index.js';
import { type RunningServer, serverMessageSchema } from '../../serve/index.js';
import { startTestServer } from '../serve/helpers.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ agents: ['random', 'strong'] });
});
afterAll(() => server.close());

const connect = () =>
  YanivClient.connect(server.url, { WebSocket, client: 'client test', parse: (text) => serverMessageSchema.parse(JSON.parse(text)) });

describe('YanivClient', () => {
  it('says hello on connect and keeps the welcome', async () => {
    const client = await connect();
    expect(client.welcome?.agents.map((agent) => agent.name)).toEqual(['random', 'strong']);
    expect((await client.ping()).type).toBe('pong');
    client.close();
  });

  it('rejects a refusal with a RefusedError carrying its code; request resolves with the error itself', async () => {
    const client = await connect();
    const refused = await client.createTable({ seats: ['client', 'grandmaster'] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedError);
    expect((refused as RefusedError).code).toBe('bad_message');
    expect((refused as RefusedError).message).toMatch(/grandmaster/);
    const answer = await client.request({ type: 'act', table: 'no-such-table', action: 0, counter: 0 });
    expect(answer).toMatchObject({ type: 'error', code: 'unknown_table' });
    client.close();
  });

  it('plays a game out from a state that came before playOut was called', async () => {
    const client = await connect();
    const created = await client.createTable({ seats: ['random', 'client'], seed: 11, rules: { eliminationLimit: 50 } });
    await client.next('state', (state) => state.legal.length > 0);
    const before = client.latest(created.table);
    expect(before?.legal.length).toBeGreaterThan(0);
    const seen: number[] = [];
    const over = await client.playOut(created.table, (state) => {
      seen.push(state.counter);
      return state.legal[state.legal.length - 1].action;
    });
    expect(seen[0]).toBe(before?.counter);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(over).toMatchObject({ type: 'game_over', table: created.table });
    expect(over.totals).toHaveLength(2);
    client.close();
  });

  it('rejects what waits, and what is sent, once closed', async () => {
    const client = await connect();
    const waiting = client.next('state');
    client.close();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(client.ping()).rejects.toThrow(/closed/);
  });

  it('says what to pass where there is no WebSocket class', async () => {
    const global = globalThis as { WebSocket?: unknown };
    const saved = global.WebSocket;
    delete global.WebSocket;
    try {
      await expect(YanivClient.connect(server.url)).rejects.toThrow(/pass \{ WebSocket \}/);
    } finally {
      if (saved !== undefined) global.WebSocket = saved;
    }
  });
});
