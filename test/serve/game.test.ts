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
import {
  ACTION_COUNT,
  Episode,
  type GameState,
  MaskScratch,
  type PlayerView,
  cardName,
  cloneState,
  parseEnvOptions,
  parseRecord,
  playerView,
  replay,
} from '../../env/index.js';
import type { Encoding, RunningServer, ServerMessage } from '../../serve/index.js';
import { CARD_PATTERN, viewToJson } from '../../serve/viewJson.js';
import { decideBatch } from '../../serve/decide.js';
import { mixSeed } from '../../agents/tournament/seeds.js';
import { LONG, TestClient, chooser, playToEnd, startTestServer } from './helpers.js';

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

/**
 * Every true state of the game, by counter, re-played from the revealed seed and the actions the
 * events told. Once every client seat is out the table is played out unstreamed (only the step
 * ending each round is told): those steps are re-decided here as the server decides them (the
 * seat's agent, seeded by the table seed and the counter), and checked against the told ones.
 */
async function statesOf(played: Played): Promise<GameState[]> {
  const { created, over } = played;
  const episode = new Episode(
    parseEnvOptions({
      preset: created.preset,
      rules: created.rules,
      players: created.players,
      episode: 'game',
      history: true,
      seed: over.seed,
    }),
  );
  episode.reset({ seed: over.seed });
  const viewer = created.seats.find((s) => s.player === 'client')?.seat;
  const told = new Map(
    played.client.frames
      .filter((m): m is Extract<ServerMessage, { type: 'event' }> => m.type === 'event' && m.seat === viewer)
      .map((event) => [event.counter, event]),
  );
  const states = [cloneState(episode.state)];
  const mask = new Uint8Array(ACTION_COUNT);
  const scratch = new MaskScratch();
  const rewards = new Float32Array(created.players);
  let streamed = true;
  for (let counter = 1; counter <= over.counter; counter++) {
    episode.writeMask(scratch, mask, 0);
    const event = told.get(counter);
    streamed &&= event !== undefined;
    let action = event?.action ?? -1;
    if (!streamed) {
      const seat = episode.state.current;
      const agent = created.seats[seat].agent;
      expect(agent, `step ${counter} of a client seat was not told`).toBeDefined();
      const view = playerView(episode.state, seat);
      const [decided] = await decideBatch([
        {
          agent: agent as string,
          source: { kind: 'playerView', view },
          seed: mixSeed(over.seed, counter - 1),
          explain: false,
        },
      ]);
      if (!decided.ok) throw new Error(decided.message);
      if (event) expect(decided.action).toBe(event.action);
      action = decided.action;
    }
    episode.step(action, mask, 0, rewards, 0);
    states.push(cloneState(episode.state));
  }
  expect(episode.history?.toPosition(episode.state).record).toEqual(over.record);
  return states;
}

/** Every card name a frame mentions (in any string, such as "discard 5S 6S"). */
function cardsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') for (const word of value.split(/\s+/)) if (CARD_PATTERN.test(word)) out.push(word.toUpperCase());
  if (Array.isArray(value)) for (const item of value) cardsIn(item, out);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) cardsIn(item, out);
  return out;
}

function visible(view: PlayerView): Set<string> {
  const cards = [
    ...view.hand,
    ...view.known.flat(),
    ...view.previous.cards,
    ...(view.laid?.cards ?? []),
    ...view.pile,
    ...(view.drawn !== null ? [view.drawn] : []),
  ];
  return new Set(cards.map(cardName));
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
    const states = await statesOf(played);
    let checked = 0;
    for (const frame of played.client.frames) {
      if (frame.type !== 'state' && frame.type !== 'event') continue;
      const after = states[frame.counter];
      const before = states[Math.max(0, frame.counter - 1)];
      const allowed = new Set([...visible(playerView(after, frame.seat)), ...visible(playerView(before, frame.seat))]);
      for (const card of cardsIn(frame)) {
        if (!allowed.has(card))
          throw new Error(`seat ${frame.seat} was told ${card}, which it cannot see, in ${JSON.stringify(frame).slice(0, 300)}`);
      }
      if (frame.type === 'state')
        expect(frame.view).toEqual(viewToJson(playerView(after, frame.seat), played.created.preset, played.created.rules));
      if (frame.type === 'event' && frame.kind === 'draw' && frame.actor !== frame.seat) expect(frame.cards).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
    await played.client.close();
  });
});
