/**
 * The round's plays in order, as the server told them (web/game.ts keeps them): who laid what,
 * who drew or took what, who called Yaniv — and, once the round is over, how it ended (Assaf
 * included). The newest play stays in sight at the bottom of its box.
 */
import { useEffect, useRef } from 'preact/hooks';
import { type Game, logEnded, seatName } from './game.js';
import { html } from './html.js';
import { MoveView } from './moveView.js';
import { outcomeText } from './results.js';

export function MoveLog({ game }: { readonly game: Game }) {
  const box = useRef<HTMLOListElement>(null);
  const ended = logEnded(game) ? game.rounds[game.rounds.length - 1] : null;
  const round = ended?.round ?? game.rounds.length + 1;
  useEffect(() => {
    if (box.current !== null) box.current.scrollTop = box.current.scrollHeight;
  }, [game.log.length, ended]);
  return html`<section class="move-log" aria-labelledby="log-title">
    <h2 id="log-title">Round ${round}: the plays</h2>
    <ol class="plays" ref=${box}>
      ${game.log.length === 0 ? html`<li class="hint">No plays yet.</li>` : null}
      ${game.log.map(
        (play) =>
          html`<li
            key=${play.counter}
            data-counter=${play.counter}
            data-actor=${play.actor}
            data-kind=${play.kind}
            data-cards=${play.cards.join(' ')}
          >
            <b>${seatName(game, play.actor)}</b> <${MoveView} move=${play} tense="done" />${play.timeout ? ' (out of time)' : ''}${
              play.reshuffled ? ' (the pile was shuffled into a new deck)' : ''
            }
          </li>`,
      )}
      ${ended ? html`<li class="outcome">${outcomeText(game, ended)}</li>` : null}
    </ol>
  </section>`;
}
