// The advisor's numbers and moves in a player's words (web/adviceWords.ts, web/moveWords.ts).
import { describe, expect, it } from 'vitest';
import { outlookInWords, points, riskInWords, scoreInWords, valueInWords, winInWords, winReasonInWords } from '../../web/adviceWords.js';
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
  it('says the chance to win the game as a whole percentage, with its interval and where it comes from', () => {
    const win = { probability: 0.6312, low: 0.584, high: 0.677, roundStart: 0.6, equity: 'shipped' as const };
    expect(winInWords(win)?.text).toBe('Your chance to win this game: 63%');
    expect(winInWords(win)?.note).toMatch(/^likely 58–68%; the suggested move played out/);
    expect(winInWords({ ...win, equity: 'playouts' })?.note).toMatch(/measured by the server for these rules/);
    expect(winInWords(null)).toBeNull();
    expect(winReasonInWords(null)).toBeNull();
    expect(winReasonInWords('this game is won by Yaniv calls')).toBe('No chance to win is shown here: this game is won by Yaniv calls.');
  });

  it("says a played-out move's figures with their intervals", () => {
    const move = {
      action: 3,
      kind: 'discard' as const,
      cards: ['5H'],
      text: 'discard 5H',
      win: { mean: 0.42, low: 0.381, high: 0.46 },
      points: { mean: 6.34, low: 4.06, high: 8.6 },
      better: false,
      reasons: [],
    };
    expect(outlookInWords(move)).toEqual({ win: 'win 42% (38–46%)', points: 'about 6.3 points this round (4.1–8.6)' });
    expect(outlookInWords({ ...move, win: null }).win).toBeNull();
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
