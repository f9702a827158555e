// The advisor's numbers and moves in a player's words (web/adviceWords.ts, web/moveWords.ts).
import { describe, expect, it } from 'vitest';
import { points, riskInWords, scoreInWords, valueInWords, winInWords } from '../../web/adviceWords.js';
import { MOVE_WORDS, moveInWords } from '../../web/moveWords.js';

describe('web/adviceWords', () => {
  it("reads a score agent's scores as the points a move is expected to cost", () => {
    expect(scoreInWords(-21.84, 'score')).toBe('21.8 points');
    expect(scoreInWords(-1, 'score')).toBe('1 point');
    expect(scoreInWords(0, 'score')).toBe('0 points');
    expect(valueInWords(-14.1, 'score')).toBe('This move is expected to cost you about 14.1 points (fewer is better).');
  });

  it("reads a trained model's scores as how likely it plays a move, and its value as points against the table's average", () => {
    expect(scoreInWords(0.6234, 'probability')).toBe('62%');
    expect(valueInWords(-0.08, 'probability')).toBe(
      'Outlook for this round: about 8 points more than the table’s average (fewer is better).',
    );
    expect(valueInWords(0.031, 'probability')).toBe(
      'Outlook for this round: about 3 points fewer than the table’s average (fewer is better).',
    );
    expect(valueInWords(0.001, 'probability')).toBe('Outlook for this round: about as many points as the table’s average.');
  });

  it('says nothing for agents without scores or value', () => {
    expect(valueInWords(null, 'score')).toBeNull();
    expect(valueInWords(0.5, 'none')).toBeNull();
    expect(scoreInWords(0, 'none')).toBe('');
    expect(points(-0.04)).toBe('0 points');
    expect(riskInWords(0.085)).toBe('9%');
  });
});

describe('web/adviceWords winInWords', () => {
  it('says the chance to win the game as a whole percentage, and where it comes from', () => {
    expect(winInWords({ probability: 0.6312, roundStart: 0.6312, source: 'equity' })?.text).toBe('Your chance to win this game: 63%');
    expect(winInWords({ probability: 0.6312, roundStart: 0.6312, source: 'equity' })?.note).toMatch(/totals when this round began/);
    expect(winInWords({ probability: 0.995, roundStart: 0.9, source: 'equity+value' })).toEqual({
      text: 'Your chance to win this game: 100%',
      note: expect.stringMatching(/trained bot/),
    });
    expect(winInWords(null)).toBeNull();
  });
});

describe('web/moveWords', () => {
  it('names moves with their cards in words, suggested or done', () => {
    expect(moveInWords({ kind: 'discard', cards: ['10C', 'JK', 'QC'] }, 'suggest')).toBe('Lay 10 of clubs, joker, queen of clubs');
    expect(moveInWords({ kind: 'take', cards: ['7H'] }, 'done')).toBe('took 7 of hearts');
    expect(moveInWords({ kind: 'draw', cards: [] }, 'done')).toBe('drew from the deck');
    expect(moveInWords({ kind: 'yaniv', cards: [] }, 'suggest')).toBe('Call Yaniv!');
    expect(MOVE_WORDS.pass).toEqual({ suggest: 'Keep your hand (pass)', done: 'passed' });
  });
});
