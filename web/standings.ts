/**
 * The end-of-game standings chart: each player's total after each round as a line, drawn in
 * inline SVG (no chart library: the page is served as it is, with no build step), with a legend
 * that names each line in words and its final total.
 */
import { type Game, seatName } from './game.js';
import { html } from './html.js';

/** One colour per seat (up to 8 seats), told apart on the felt and for the common colour blindnesses by their order in the legend too. */
export const LINE_COLOURS = ['#ffb703', '#8ecae6', '#fb8500', '#b5e48c', '#f28482', '#cdb4db', '#ffffff', '#90be6d'] as const;

const WIDTH = 320;
const HEIGHT = 160;
const PAD = { left: 32, right: 8, top: 8, bottom: 22 } as const;

/** Each seat's totals from the start (0) through every round: one row per seat. */
export function totalsByRound(game: Game): number[][] {
  return game.info.seats.map((_, seat) => [0, ...game.rounds.map((round) => round.totals[seat] ?? 0)]);
}

/** The SVG points of one line: rounds along, totals up (the highest total at the top). */
export function linePoints(totals: readonly number[], rounds: number, highest: number): string {
  const x = (i: number) => PAD.left + (i * (WIDTH - PAD.left - PAD.right)) / Math.max(1, rounds);
  const y = (total: number) => HEIGHT - PAD.bottom - (total * (HEIGHT - PAD.top - PAD.bottom)) / Math.max(1, highest);
  return totals.map((total, i) => `${x(i).toFixed(1)},${y(total).toFixed(1)}`).join(' ');
}

export function StandingsChart({ game }: { readonly game: Game }) {
  const rows = totalsByRound(game);
  const rounds = game.rounds.length;
  if (rounds === 0) return null;
  const highest = Math.max(1, ...rows.flat());
  const bottom = HEIGHT - PAD.bottom;
  return html`<figure class="standings">
    <figcaption>Standings: each player's total, round by round</figcaption>
    <svg viewBox=${`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label=${`Totals after each of ${rounds} rounds`}>
      <line class="axis" x1=${PAD.left} y1=${bottom} x2=${WIDTH - PAD.right} y2=${bottom} />
      <line class="axis" x1=${PAD.left} y1=${PAD.top} x2=${PAD.left} y2=${bottom} />
      <text class="tick" x=${PAD.left - 4} y=${PAD.top + 8} text-anchor="end">${highest}</text>
      <text class="tick" x=${PAD.left - 4} y=${bottom} text-anchor="end">0</text>
      <text class="tick" x=${WIDTH - PAD.right} y=${HEIGHT - 6} text-anchor="end">round ${rounds}</text>
      ${rows.map(
        (totals, seat) =>
          html`<polyline
            key=${seat}
            data-seat=${seat}
            points=${linePoints(totals, rounds, highest)}
            fill="none"
            stroke=${LINE_COLOURS[seat % LINE_COLOURS.length]}
            stroke-width="2"
          />`,
      )}
    </svg>
    <ul class="legend">
      ${rows.map(
        (totals, seat) =>
          html`<li key=${seat}>
            <span class="swatch" style=${`background:${LINE_COLOURS[seat % LINE_COLOURS.length]}`} aria-hidden="true"></span>
            ${`${seatName(game, seat)}: ${totals[totals.length - 1]}`}
          </li>`,
      )}
    </ul>
  </figure>`;
}
