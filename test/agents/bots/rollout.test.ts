import { describe, expect, it } from 'vitest';
import { ACTION_COUNT, DISCARD_START, YANIV_ACTION } from '../../../env/gym/actionLayout.js';
import { MaskScratch, legalActionIds, writeActionMask } from '../../../env/gym/actionMask.js';
import { actionToMove, moveToAction } from '../../../env/gym/actionMoves.js';
import { DiscardList, playerView, unseenCounts } from '../../../env/index.js';
import { OBSERVATION_SIZE, encodeObservation } from '../../../env/gym/observation.js';
import { callRiskProxy, playoutRound, playoutRoundLight, playoutRoundStrong, playoutTables } from '../../../agents/bots/playout.js';
import { rolloutAgent } from '../../../agents/bots/rollout.js';
import { rankDiscards } from '../../../agents/bots/strong.js';
import { game, handText } from '../../env/helpers.js';

function input(hand: string) {
  const s = game({ hands: [hand, 'KC QC JC 10C 9C'], discard: '9H', deck: '8D 8C 7D 7C 6D 6C 5D 5C' });
  const mask = new Uint8Array(ACTION_COUNT);
  writeActionMask(s, new MaskScratch(new DiscardList()), mask, 0);
  const observation = new Float32Array(OBSERVATION_SIZE);
  encodeObservation(s, 0, observation, 0);
  return { observation, mask, view: playerView(s, 0) };
}

describe('rollout', () => {
  it("searches the strong bot's best discards and returns a legal one with its policy, best first", () => {
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

describe('the strong-like playout', () => {
  it('takes a previous card that pairs with the hand (the greedy playout takes only cards worth ≤ 2)', () => {
    const strongWorld = game({ hands: ['9S KC 4D 3C 2S', 'KD QD JD 10D 8H'], discard: '9D', deck: '8D 8C 7D 7C 6D 6C 5D 5C' });
    playoutRoundStrong(strongWorld, 1);
    expect(handText(strongWorld, 0)).toBe('2S 9S 4D 9D 3C');
    const greedyWorld = game({ hands: ['9S KC 4D 3C 2S', 'KD QD JD 10D 8H'], discard: '9D', deck: '8D 8C 7D 7C 6D 6C 5D 5C' });
    playoutRound(greedyWorld, 1);
    expect(handText(greedyWorld, 0)).not.toContain('9D');
  });

  it('calls Yaniv only when the risk proxy is low: not against a one-card hand', () => {
    const many = game({ hands: ['AS 2H 3D', 'KD QD JD 10D 8H'], discard: '9D', deck: '8D 8C 7D 7C 6D 6C 5D 5C' });
    const few = game({ hands: ['AS 2H 3D', 'KD'], discard: '9D', deck: '8D 8C 7D 7C 6D 6C 5D 5C' });
    const tables = playoutTables(many.values, many.composition);
    expect(callRiskProxy(many, tables)).toBeLessThan(0.01);
    expect(callRiskProxy(few, tables)).toBeGreaterThan(0.3);
    playoutRoundStrong(many, 1);
    expect(many.lastResult?.outcome).toBe('yaniv');
    playoutRoundStrong(few, 1);
    expect(few.lastResult).toBeNull();
  });
});

describe('the light playout (the advice: strong replies, then quick moves)', () => {
  const deal = () => game({ hands: ['9S KC 4D 3C 2S', 'KD QD JD 10D 8H'], discard: '9D', deck: '8D 8C 7D 7C 6D 6C 5D 5C' });

  it("plays strong's moves for its first turns and the greedy lay and draw after them", () => {
    const light = deal();
    playoutRoundLight(light, 1, 1);
    expect(handText(light, 0)).toBe('2S 9S 4D 9D 3C');
    const quick = deal();
    playoutRoundLight(quick, 0, 1);
    expect(handText(quick, 0)).not.toContain('9D');
  });

  it("keeps strong's calling rule after them (the greedy playout calls whenever allowed), and plays the round to its end", () => {
    const risky = () => game({ hands: ['AS 2H 3D', 'KD'], discard: '9D', deck: '8D 8C 7D 7C 6D 6C 5D 5C' });
    const greedy = risky();
    playoutRound(greedy, 1);
    expect(greedy.lastResult?.caller).toBe(0);
    const light = risky();
    playoutRoundLight(light, 0, 1);
    expect(light.lastResult).toBeNull();
    const whole = deal();
    playoutRoundLight(whole, 2);
    expect(whole.lastResult).not.toBeNull();
  });
});

describe('rollout choices', () => {
  it("keeps the strong bot's first choice unless a candidate beats it by the margin", () => {
    const position = input('KS KH 4D 9C 2S');
    const first = rankDiscards(
      position.view,
      legalActionIds(position.mask).map((id) => actionToMove(position.view, id)),
      unseenCounts(position.view),
    )[0].action;
    const agent = rolloutAgent({ samples: 8, margin: 1e9 });
    agent.reset(5);
    expect(agent.act(position).action).toBe(moveToAction(position.view, first));
  });

  it('searches the Yaniv call against the best discards when asked', () => {
    const agent = rolloutAgent({ samples: 4, searchCalls: true });
    agent.reset(2);
    const decision = agent.act(input('AS 2H 3D'));
    expect(decision.policy?.actions).toContain(YANIV_ACTION);
  });
});
