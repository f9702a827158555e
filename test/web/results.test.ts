// The words of the round results (web/results.ts, web/words.ts): verbs agree with "You".
import { describe, expect, it } from 'vitest';
import { type RoundResult, type TableInfo, newGame } from '../../web/game.js';
import { GameSummary, eliminationText, gameOverTitle, outcomeText } from '../../web/results.js';
import { html } from '../../web/html.js';
import { listed } from '../../web/words.js';

const info: TableInfo = {
  table: 't1',
  token: 'k',
  preset: 'standard',
  rules: {},
  settledRules: {},
  players: 3,
  seats: [
    { seat: 0, player: 'client' },
    { seat: 1, player: 'bot', agent: 'strong' },
    { seat: 2, player: 'bot', agent: 'novice' },
  ],
  thinkMs: 0,
  moveDeadlineMs: null,
  invite: null,
  lobby: false,
};
const game = newGame(info);

function result(change: Partial<RoundResult>): RoundResult {
  return {
    round: 1,
    outcome: 'yaniv',
    caller: 1,
    winner: 1,
    hands: [['KS'], ['AS'], ['QS']],
    handValues: [10, 1, 10],
    points: [10, 0, 10],
    totalsBefore: [0, 0, 0],
    totals: [10, 0, 10],
    eliminated: [],
    adjustments: [null, null, null],
    ...change,
  };
}

describe('web/results words', () => {
  it('says "You are out", "Strong bot (seat 2) is out" and lists several players with "are"', () => {
    expect(eliminationText(game, result({ eliminated: [0] }))).toBe('You are out of the game.');
    expect(eliminationText(game, result({ eliminated: [1] }))).toBe('Strong bot (seat 2) is out of the game.');
    expect(eliminationText(game, result({ eliminated: [2, 0] }))).toBe('You and Novice bot (seat 3) are out of the game.');
    expect(eliminationText(game, result({ eliminated: [1, 2] }))).toBe('Strong bot (seat 2) and Novice bot (seat 3) are out of the game.');
  });

  it('lets the winner of an exhausted deck "win" or "wins"', () => {
    expect(outcomeText(game, result({ outcome: 'exhausted', caller: null, winner: 0 }))).toBe(
      'No card could be drawn: You win with the lowest hand.',
    );
    expect(outcomeText(game, result({ outcome: 'exhausted', caller: null, winner: 2 }))).toBe(
      'No card could be drawn: Novice bot (seat 3) wins with the lowest hand.',
    );
  });

  it('says who won the game, and why a game stopped at the turn cap ended', () => {
    expect(gameOverTitle(game, { winner: 0, truncated: false })).toBe('You win the game!');
    expect(gameOverTitle(game, { winner: 1, truncated: false })).toBe('Game over: Strong bot (seat 2) wins.');
    expect(gameOverTitle(game, { winner: 0, truncated: true })).toBe(
      'The game went on too long and was stopped: you win with the lowest total.',
    );
    expect(gameOverTitle(game, { winner: 2, truncated: true })).toBe(
      'The game went on too long and was stopped: Novice bot (seat 3) wins with the lowest total.',
    );
  });

  it('lists names with commas and "and"', () => {
    expect(listed([])).toBe('');
    expect(listed(['a'])).toBe('a');
    expect(listed(['a', 'b', 'c'])).toBe('a, b and c');
  });

  it('writes the final totals with a space after each colon and comma (htm drops whitespace at line breaks)', () => {
    const game = newGame(info);
    expect(textOf(html`<${GameSummary} game=${game} over=${{ totals: [203, 12, 40], seed: 9 }} />`)).toBe(
      '0 rounds. Final totals: You 203, Strong bot (seat 2) 12, Novice bot (seat 3) 40. Seed 9.',
    );
  });
});

/** The text a preact element shows, its function components called (they use no hooks). */
function textOf(node: unknown): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  const { type, props } = node as { type: unknown; props: { children?: unknown } };
  if (typeof type === 'function') return textOf((type as (p: unknown) => unknown)(props));
  return textOf(props.children);
}
