// Difficulty levels on the server: welcome lists the shipped levels with their ratings, a table
// seats `level:K` (which plays its level's setting over the best bot, and plays to the end), a
// level that does not ship for the table is refused naming the seat, and advice comes from the
// advisor asked, whatever level sits at the table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedLevelSizes, shippedLevels } from '../../agents/level.js';
import { resolveAgent } from '../../agents/resolve.js';
import { PRESET_NAMES } from '../../env/rules/rules.js';
import { presetWithoutLevels, unratedTable } from '../agents/levelSizes.js';
import type { Msg, RunningServer, ServerMessage } from '../../serve/index.js';
import { TestClient, playToEnd, startTestServer } from './helpers.js';

let server: RunningServer;
let client: TestClient;
beforeAll(async () => {
  server = await startTestServer({ agents: ['neural', 'strong', 'level'] });
  client = await TestClient.connect(server.url);
}, 60_000);
afterAll(async () => {
  await client.close();
  await server.close();
});

type Created = Extract<ServerMessage, { type: 'table_created' }>;

describe('levels on the server', () => {
  it('welcome lists the shipped levels, weakest first, each with its rating and interval', async () => {
    const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
    // Every shipped file, at every preset and size it ships for.
    const shipped = PRESET_NAMES.flatMap((preset) => shippedLevelSizes(preset).map((players) => `${preset}-${players}`));
    expect(welcome.levels.map((l) => `${l.preset}-${l.players}`)).toEqual(shipped);
    const heads = welcome.levels.find((l) => l.preset === 'standard' && l.players === 2);
    const file = shippedLevels('standard', 2);
    expect(heads?.levels.length).toBe(file?.levels.length);
    expect(heads?.levels.length).toBeGreaterThanOrEqual(8);
    expect(heads?.levels[0]).toMatchObject({ name: 'level:1', level: 1, rating: file?.levels[0].rating });
    const ratings = heads?.levels.map((l) => l.rating) ?? [];
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    for (const l of heads?.levels ?? []) expect(l.low <= l.rating && l.rating <= l.high).toBe(true);
    expect(heads).toMatchObject({
      best: 'neural',
      anchor: 'intermediate',
      anchorRating: 1500,
      ratedBy: expect.stringMatching(/^yaniv rate /),
    });
  });

  it('seats level:K, which plays its level over the best bot to the end of the game; advice comes from the advisor asked', async () => {
    const created = await client.request<Created>({ type: 'create_table', seats: ['client', 'level:2'], thinkMs: 0, seed: 3 });
    expect(created.seats[1]).toMatchObject({
      player: 'bot',
      agent: 'level:2',
      model: { model: resolveAgent('level:2', { players: 2 }).model?.folder, fit: 'trained', mismatch: null },
    });
    const advice = await client.request<Msg<'advice'>>({ type: 'advise', table: created.table, seat: 0 });
    expect(advice.agent).toBe('neural');
    const over = await playToEnd(client, created.table);
    expect(over.type).toBe('game_over');
  }, 120_000);

  it("seats a level at a size none ship for with its preset's nearest, saying so; refuses one that does not resolve, naming the seat", async () => {
    // The first size of 5–8 without levels of its own plays the nearest rated size's levels over the catalog's model there, the mismatch naming both.
    const { preset, unrated, nearest } = unratedTable();
    const there = await client.request<Created>({
      type: 'create_table',
      preset,
      seats: ['client', ...Array.from({ length: unrated - 1 }, () => 'level:3')],
      thinkMs: 0,
    });
    const model = resolveAgent('neural', { preset, players: unrated }).model;
    expect(there.seats[1]).toMatchObject({
      agent: 'level:3',
      model: { model: model?.kind === 'shipped' ? model.folder : '', fit: 'nearest-size' },
    });
    expect(there.seats[1].model?.mismatch).toMatch(new RegExp(`level rated at ${nearest} seats at ${unrated}`));
    await client.request({ type: 'leave', table: there.table });
    const withoutLevels = presetWithoutLevels();
    const refused = await client.request({ type: 'create_table', preset: withoutLevels, seats: ['client', 'level:1'] });
    expect(refused).toMatchObject({
      type: 'error',
      code: 'bad_message',
      field: 'seats[1]',
      message: expect.stringMatching(new RegExp(`no levels ship for the ${withoutLevels} rules`)),
    });
    const unknown = await client.request({ type: 'create_table', seats: ['client', 'level:99'] });
    expect(unknown).toMatchObject({
      type: 'error',
      code: 'bad_message',
      field: 'seats[1]',
      message: expect.stringMatching(/the levels are 1 to/),
    });
  });
});
