// Every caller that plays an agent resolves it for its table (agents/resolve.ts), so plain
// `neural` plays the catalog's model for the table: here the trainer's opponents, teacher and
// adviser (training/league.ts, training/actor.ts), the server's decisions (serve/inference/decide.ts)
// and levels (agents/level.ts), each told apart by the policy it plays. The commands (calibrate,
// equity, the bench's agents section) are checked through their entry points (test/cli, test/bench).
import { describe, expect, it } from 'vitest';
import { RESOLVED_ENTRY_MAX, createAgent, resolveAgent } from '../../agents/resolve.js';
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

  it('a level at four seats: its best bot plays the four-seat model', async () => {
    const level = resolveAgent('level:3', { players: 4 });
    expect(level.via?.spec).toBe('neural:models/standard-4');
    expect(await playsModel(await createAgent(level.via!), 'models/standard-4', 4)).toBe(true);
    // Made from that resolution, named by the setting and the model it plays.
    expect((await createAgent(level)).name).toBe(level.spec);
  }, 120_000);
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
