// The bench dispatcher contract (agents/tournament/dispatch.ts), one suite run against every
// implementation (test/agents/tournament/dispatch.test.ts): every scheduled game is played and
// reported once, with the very result this thread plays from its place in the schedule, whatever
// the order; a game that cannot be played rejects with an error naming the problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameDispatcher } from '../../../agents/tournament/dispatch.js';
import type { MatchResult } from '../../../agents/tournament/match.js';
import { playScheduled } from '../../../agents/tournament/play.js';
import { schedule } from '../../../agents/tournament/schedule.js';
import type { TournamentConfig } from '../../../agents/tournament/tournamentConfig.js';

export interface DispatcherUnderTest {
  readonly dispatcher: GameDispatcher;
  close(): Promise<void>;
}

const CONFIG: TournamentConfig = {
  agents: ['intermediate', 'novice', 'random'],
  games: 2,
  players: 2,
  seed: 11,
  episode: 'round',
  workers: 2,
  preset: 'standard',
  rules: {},
};

/** A result without its timing (the one field that differs from run to run). */
function untimed(result: MatchResult): unknown {
  return { ...result, seats: result.seats.map(({ decisionNanos: _, ...seat }) => seat) };
}

async function reported(dispatcher: GameDispatcher, config: TournamentConfig): Promise<Map<number, unknown>> {
  const games = schedule(config.agents, config.players, config.games);
  const results = new Map<number, unknown>();
  const counts = new Map<number, number>();
  await dispatcher.play(config, games, (index, result) => {
    counts.set(index, (counts.get(index) ?? 0) + 1);
    results.set(index, untimed(result));
  });
  expect(
    [...counts.values()].every((n) => n === 1),
    'each game reported once',
  ).toBe(true);
  expect([...results.keys()].sort((x, y) => x - y)).toEqual(games.map((g) => g.index));
  return results;
}

export function dispatcherContract(name: string, open: () => Promise<DispatcherUnderTest>): void {
  describe(`bench dispatcher contract: ${name}`, () => {
    let under: DispatcherUnderTest;
    beforeAll(async () => {
      under = await open();
    });
    afterAll(() => under?.close());

    it('plays every game once, each with the result this thread plays from its place in the schedule', async () => {
      const reference = new Map<number, unknown>();
      await playScheduled(CONFIG, schedule(CONFIG.agents, CONFIG.players, CONFIG.games), (index, result) => {
        reference.set(index, untimed(result));
      });
      const results = await reported(under.dispatcher, CONFIG);
      for (const [index, result] of reference) expect(results.get(index), `game ${index}`).toEqual(result);
    });

    it('a game that cannot be played rejects, naming the problem', async () => {
      const broken = { ...CONFIG, agents: ['novice', 'nosuchagent'] };
      await expect(under.dispatcher.play(broken, schedule(broken.agents, 2, 1), () => undefined)).rejects.toThrow(/nosuchagent/);
    });
  });
}
