/**
 * What just happened, in one short line over the table: the latest turn ("Dana laid 7♠ 7♦ and
 * took 3♣") or, once a round is over, how it ended ("Strong bot (seat 2) called Yaniv with 4:
 * Assaf! You had 3."). The words are the move log's (moveWords.ts, results.ts outcomeText);
 * screen readers hear it politely as it changes, with the cards in words.
 */
import { type Game, logEnded, seatName } from './game.js';
import { html } from './html.js';
import { type Move, type MoveWords, moveInGlyphs, moveInWords } from './moveWords.js';
import { outcomeText } from './results.js';

type Spell = (move: Move, tense: keyof MoveWords) => string;

/** The line, its cards spelt by `spell` (glyphs to read, words to hear); null before anything was played. */
export function whatHappened(game: Game, spell: Spell = moveInGlyphs): string | null {
  if (logEnded(game)) return outcomeText(game, game.rounds[game.rounds.length - 1]);
  const last = game.log[game.log.length - 1];
  if (last === undefined) return null;
  const turn = game.turns[last.actor];
  const steps = turn !== null && turn !== undefined && turn.steps.includes(last) ? turn.steps : [last];
  const done = steps.map((step) => `${spell(step, 'done')}${step.timeout ? ' (out of time)' : ''}`);
  return `${seatName(game, last.actor)} ${done.join(' and ')}.`;
}

export function WhatHappened({ game }: { readonly game: Game }) {
  const seen = whatHappened(game);
  return html`<p class="happened" aria-live="polite">
    <span aria-hidden="true">${seen ?? ' '}</span><span class="sr-only">${whatHappened(game, moveInWords) ?? ''}</span>
  </p>`;
}
