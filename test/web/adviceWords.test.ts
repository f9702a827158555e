// The advisor's numbers and moves in a player's words (web/adviceWords.ts, web/moveWords.ts).
import { describe, expect, it } from 'vitest';
import {
  STANDING_TAGS,
  outlookInWords,
  points,
  riskInWords,
  scoreInWords,
  suggestionInWords,
  winInWords,
  winReasonInWords,
} from '../../web/adviceWords.js';
import { MOVE_WORDS, moveInWords } from '../../web/moveWords.js';

describe('web/adviceWords', () => {
  it("shows a trained model's policy as how likely it plays a move, and no second points figure for an agent's own scores", () => {
    expect(scoreInWords(0.6234, 'probability')).toBe('62%');
    // strong's scores are its planning units: a move's points are the played-out ones (issue 41).
    expect(scoreInWords(-21.84, 'score')).toBe('');
    expect(scoreInWords(0, 'none')).toBe('');
    expect(points(-0.04)).toBe('0 points');
    expect(points(1)).toBe('1 point');
    expect(points(21.84)).toBe('21.8 points');
    expect(riskInWords(0.085)).toBe('9%');
  });

  it('says who suggests the move, and what the bot alone would pick when the moves played out overrule it', () => {
    const discard = { action: 3, kind: 'discard' as const, cards: ['5H'], text: 'discard 5H' };
    const take = { action: 1398, kind: 'take' as const, cards: ['7C'], text: 'take 7C' };
    expect(suggestionInWords({ agent: 'strong', pick: discard, agentPick: discard })).toEqual({
      lead: 'strong suggests ',
      overruled: null,
    });
    const figures = { win: null, points: { mean: 3, low: 1, high: 5 }, reasons: [] };
    const moves = [
      { ...take, ...figures, standing: 'suggested' as const },
      { ...discard, ...figures, standing: 'worse' as const },
    ];
    const overruled = suggestionInWords({ agent: 'strong', pick: take, agentPick: discard, moves });
    expect(overruled.lead).toMatch(/advisor suggests $/);
    expect(overruled.overruled).toEqual({ before: 'strong on its own would pick ', after: ', which played out worse.' });
    expect(STANDING_TAGS).toEqual({ suggested: 'suggested', same: 'about the same', worse: null });
    // Figures from the table model's own evaluation (worlds 0) are not called played out.
    const byModel = suggestionInWords({ agent: 'strong', pick: take, agentPick: discard, moves, worlds: 0 });
    expect(byModel.lead).toBe('Judged by the trained model from what you can see, the advisor suggests ');
    expect(byModel.overruled?.after).toBe(', which the model judges worse.');
  });
});

describe('web/adviceWords winInWords', () => {
  it('says the chance to win the game as a whole percentage, with its interval and where it comes from', () => {
    const win = { probability: 0.6312, low: 0.584, high: 0.677, roundStart: 0.6, equity: 'shipped' as const };
    expect(winInWords(win)?.text).toBe('Your chance to win this game: 63%');
    expect(winInWords(win)?.note).toMatch(/^likely 58–68%; the suggested move played out/);
    expect(winInWords({ ...win, equity: 'playouts' })?.note).toMatch(/measured by the server for these rules/);
    expect(winInWords(win, 8)?.note).toMatch(/played out/);
    expect(winInWords(win, 0)?.note).toBe('likely 58–68%; the trained model’s own judgement of the suggested move, from what you can see');
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
      standing: 'same' as const,
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
