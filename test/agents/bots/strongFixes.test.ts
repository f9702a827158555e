// `strong`'s blind-spot fixes (agents/bots/strong.ts STRONG_FIXES): each changes the choice it names
// on a stated position, the default plays as before, and `strong?fix=…` is parsed with its error in words.
import { describe, expect, it } from 'vitest';
import { type Action, type GameState, applyAction, cardName, legalActions, playerView } from '../../../env/index.js';
import { seededRng } from '../../../env/rules/random.js';
import { type StrongFix, strongBot } from '../../../agents/bots/strong.js';
import { createAgentFor } from '../../../agents/resolve.js';
import { card, game, play } from '../../env/helpers.js';

function choice(s: GameState, fixes?: StrongFix[]): string {
  const action: Action = strongBot(fixes ? { fixes } : {})({ view: playerView(s, s.current), legal: legalActions(s), rng: seededRng(1) });
  if (action.type === 'discard') return action.cards.map(cardName).join(' ');
  if (action.type === 'draw') return action.source === 'deck' ? 'deck' : cardName(action.source);
  return action.type;
}

/** Issue 44: seat 0 at 19 keeps 5D 8S 8D after laying 7D; seat 1 laid QD JK, both on offer. */
function issueJoker(): GameState {
  const dealt = game({ hands: ['5D 8S 8D KS', 'QD JK AC 2H'], discard: '9H', deck: '7D 7C 6D 6C 4C 4D' }, { totals: [19, 0] });
  const s = play(dealt, 'KS / deck', 'QD JK / deck');
  applyAction(s, { type: 'discard', cards: [card('7D')] });
  return s;
}

describe('strong?fix=joker', () => {
  it('takes the joker that completes 8S 8D over the queen that lands on a milestone only if the round ends now (issue 44)', () => {
    expect(choice(issueJoker(), ['joker'])).toBe('JK');
    expect(choice(issueJoker())).toBe('QD'); // the default, as before
    expect(choice(issueJoker(), [])).toBe('QD');
  });

  it('lays a pair and keeps its joker where the default lays the joker in a run', () => {
    const s = game({ hands: ['7S 8S QH 7C JK', 'KC QC JC 10C 9C'], discard: '9H', deck: '8D 8C 7D 7C 6D 6C' });
    expect(choice(s, ['joker'])).toBe('7S 7C');
    expect(choice(s)).toBe('JK 7S 8S');
  });
});

describe('strong?fix=joker-duel', () => {
  /** The issue's position at three seats: seat 2 laid QD JK, seat 1 a pair between. */
  function threeSeatJoker(): GameState {
    const hands = ['5D 8S 8D KS', '9C 9D 3S 4S', 'QD JK AC 2H'];
    const dealt = game({ hands, discard: '9H', deck: '7D 7C 6D 6C 4C 4D 5C 5H' }, { totals: [19, 0, 0] });
    const s = play(dealt, 'KS / deck', '9C 9D / deck', 'QD JK / deck');
    applyAction(s, { type: 'discard', cards: [card('7D')] });
    return s;
  }

  it('plays the joker fix once two seats are left, and the default while more are in play', () => {
    expect(choice(issueJoker(), ['joker-duel'])).toBe('JK');
    const three = threeSeatJoker();
    expect(choice(three, ['joker'])).toBe('JK');
    expect(choice(three, ['joker-duel'])).toBe(choice(three));
    expect(choice(three)).not.toBe('JK');
  });
});

describe('strong?fix=deck', () => {
  it('lays its queen where the default lays 2H to keep QS AC for a blind draw to 100', () => {
    // At 79 with QS 2H AC: QS AC (11) and a drawn 10 land on 100 → 50 if the round ends before its next turn.
    const s = game({ hands: ['QS 2H AC', 'KC QD 9C'], discard: '3C', deck: '8D 8C 7D 7C 6D 6C' }, { totals: [79, 80] });
    expect(choice(s, ['deck'])).toBe('QS');
    expect(choice(s)).toBe('2H');
  });
});

describe('the fix parameter', () => {
  it('names the agent after the fixes it plays with, in their declared order', async () => {
    expect((await createAgentFor('strong?fix=joker', { players: 2 })).name).toBe('strong?fix=joker');
    expect((await createAgentFor('strong?fix=joker+deck', { players: 2 })).name).toBe('strong?fix=deck+joker');
    expect((await createAgentFor('strong', { players: 2 })).name).toBe('strong');
  });

  it('refuses a fix it does not know, naming the ones it does', async () => {
    await expect(createAgentFor('strong?fix=jokers', { players: 2 })).rejects.toThrow(
      'agent "strong": parameter fix must name fixes joined by + (deck, joker, joker-duel; got "jokers")',
    );
  });
});

describe('neural?adviser=SPEC', () => {
  it('asks the adviser named instead of its card’s, checked as any spec', async () => {
    await expect(createAgentFor('neural?adviser=strong?fix=bad', { players: 2 })).rejects.toThrow(/parameter fix must name fixes/);
    expect((await createAgentFor('neural?adviser=strong?fix=joker', { players: 2 })).name).toBe('neural');
  });
});
