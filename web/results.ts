/**
 * The ends of rounds and of the game: the round result (every hand revealed, Yaniv or Assaf,
 * points, milestones, eliminations), the running score table, and the game over with the
 * record to download (yaniv-record/1, replayable with `yaniv replay`) and a new deal.
 */
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { Card } from './cardView.js';
import { type Game, type RoundResult, currentTotals, mySeat, seatName, shortSeatName } from './game.js';
import { html } from './html.js';
import type { Msg } from '../client/protocol.js';
import { SeriesScore } from './series.js';
import { StandingsChart } from './standings.js';
import { IS, WINS, withVerb } from './words.js';

interface RoundResultProps {
  readonly game: Game;
  readonly result: RoundResult;
  readonly onClose: () => void;
  /** Null for a friend at someone else's table (only its host deals it again). */
  readonly onPlayAgain: (() => void) | null;
  readonly onNewGame: () => void;
}

export function RoundResultDialog({ game, result, onClose, onPlayAgain, onNewGame }: RoundResultProps) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  const over = game.over !== null && game.rounds[game.rounds.length - 1] === result ? game.over : null;
  return html`<div class="overlay">
    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="round-title" aria-describedby="round-outcome">
      <h2 id="round-title">Round ${result.round}</h2>
      <p id="round-outcome" class="outcome">${outcomeText(game, result)}</p>
      <table class="result">
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col">Hand</th>
            <th scope="col">Value</th>
            <th scope="col">Points</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          ${result.hands.map(
            (hand, seat) =>
              html`<tr key=${seat} data-seat=${seat} class=${seat === result.winner ? 'winner' : ''}>
                <th scope="row">${seatName(game, seat)}</th>
                <td class="hand-cards">
                  ${hand === null ? '—' : hand.map((name, i) => html`<${Card} key=${i} name=${name} small=${true} />`)}
                </td>
                <td class="value">${result.handValues[seat] ?? '—'}</td>
                <td class="points">${result.points[seat] ?? '—'}</td>
                <td>
                  <span class="total">${result.totals[seat]}</span>
                  ${result.adjustments[seat] ? html` <span class="note">${result.adjustments[seat]}</span>` : null}
                  ${result.eliminated.includes(seat) ? html` <span class="note out">out</span>` : null}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
      ${result.eliminated.length > 0 ? html`<p>${eliminationText(game, result)}</p>` : null}
      ${over ? html`<${GameOver} game=${game} over=${over} onPlayAgain=${onPlayAgain} onNewGame=${onNewGame} />` : null}
      <button type="button" ref=${close} class=${over ? '' : 'primary'} onClick=${onClose}>${over ? 'Close' : 'Next round'}</button>
    </div>
  </div>`;
}

export function outcomeText(game: Game, result: RoundResult): string {
  const caller = result.caller === null ? '' : seatName(game, result.caller);
  const callerValue = result.caller === null ? null : result.handValues[result.caller];
  switch (result.outcome) {
    case 'yaniv':
      return `${caller} called Yaniv with ${callerValue} and won the round.`;
    case 'assaf':
      return `${caller} called Yaniv with ${callerValue}: Assaf! ${seatName(game, result.winner)} had ${result.handValues[result.winner]}.`;
    case 'slapdown':
      return `${caller} slapped down a hand worth 0 and won the round.`;
    case 'exhausted':
      return `No card could be drawn: ${withVerb([seatName(game, result.winner)], WINS)} with the lowest hand.`;
  }
}

export function eliminationText(game: Game, result: RoundResult): string {
  return `${withVerb(
    result.eliminated.map((seat) => seatName(game, seat)),
    IS,
  )} out of the game.`;
}

/** "You win the game!", "Game over: strong (seat 2) wins.", and for a game stopped at the turn cap, why. */
export function gameOverTitle(game: Game, over: Pick<Msg<'game_over'>, 'winner' | 'truncated'>): string {
  const mine = over.winner === mySeat(game);
  const winner = seatName(game, over.winner);
  if (over.truncated) return `The game went on too long and was stopped: ${mine ? 'you win' : `${winner} wins`} with the lowest total.`;
  return mine ? 'You win the game!' : `Game over: ${winner} wins.`;
}

interface GameOverProps {
  readonly game: Game;
  readonly over: Msg<'game_over'>;
  /** Null for a friend at someone else's table (only its host deals it again). */
  readonly onPlayAgain: (() => void) | null;
  readonly onNewGame: () => void;
}

/** The rounds, final totals and seed of a finished game, as one line of words (htm drops the whitespace at a line break). */
export function GameSummary({ game, over }: { readonly game: Game; readonly over: Pick<Msg<'game_over'>, 'totals' | 'seed'> }) {
  const rounds = `${game.rounds.length} round${game.rounds.length === 1 ? '' : 's'}`;
  const totals = over.totals.map((total, seat) => `${seatName(game, seat)} ${total}`).join(', ');
  return html`<p class="record-summary">${`${rounds}. Final totals: ${totals}. Seed ${over.seed}.`}</p>`;
}

export function GameOver({ game, over, onPlayAgain, onNewGame }: GameOverProps) {
  const recordUrl = useMemo(
    () => URL.createObjectURL(new Blob([JSON.stringify(over.record, null, 2) + '\n'], { type: 'application/json' })),
    [over],
  );
  useEffect(() => () => URL.revokeObjectURL(recordUrl), [recordUrl]);
  return html`<section class="game-over" aria-label="Game over">
    <h2>${gameOverTitle(game, over)}</h2>
    <${GameSummary} game=${game} over=${over} />
    <${SeriesScore} game=${game} />
    <${StandingsChart} game=${game} />
    <div class="row">
      <a class="button" href=${recordUrl} download=${`yaniv-game-seed-${over.seed}.json`}>Download the game record</a>
      ${onPlayAgain === null ? null : html`<button type="button" class="primary" onClick=${onPlayAgain}>Play again</button>`}
      <button type="button" onClick=${onNewGame}>New game…</button>
    </div>
    <details class="details">
      <summary>Details</summary>
      <p class="hint">
        The record is a yaniv-record/1 document: <code>npx yaniv replay FILE</code> replays and checks it, counting seats and rounds from 1
        as this page does. Inside the file they count from 0: its seat 0 is seat 1 here.
      </p>
    </details>
  </section>`;
}

/** The score table's `*` spelled out under it (a touch screen has no hover for its title). */
function adjustmentNotes(game: Game): string[] {
  return game.rounds.flatMap((r) =>
    r.adjustments.flatMap((note, seat) => (note === null ? [] : [`Round ${r.round}, ${seatName(game, seat)}: ${note}`])),
  );
}

export function ScoreTable({ game }: { readonly game: Game }) {
  const totals = currentTotals(game);
  const notes = adjustmentNotes(game);
  return html`<div class="scores-box">
    <${SeriesScore} game=${game} />
    <table class="scores">
      <caption>
        Scores
      </caption>
      <thead>
        <tr>
          <th scope="col">Round</th>
          ${game.info.seats.map(
            (s) =>
              html`<th scope="col" key=${s.seat} title=${seatName(game, s.seat)} aria-label=${seatName(game, s.seat)}>
                ${shortSeatName(game, s.seat)}
              </th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${game.rounds.map(
          (r) =>
            html`<tr key=${r.round}>
              <th scope="row">${r.round}</th>
              ${r.points.map(
                (points, seat) =>
                  html`<td key=${seat} class=${seat === r.winner ? 'winner' : ''} title=${r.adjustments[seat] ?? ''}>
                    ${points === null ? '—' : points}${r.adjustments[seat] ? '*' : ''}
                  </td>`,
              )}
            </tr>`,
        )}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          ${totals.map((total, seat) => html`<td key=${seat}>${total}</td>`)}
        </tr>
      </tfoot>
    </table>
    ${
      notes.length > 0
        ? html`<p class="hint scores-notes-title">* The total was changed by a rule after the round:</p>
            <ul class="hint scores-notes">
              ${notes.map((note) => html`<li key=${note}>${note}</li>`)}
            </ul>`
        : null
    }
  </div>`;
}
