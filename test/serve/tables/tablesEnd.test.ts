// Every server table ends (issue 15: a client-and-two-networks table went on for ever once the
// client was out, streaming ~1,900 frames a second): a turn cap ends any game, a table whose
// client seats are all out of the game is played out at full speed and unstreamed, and bot-only
// tables of every pair of the agents the server serves end on their own, well within the cap.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mixSeed } from '../../../env/rules/random.js';
import { decideBatch, playedAgent } from '../../../serve/inference/decide.js';
import { resolveAgent } from '../../../agents/resolve.js';
import { DEFAULT_AGENTS, parseServerOptions } from '../../../serve/options.js';
import type { Msg, RunningServer, ServerMessage } from '../../../serve/index.js';
import type { SeatInfo } from '../../../serve/protocol/protocol.js';
import { ServerTable } from '../../../serve/tables/table.js';
import { LONG, TestClient, playToEnd, startTestServer, until } from '../helpers.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer({ maxTurns: 5, agents: ['strong', 'novice'] });
});
afterAll(() => server.close());

describe('the turn cap', () => {
  it('stops a game after maxTurns whole turns: game_over with truncated, the lowest total winning', async () => {
    const client = await TestClient.greeted(server.url);
    const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
    expect(welcome.limits.maxTurns).toBe(5);
    const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'strong'], seed: 3 });
    const over = await playToEnd(client, created.table);
    expect(over.truncated).toBe(true);
    const record = over.record as { rounds: { moves: unknown[] }[] };
    expect(record.rounds.reduce((turns, round) => turns + round.moves.length, 0)).toBe(5);
    const lowest = Math.min(...over.totals);
    expect(over.winner).toBe(over.totals.indexOf(lowest));
    await client.close();
  });

  it('is the bench default unless set, and a bad value is refused naming it', () => {
    expect(parseServerOptions({}).maxTurns).toBe(20_000);
    expect(() => parseServerOptions({ maxTurns: 0 })).toThrow(/maxTurns/);
  });
});

describe('a table whose client seats are all out of the game', () => {
  it('is played out at full speed, telling the client only each round end, then the last state and game_over', async () => {
    const fast = await startTestServer({ agents: ['strong'] });
    try {
      const client = await TestClient.greeted(fast.url);
      // Seed 12 with a limit of 30: the client, left to its deadline's default action, is out after
      // round 1 (step 29); the two strong bots play 130-odd more steps.
      const thinkMs = 97; // a value no other timer of the server uses
      const created = await client.request<Msg<'table_created'>>({
        type: 'create_table',
        seats: ['client', 'strong', 'strong'],
        seed: 12,
        rules: { eliminationLimit: 30 },
        thinkMs,
        moveDeadlineMs: 100,
      });
      const out = (await client.next(
        (m) => m.type === 'round_end' && m.table === created.table && m.eliminated.includes(0),
      )) as Msg<'round_end'>;
      const since = client.frames.indexOf(out) + 1;
      // Count the bot think delays scheduled from here on: unwatched, the bots take none.
      const timers = vi.spyOn(globalThis, 'setTimeout');
      const over = (await client.next((m) => m.type === 'game_over' && m.table === created.table)) as Msg<'game_over'>;
      const thinkDelays = timers.mock.calls.filter(([, ms]) => ms === thinkMs).length;
      timers.mockRestore();
      const botSteps = over.counter - out.counter;
      expect(over.truncated).toBe(false);
      expect(botSteps).toBeGreaterThan(50);
      expect(thinkDelays).toBe(0);
      const after = client.frames.slice(since).filter((m): m is Exclude<ServerMessage, Msg<'welcome'>> => 'table' in m);
      const rounds = after.filter((m) => m.type === 'round_end');
      expect(rounds.length).toBeGreaterThan(0);
      // Per round the step that ended it and round_end; at the end the final state and game_over.
      expect(after.filter((m) => m.type === 'event')).toHaveLength(rounds.length);
      expect(after.filter((m) => m.type === 'state').map((m) => m.counter)).toEqual([over.counter]);
      await client.close();
    } finally {
      await fast.close();
    }
  });
});

const silent = pino({ level: 'silent' });

/** A table of bots only, deciding on this thread; resolves once its game is over. */
async function botTable(agents: readonly string[], seed: number, rules: Record<string, unknown>, maxTurns: number): Promise<ServerTable> {
  const seats: SeatInfo[] = agents.map((agent, seat) => ({ seat, player: 'bot', agent }));
  const table = new ServerTable(
    { id: 't', token: 'x', preset: 'standard', rules, seats, seed, thinkMs: 0, moveDeadlineMs: null, maxTurns },
    {
      resolve: (agent, table) => Promise.resolve(resolveAgent(agent, table)),
      decide: async (agent, view, decideSeed) =>
        (await decideBatch([{ agent: playedAgent(agent), source: { kind: 'playerView', view }, seed: decideSeed, explain: false }]))[0],
      log: silent,
      now: Date.now,
      idleMs: 60_000,
      standInMs: 5000,
      lost: () => undefined,
    },
  );
  table.start();
  await until(() => table.game.over, `the game of ${agents.join(', ')} (seed ${seed})`, 1_000_000);
  table.close();
  return table;
}

describe('bot-only tables of every pair of the served agents', () => {
  // The cheap rollout: its search is not what is tested here.
  const agents = DEFAULT_AGENTS.map((name) => (name === 'rollout' ? 'rollout?samples=4' : name));
  const pairs = agents.flatMap((a, i) => agents.slice(i).map((b) => [a, b] as const));
  const seeds = LONG ? 6 : 1;
  const rules = LONG ? {} : { eliminationLimit: 60 };
  const cap = parseServerOptions({}).maxTurns;

  it(`end on their own within the cap (${pairs.length} pairs × 2–4 seats × ${seeds} seed${seeds > 1 ? 's' : ''})`, async () => {
    for (const [a, b] of pairs) {
      for (let s = 0; s < seeds; s++) {
        const seed = mixSeed(
          s,
          pairs.findIndex((p) => p[0] === a && p[1] === b),
        );
        const players = 2 + (Math.abs(seed) % 3);
        const lineup = Array.from({ length: players }, (_, seat) => (seat % 2 === 0 ? a : b));
        const table = await botTable(lineup, seed, rules, cap);
        expect(table.game.truncated, `${lineup.join(', ')} seed ${seed}`).toBe(false);
        expect(table.game.winner()).toBeGreaterThanOrEqual(0);
      }
    }
  }, 600_000);
});
