import { describe, expect, it } from 'vitest';
import { ACTION_COUNT, DISCARD_START, MaskScratch, writeActionMask } from '../../env/actionSpace.js';
import { DiscardList, playerView } from '../../env/index.js';
import { OBSERVATION_SIZE, encodeObservation } from '../../env/observation.js';
import { rolloutAgent } from '../../agents/rollout.js';
import { game } from '../env/helpers.js';

function input(hand: string) {
  const s = game({ hands: [hand, 'KC QC JC 10C 9C'], discard: '9H', deck: '8D 8C 7D 7C 6D 6C 5D 5C' });
  const mask = new Uint8Array(ACTION_COUNT);
  writeActionMask(s, new MaskScratch(new DiscardList()), mask, 0);
  const observation = new Float32Array(OBSERVATION_SIZE);
  encodeObservation(s, 0, observation, 0);
  return { observation, mask, view: playerView(s, 0) };
}

describe('rollout', () => {
  it('searches the strong bot\'s best discards and returns a legal one with its policy, best first', () => {
    const agent = rolloutAgent({ samples: 8 });
    agent.reset(3);
    const decision = agent.act(input('KS KH 4D 9C 2S'));
    expect(decision.action).toBeGreaterThanOrEqual(DISCARD_START);
    expect(input('KS KH 4D 9C 2S').mask[decision.action]).toBe(1);
    const policy = decision.policy;
    expect(policy?.actions[0]).toBe(decision.action);
    expect(policy?.actions.length).toBe(3);
    expect([...(policy?.scores ?? [])]).toEqual([...(policy?.scores ?? [])].sort((a, b) => b - a));
    expect(policy?.value).toBe(policy?.scores[0]);
  });

  it('gives the same decision for the same seed, and plays at least one world on a zero time budget', () => {
    const decide = (seed: number, maxMillis = Infinity) => {
      const agent = rolloutAgent({ samples: 6, maxMillis });
      agent.reset(seed);
      return agent.act(input('QS QH 5D 8C 3S'));
    };
    expect(decide(4)).toEqual(decide(4));
    expect(decide(4, 0).policy?.actions.length).toBe(3);
  });
});
