// The held-out panel: its two members play as their headers say, the paired difference is the
// mean over the same deals, and the trainer refuses panel members.
import { describe, expect, it } from 'vitest';
import { type Action, type GameState, applyAction, assafRisk, cardName, legalActions, playerView } from '../../../env/index.js';
import { seededRng } from '../../../env/rules/random.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';
import { legalActionIds } from '../../../env/gym/actionMask.js';
import { hoarder } from '../../../agents/bots/hoarder.js';
import { monteCarloAgent } from '../../../agents/bots/montecarlo.js';
import type { RuleBot } from '../../../agents/bots/ruleBot.js';
import { isPanelAgent, pairedDifference } from '../../../agents/tournament/panel.js';
import type { PlayedGame } from '../../../agents/tournament/stats.js';
import type { MatchResult } from '../../../agents/tournament/match.js';
import { OpponentMixError, parseOpponentMix } from '../../../training/league.js';
import { cards, game } from '../../env/helpers.js';

function decide(bot: RuleBot, s: GameState): string {
  const action: Action = bot({ view: playerView(s, s.current), legal: legalActions(s), rng: seededRng(1) });
  if (action.type === 'discard') return action.cards.map(cardName).join(' ');
  if (action.type === 'draw') return action.source === 'deck' ? 'deck' : cardName(action.source);
  return action.type;
}

describe('hoarder', () => {
  const position = (hand: string, discard = '9H') => game({ hands: [hand, 'KC QC JC 10C 9C'], discard, deck: '8D 8C 7D 7C 6D 6C' });
  const drawPosition = (hand: string, laid: string, discard: string) => {
    const s = position(hand, discard);
    applyAction(s, { type: 'discard', cards: cards(laid) });
    return s;
  };

  it('lays its longest group, and among singles the highest card, keeping its low cards', () => {
    expect(decide(hoarder, position('3S KD 2C 9H 4H'))).toBe('KD');
    expect(decide(hoarder, position('5S 6S 7S KD 2C'))).toBe('5S 6S 7S');
  });

  it('takes a card worth at most 3 or one that makes a group, else draws', () => {
    expect(decide(hoarder, drawPosition('KS QD 9C 8H 7C', 'KS', '3H'))).toBe('3H');
    expect(decide(hoarder, drawPosition('KS QD 9C 8H 7C', 'KS', '9D'))).toBe('9D');
    expect(decide(hoarder, drawPosition('KS QD 9C 8H 7C', 'KS', '5D'))).toBe('deck');
  });

  it('calls Yaniv when the exact Assaf risk is at most 0.3', () => {
    const s = position('AS 2C AD AH 2H');
    expect(assafRisk(playerView(s, 0)).risk).toBeLessThanOrEqual(0.3);
    expect(decide(hoarder, s)).toBe('yaniv');
  });
});

describe('montecarlo', () => {
  /** Plays one round with every seat deciding by `pick`, returning the actions played. */
  function playRound(seed: number, agentSeed: number): number[] {
    const env = new YanivEnv({ players: 3, episode: 'round', reward: 'zeroSum' });
    const agent = monteCarloAgent({ samples: 4 });
    agent.reset?.(agentSeed);
    let { observation, info } = env.reset({ seed });
    const played: number[] = [];
    for (let done = false; !done;) {
      const view = env.view(info.currentPlayer);
      const { action } = agent.act({ mask: info.actionMask, view, observation, explain: false });
      expect(legalActionIds(info.actionMask)).toContain(action);
      played.push(action);
      const step = env.step(action);
      ({ observation, info } = step);
      done = step.terminated || step.truncated;
    }
    return played;
  }

  it('plays only legal actions, and the same seed gives the same round', () => {
    expect(playRound(5, 9)).toEqual(playRound(5, 9));
  });
});

describe('the paired difference of a panel bench', () => {
  const result = (won: boolean, truncated = false): MatchResult =>
    ({ seats: [{ won }, { won: !won }], rounds: 1, turns: 1, winner: won ? 0 : 1, truncated }) as unknown as MatchResult;
  const games = (wins: boolean[], agent: string): PlayedGame[] => wins.map((won) => ({ seats: [agent, 'hoarder'], result: result(won) }));

  it('is the mean of the per-deal differences, with an interval around it', () => {
    const a = games([true, true, false, true], 'neural');
    const b = games([true, false, false, false], 'strong');
    const d = pairedDifference(a, b, 'neural', 'strong');
    expect(d.mean).toBeCloseTo(0.5);
    expect(d.low).toBeLessThan(0.5);
    expect(d.high).toBeGreaterThan(0.5);
  });

  it('is exactly 0 with no spread when both won the same deals', () => {
    const a = games([true, false, true], 'neural');
    expect(pairedDifference(a, games([true, false, true], 'strong'), 'neural', 'strong')).toEqual({ mean: 0, low: 0, high: 0 });
  });
});

describe('panel members never train', () => {
  it('are refused as training opponents, naming the panel', () => {
    expect(isPanelAgent('montecarlo?samples=8')).toBe(true);
    expect(isPanelAgent('strong')).toBe(false);
    expect(() => parseOpponentMix('strong=0.5,hoarder=0.5')).toThrow(OpponentMixError);
    expect(() => parseOpponentMix('strong=0.5,hoarder=0.5')).toThrow(/held-out panel/);
  });
});
