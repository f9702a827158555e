// Agents explain their choice for the advisor (`explain: true`) without changing it: over whole
// games, the explained decision's first action is the one the agent plays unasked, every ranked
// action is legal, and every legal action is ranked once.
import { describe, expect, it } from 'vitest';
import { YanivEnv, legalActionIds } from '../../env/index.js';
import { createAgentFor } from '../../agents/resolve.js';

const GAMES = process.env.YANIV_PROPERTY_RUNS === 'long' ? 20 : 1;

describe('strong explains its choice', () => {
  it.each([
    ['standard', {}],
    ['standard', { slapdown: true, quickDiscard: true }],
    ['norwegian', {}],
  ])('%s %j: the same pick, every legal action ranked once', async (preset, rules) => {
    const agent = await createAgentFor('strong', { players: 2 });
    for (let game = 0; game < GAMES; game++) {
      const env = new YanivEnv({ players: 3, preset, rules, maxTurns: 300 });
      let { observation, info } = env.reset({ seed: game });
      for (let step = 0; !env.done; step++) {
        const input = { observation, mask: info.actionMask, view: env.view(info.currentPlayer) };
        agent.reset(step);
        const plain = agent.act(input);
        agent.reset(step);
        const explained = agent.act({ ...input, explain: true });
        expect(explained.action).toBe(plain.action);
        const policy = explained.policy;
        if (!policy) throw new Error('no policy');
        expect(policy.actions[0]).toBe(plain.action);
        expect([...policy.actions].sort((a, b) => a - b)).toEqual(legalActionIds(info.actionMask));
        expect(policy.scores.every(Number.isFinite)).toBe(true);
        ({ observation, info } = env.step(plain.action));
      }
    }
  });
});
