// One agent identity: a server table, the advice on it, the welcome and the bench all play the
// same model for the same table (agents/resolve.ts), and say which, with the same mismatch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelLines, resolveAgent } from '../../agents/resolve.js';
import { playedModelOf } from '../../serve/inference/models.js';
import type { Msg, RunningServer, ServerMessage } from '../../serve/index.js';
import { TestClient, startTestServer } from './helpers.js';

let server: RunningServer;
let client: TestClient;
beforeAll(async () => {
  server = await startTestServer({ agents: ['neural', 'strong'] });
  client = await TestClient.connect(server.url);
}, 60_000);
afterAll(async () => {
  await client.close();
  await server.close();
});

const TABLES = [
  { preset: 'standard', players: 2 },
  { preset: 'standard', players: 3 },
  { preset: 'standard', players: 4 },
  { preset: 'standard', players: 7 },
  { preset: 'dutch', players: 2 },
  { preset: 'norwegian', players: 2 },
  { preset: 'nepal', players: 3 },
];

describe('the model a table plays', () => {
  it.each(TABLES)(
    'is the same for a table, its advice, the welcome and the bench: $preset at $players seats',
    async ({ preset, players }) => {
      const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
      const resolved = resolveAgent('neural', { preset, players });
      const created = await client.request<Extract<ServerMessage, { type: 'table_created' }>>({
        type: 'create_table',
        seats: ['client', ...Array.from({ length: players - 1 }, () => 'neural')],
        preset,
        thinkMs: 0,
      });
      const advice = await client.request<Msg<'advice'>>({ type: 'advise', agent: 'neural', table: created.table, seat: 0 });
      const expected = playedModelOf(resolved);
      expect(expected).toEqual({ model: resolved.model?.folder, fit: resolved.fit, mismatch: resolved.mismatch });
      for (const seat of created.seats.slice(1)) expect(seat.model).toEqual(expected);
      expect(advice.model).toEqual(expected);
      expect(welcome.agents[0].plays?.[preset]?.[String(players)]).toEqual(expected);
      expect(modelLines([resolved])[0]).toMatch(`neural plays ${resolved.model?.folder}`);
      // Agents without a model say so.
      const strong = await client.request<Msg<'advice'>>({ type: 'advise', agent: 'strong', table: created.table, seat: 0 });
      expect(strong.model).toBeNull();
      await client.request({ type: 'leave', table: created.table }).catch(() => undefined);
    },
  );

  it('welcome lists the catalog of shipped models with their cards', async () => {
    const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
    const folders = welcome.models.map((m) => m.model);
    expect(folders).toContain('models/standard');
    for (const { card } of welcome.models)
      expect(card).toMatchObject({ rules: { preset: expect.any(String) }, players: expect.any(Array) });
    expect(welcome.agents[1].plays).toBeUndefined();
  });
});
