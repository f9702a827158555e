/**
 * The running score across rematches: Play again continues a series (web/game.ts keeps the
 * winners of the games before), and the games each player has won so far are shown on the table
 * and in the game-over box.
 */
import { type Game, nextSeries, seatName } from './game.js';
import { html } from './html.js';

/** Games won by each seat in this series, the game on the table included once it is over. */
export function seriesWins(game: Game): number[] {
  const wins = game.info.seats.map(() => 0);
  for (const winner of nextSeries(game).winners) if (winner >= 0 && winner < wins.length) wins[winner]++;
  return wins;
}

/** "Games won (3 played): You 2, Dana 1, Strong bot (seat 3) 0"; null before the first game of the series ends. */
export function seriesText(game: Game): string | null {
  const played = nextSeries(game).winners.length;
  if (played === 0) return null;
  const wins = seriesWins(game);
  const score = wins.map((won, seat) => `${seatName(game, seat)} ${won}`).join(', ');
  return `Games won (${played} played): ${score}`;
}

/** The series score as one line (nothing before a game of the series has ended). */
export function SeriesScore({ game }: { readonly game: Game }) {
  const text = seriesText(game);
  return text === null ? null : html`<p class="series-score">${text}</p>`;
}
