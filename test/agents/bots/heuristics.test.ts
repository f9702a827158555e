// The rule-based bots follow their stated rules on hand-made positions.
import { describe, expect, it } from 'vitest';
import { type Action, type GameState, applyAction, assafRisk, cardName, legalActions, playerView } from '../../../env/index.js';
import { seededRng } from '../../../env/rules/random.js';
import { intermediate } from '../../../agents/bots/intermediate.js';
import { novice } from '../../../agents/bots/novice.js';
import type { RuleBot } from '../../../agents/bots/ruleBot.js';
import { strongBot } from '../../../agents/bots/strong.js';
import { card, game, play } from '../../env/helpers.js';

function decide(bot: RuleBot, s: GameState): Action {
  return bot({ view: playerView(s, s.current), legal: legalActions(s), rng: seededRng(1) });
}

function show(action: Action): string {
  if (action.type === 'discard') return action.cards.map(cardName).join(' ');
  if (action.type === 'draw') return action.source === 'deck' ? 'deck' : cardName(action.source);
  return action.type;
}

/** Seat 0 to move with this hand; seat 1 holds high cards; the turned-up card is given. */
function position(hand: string, discard = '9H', other = 'KC QC JC 10C 9C'): GameState {
  return game({ hands: [hand, other], discard, deck: '8D 8C 7D 7C 6D 6C' });
}

/** The same, after seat 0 has laid `laid`: its draw decision is next. */
function drawPosition(hand: string, laid: string, discard: string): GameState {
  const s = position(hand, discard);
  applyAction(s, { type: 'discard', cards: laid.split(' ').map(card) });
  return s;
}

describe('novice', () => {
  it.each([
    // hand                   laid: the group with the most points
    ['KS KH 2C 3D 4H', 'KS KH'],
    ['5S 6S 7S KD 2C', '5S 6S 7S'], // 18 points beats the single KD (10)
    ['QS 2C 3D 4H 5H', 'QS'],
  ])('lays the group with the most points: %s → %s', (hand, laid) => {
    expect(show(decide(novice, position(hand)))).toBe(laid);
  });

  it.each([
    ['2H', '2H'], // worth 2: taken
    ['AD', 'AD'], // worth 1: taken
    ['3H', 'deck'], // worth 3: the deck instead
    ['JK', 'JK'], // worth 0: taken
  ])('takes the previous card %s only if it is worth at most 2 → %s', (previous, drawn) => {
    expect(show(decide(novice, drawPosition('KS QD 9C 8H 7C', 'KS', previous)))).toBe(drawn);
  });

  it('calls Yaniv when legal and nothing known says an opponent is lower', () => {
    expect(decide(novice, position('AS 2C AD AH 2H')).type).toBe('yaniv');
  });

  it("does not call when the cards known in an opponent's hand already add up to no more than its own", () => {
    // Threshold 10. Seat 1 takes AS from seat 0's discard in view of all; seat 0 then holds 2+2+3+1+1 = 9.
    const dealt = game(
      { hands: ['AS 2C 2D 3H KS', 'KC QC JC 10C 9C'], discard: '9H', deck: 'AD AC 2H 2S 5D 5C' },
      { rules: { yanivThreshold: 10 } },
    );
    const s = play(dealt, 'AS / deck', 'KC / AS', 'KS / deck', 'QC / deck');
    const view = playerView(s, 0);
    expect(view.known[1].map(cardName)).toEqual(['AS']);
    expect(view.handValue).toBe(9);
    expect(decide(novice, s).type).toBe('discard');
    expect(decide(intermediate, s).type).toBe('yaniv');
  });
});

