import { describe, expect, it } from 'vitest';
import { readModelCard, trainingMismatch } from '../../agents/modelFolder.js';

describe('trainingMismatch', () => {
  const card = readModelCard();

  it('says nothing for the rules and table sizes the shipped model was trained on', () => {
    expect(card.players).toEqual([2]);
    expect(trainingMismatch(card, 'standard', {}, 2)).toBeNull();
    expect(trainingMismatch({ ...card, players: [2, 4] }, 'standard', {}, 4)).toBeNull();
  });

  it('names other rules, overrides and table sizes', () => {
    expect(trainingMismatch(card, 'dutch', {}, 2)).toMatch(/rules dutch \(trained on standard\)/);
    expect(trainingMismatch(card, 'standard', { slapdown: true }, 2)).toMatch(/standard \+ \{"slapdown":true\}/);
    expect(trainingMismatch(card, 'standard', {}, 4)).toMatch(/plays 4 players \(trained on 2\): expect it below its measured strength/);
    expect(trainingMismatch({ ...card, players: [2, 4] }, 'standard', {}, 3)).toMatch(/3 players \(trained on 2, 4\)/);
  });

  it('stays silent when the card does not say', () => {
    expect(trainingMismatch({ rules: undefined, players: undefined }, 'dutch', {}, 5)).toBeNull();
  });
});
