// Every caller that plays an agent resolves it for its table (agents/resolve.ts), so plain
// `neural` plays the catalog's model for the table: here the trainer's opponents, teacher and
// adviser (training/league.ts, training/actor.ts), the server's decisions
// (serve/inference/decide.ts) and the seats its tables keep (serve/tables/seatAgents.ts), levels
// (agents/level.ts), the bridge's opponents (bridge/sessions.ts) and tournaments' seats
// (agents/tournament/play.ts: the bench and rate), each told apart by the policy it plays, the
// games it plays or the model its seat names. The commands (calibrate, equity, the bench's agents
// section) print the resolution their agents are made from (`seatAgents`), checked through their
// entry points (test/cli/calibrate.test.ts, test/cli/equity.test.ts, test/bench/agents.test.ts).
import { describe, expect, it } from 'vitest';
import { RESOLVED_ENTRY_MAX, createAgent, resolveAgent, seatAgents } from '../../agents/resolve.js';
import { playScheduled } from '../../agents/tournament/play.js';
import type { MatchResult } from '../../agents/tournament/match.js';
import { opponentAgents } from '../../bridge/sessions.js';
import type { Agent } from '../../env/gym/agent.js';
import type { Msg } from '../../serve/index.js';
import { TestClient, startTestServer } from '../serve/helpers.js';
import { agentFor, playedAgent } from '../../serve/inference/decide.js';
import { actorAgents } from '../../training/actor.js';
import { opponentKey } from '../../training/league.js';
import type { RolloutSetup } from '../../training/rollout.js';
import { playsModel } from './playsModel.js';

const setup = (players: number[]): RolloutSetup => ({
  players,
  games: 2,
  env: { preset: 'standard', rules: {}, episode: 'round', reward: 'zeroSum', rewardScale: 0.01, maxTurns: 60 },
  returnHorizon: 'round',
  opponents: [{ spec: 'neural', weight: 1 }],
  seed: 1,
  adviser: 'neural?greedy=1',
});

describe('the model each caller plays is the catalog’s for its table', () => {
  it('the trainer: an opponent per table size; the teacher and the adviser at the largest size', async () => {
    const { agents, teacher, adviser } = await actorAgents(setup([2, 4]), 'neural');
    expect(await playsModel(agents.get(opponentKey('neural', 2))!, 'models/standard', 2)).toBe(true);
    expect(await playsModel(agents.get(opponentKey('neural', 4))!, 'models/standard-4', 4)).toBe(true);
    expect(await playsModel(agents.get(opponentKey('neural', 4))!, 'models/standard', 4)).toBe(false);
    expect(await playsModel(teacher!, 'models/standard-4', 4)).toBe(true);
    expect(await playsModel(adviser!, 'models/standard-4', 4)).toBe(true);
  }, 120_000);

  it('the server: a decision at a four-seat table plays the four-seat model', async () => {
    const four = await agentFor(playedAgent(resolveAgent('neural', { players: 4 })));
    expect(await playsModel(four, 'models/standard-4', 4)).toBe(true);
    const two = await agentFor(playedAgent(resolveAgent('neural', { players: 2 })));
    expect(await playsModel(two, 'models/standard', 2)).toBe(true);
  }, 120_000);

  it('the server’s tables: neural seats at a four-seat table keep the four-seat model (serve/tables/seatAgents.ts)', async () => {
    const server = await startTestServer({ agents: ['neural'], workers: 0 });
    const client = await TestClient.connect(server.url);
    try {
      await client.request({ type: 'hello', version: 1 });
      const seats = ['client', 'neural', 'neural', 'neural'];
      const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats, thinkMs: 0 });
      for (const seat of created.seats.slice(1)) {
        expect(seat).toMatchObject({ agent: 'neural', model: { model: 'models/standard-4', fit: 'trained', mismatch: null } });
      }
    } finally {
      await client.close();
      await server.close();
    }
  }, 120_000);

  it('a level at four seats: its best bot plays the four-seat model', async () => {
    const level = resolveAgent('level:3', { players: 4 });
    expect(level.via?.spec).toBe('neural:models/standard-4');
    expect(await playsModel(await createAgent(level.via!), 'models/standard-4', 4)).toBe(true);
    // Made from that resolution, named by the setting and the model it plays.
    expect((await createAgent(level)).name).toBe(level.spec);
  }, 120_000);

  it('the bridge: a four-seat env’s neural opponents play the four-seat model', async () => {
    const { agents } = await opponentAgents('neural', { players: 4 }, 0);
    expect(await playsModel(agents as Agent, 'models/standard-4', 4)).toBe(true);
  }, 120_000);

  it('a tournament (bench, rate): neural at a four-seat table plays the games the four-seat model plays', async () => {
    const games = async (neural: string): Promise<MatchResult[]> => {
      const seats = [neural, 'strong', 'strong', 'strong'];
      const config = {
        preset: 'standard',
        rules: {},
        agents: [neural, 'strong'],
        games: 2,
        players: 4,
        seed: 3,
        episode: 'game' as const,
        workers: 1,
      };
      const played: MatchResult[] = [];
      await playScheduled(
        config,
        [0, 1].map((index) => ({ index, seats, deal: index })),
        (_, result) => void played.push(result),
      );
      return played.map(({ seats: stats, rounds, turns, winner }) => ({
        seats: stats.map((seat) => ({ ...seat, decisionNanos: 0 })),
        rounds,
        turns,
        winner,
        truncated: false,
      }));
    };
    const plain = await games('neural');
    expect(plain).toEqual(await games('neural:models/standard-4'));
    expect(plain).not.toEqual(await games('neural:models/standard'));
  }, 120_000);

  it('calibrate, equity and the bench’s agents section: what they print is what they play, at every seat', async () => {
    const { resolved, agents } = await seatAgents('neural', { players: 4 }, 4);
    expect(resolved.model).toEqual({ kind: 'shipped', folder: 'models/standard-4' });
    expect(agents).toHaveLength(4);
    for (const agent of agents) expect(await playsModel(agent, 'models/standard-4', 4)).toBe(true);
  }, 120_000);
});

describe('an agent is made from a resolution only', () => {
  it('the compiler refuses a spec string, or a value shaped like a resolution made elsewhere (tsc -b checks the tests)', () => {
    const shaped = { requested: 'neural', kind: 'neural', params: {}, spec: 'neural', table: { players: 4 } };
    const fields = { ...shaped, model: null, card: null, fit: null, mismatch: null, via: null };
    const bypasses = [
      // @ts-expect-error: a spec string is no resolution
      () => createAgent('neural'),
      // @ts-expect-error: nor is a plain object with a resolution's fields (the brand is the resolver's alone)
      () => createAgent(fields),
    ];
    expect(bypasses).toHaveLength(2);
  });
});

describe('the resolution cache (issue 39: bounded for anything a client sends)', () => {
  it('keeps an answer for rules a table can have, and answers but does not keep rules past what valid options write', () => {
    const table = (rules: Record<string, unknown>) => ({ preset: 'standard', rules, players: 2 });
    const house = table({ eliminationLimit: 300, milestones: Array.from({ length: 20 }, (_, i) => [i * 25 + 1, i * 20]) });
    expect(JSON.stringify(house.rules).length).toBeLessThan(RESOLVED_ENTRY_MAX / 8);
    expect(resolveAgent('strong', house)).toBe(resolveAgent('strong', house));
    const junk = table({ note: 'x'.repeat(RESOLVED_ENTRY_MAX) });
    const first = resolveAgent('strong', junk);
    expect(first.spec).toBe('strong');
    expect(resolveAgent('strong', junk)).not.toBe(first);
  });
});