describe('intermediate', () => {
  it.each([
    ['5S 6S 7S KH KD', '5S 6S 7S'], // the longest group, although KH KD has more points
    ['KS KH 2C 3D 4H', 'KS KH'],
    ['QS 2C 3D 4H 5H', 'QS'], // no group: the single with the most points
  ])('lays the longest multi-card group, else the most points: %s → %s', (hand, laid) => {
    expect(show(decide(intermediate, position(hand)))).toBe(laid);
  });

  it.each([
    ['9D', '9D'], // pairs with 9C left in hand
    ['7C', '7C'], // 6C 7C 8C
    ['QD', 'deck'], // no group, worth 10
    ['2H', '2H'], // worth 2
  ])('takes %s if it forms a group with the rest of the hand or is worth at most 2 → %s', (previous, drawn) => {
    // After laying KS, seat 0 holds 9C 6C 8C 10H.
    expect(show(decide(intermediate, drawPosition('KS 9C 6C 8C 10H', 'KS', previous)))).toBe(drawn);
  });

  it('calls Yaniv whenever legal', () => {
    expect(decide(intermediate, position('AS 2C AD AH 2H')).type).toBe('yaniv');
  });
});

describe('strong', () => {
  const strong = strongBot();

  it('takes the card that completes a pair rather than drawing blind', () => {
    expect(show(decide(strong, drawPosition('KS 9C 4H 3D 10H', 'KS', '9D')))).toBe('9D');
  });

  it('with the measured round-end chance, takes the joker that completes a set over a queen that lands on a milestone only if the round ends now (issue 44)', () => {
    // Seat 0 at 19 keeps 5D 8S 8D; seat 1 laid QD JK and holds three unseen cards. With QD the hand is
    // 31 (19 + 31 = 50 → 25 if the round ends before its next turn); with JK it is 21 and lays 8S 8D JK next.
    const dealt = game({ hands: ['5D 8S 8D KS', 'QD JK AC 2H'], discard: '9H', deck: '7D 7C 6D 6C 4C 4D' }, { totals: [19, 0] });
    const s = play(dealt, 'KS / deck', 'QD JK / deck');
    applyAction(s, { type: 'discard', cards: [card('7D')] });
    expect(show(decide(strongBot({ roundEnd: 'measured' }), s))).toBe('JK');
    expect(show(decide(strong, s))).toBe('QD'); // the rough guess, which wins more games (agents/bots/strong.ts)
  });

  it('computes the Assaf risk from the unseen cards: certain when an opponent is known to be lower', () => {
    // Seat 1 holds only two cards it took from the pile, both known: AS and AD (2 points).
    const s = position('3S 4H', '9H', 'AS AD');
    const view = playerView(s, 0);
    const known = { ...view, known: [[], [card('AS'), card('AD')]] };
    expect(assafRisk(known).risk).toBe(1);
    expect(assafRisk(view).risk).toBeLessThan(0.2);
  });

  it('calls with a low hand against unknown hands, and not when an opponent is known to be lower', () => {
    const s = position('AS 2C', '9H');
    expect(decide(strong, s).type).toBe('yaniv');
    const view = playerView(s, 0);
    const lower = { ...view, handSizes: [2, 2], known: [[], [card('AH'), card('AD')]] };
    const risky = strong({ view: lower, legal: legalActions(s), rng: seededRng(1) });
    expect(risky.type).toBe('discard');
  });

  it('calls only up to the Assaf risk it is set to (callRisk)', () => {
    // 7 points against an opponent holding two unknown cards.
    const s = position('3S 4H', '9H');
    const view = { ...playerView(s, 0), handSizes: [2, 2] };
    const { risk } = assafRisk(view);
    expect(risk).toBeGreaterThan(0.1);
    expect(risk).toBeLessThan(1);
    const decideAt = (callRisk?: number) =>
      strongBot(callRisk === undefined ? {} : { callRisk })({ view, legal: legalActions(s), rng: seededRng(1) }).type;
    expect(decideAt()).toBe('discard');
    expect(decideAt(risk)).toBe('yaniv');
    expect(decideAt(risk - 0.01)).toBe('discard');
  });
});
