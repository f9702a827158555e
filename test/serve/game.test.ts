// Opponent mode end to end: whole games against bots over a real server in both encodings,
// each checked against its revealed record (replayed by the engine and by `yaniv replay`), the
// same game re-played from the revealed seed, and the hidden-information guarantee checked on
// every frame of whole games: a seat is told only what its own view holds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecord, replay } from '../../env/index.js';
import type { Encoding, RunningServer, ServerMessage } from '../../serve/index.js';
import { LONG, TestClient, chooser, playToEnd, startTestServer } from './helpers.js';
import { checkNoLeaks, statesOf } from './leaks.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Shorter games in the default run, whole standard games under YANIV_PROPERTY_RUNS=long. */
const RULES = LONG ? {} : { eliminationLimit: 60 };

interface Played {
  client: TestClient;
  table: string;
  created: Extract<ServerMessage, { type: 'table_created' }>;
  over: Extract<ServerMessage, { type: 'game_over' }>;
}

async function playGame(
  encoding: Encoding,
  seats: string[],
  seed: number,
  rules: Record<string, unknown> = RULES,
  preset = 'standard',
): Promise<Played> {
  const client = await TestClient.greeted(server.url, encoding);
  const created = await client.request<Extract<ServerMessage, { type: 'table_created' }>>({
    type: 'create_table',
    seats,
    seed,
    preset,
    rules,
  });
  expect(created.type).toBe('table_created');
  const over = await playToEnd(client, created.table, chooser(seed));
  return { client, table: created.table, created, over };
}

describe.each(['json', 'msgpack'] as const)('a whole game against bots over %s', (encoding) => {
  it('ends with a record that replays to the same result, and the revealed seed replays the same game', async () => {
    const played = await playGame(encoding, ['client', 'strong', 'intermediate'], 11);
    const { over, client, table } = played;
    const record = parseRecord(over.record);
    const { result } = replay(record);
    if (!result.ok) throw new Error(result.error);
    expect(result.gameOver).toBe(true);
    expect(result.winner).toBe(over.winner);
    expect(result.totals).toEqual(over.totals);
    const roundEnds = client.frames.filter((m) => m.type === 'round_end' && m.table === table);
    expect(roundEnds.map((m) => m.type === 'round_end' && m.totals)).toEqual(result.rounds.map((r) => r.totals));
    await statesOf(played);
    await client.close();
  });
});

describe('the revealed record and `yaniv replay`', () => {
  let folder = '';
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm test builds)`);
    folder = mkdtempSync(join(tmpdir(), 'yaniv-serve-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('replays the game a client played, with the totals and winner game_over told', async () => {
    const { over, client } = await playGame('json', ['strong', 'client'], 3, RULES, 'israeli5');
    const file = join(folder, 'game.json');
    writeFileSync(file, JSON.stringify(over.record));
    const child = spawnSync(process.execPath, [MAIN, 'replay', file, '--json'], { encoding: 'utf8', timeout: 30_000 });
    expect(child.status).toBe(0);
    const result = JSON.parse(child.stdout) as { ok: boolean; totals: number[]; winner: number; gameOver: boolean };
    expect(result).toMatchObject({ ok: true, gameOver: true, winner: over.winner, totals: over.totals });
    await client.close();
  });
});

describe('hidden information', () => {
  it.each([
    ['standard', {}, 21],
    ['standard', { quickDiscard: true, slapdown: true }, 22],
    ['norwegian', {}, 23],
  ])('%s %j: every frame to a seat names only cards that seat can see, and its view is its playerView', async (preset, rules, seed) => {
    // Two client seats on one connection, so each frame is addressed to one seat and the other seat's cards are hidden from it.
    const played = await playGame('json', ['client', 'strong', 'client'], seed, { ...RULES, ...rules }, preset);
    const checked = await checkNoLeaks(played);
    expect(checked).toBeGreaterThan(50);
    await played.client.close();
  });
});
