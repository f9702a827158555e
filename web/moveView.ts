/** A move as the table shows it: its words with the cards drawn as the hand draws them. */
import { Card } from './cardView.js';
import { html } from './html.js';
import { MOVE_WORDS, type Move, type MoveWords, moveInWords } from './moveWords.js';

export function MoveView({ move, tense }: { readonly move: Move; readonly tense: keyof MoveWords }) {
  return html`<span class="move" role="img" aria-label=${moveInWords(move, tense)}>
    <span aria-hidden="true">${MOVE_WORDS[move.kind][tense]}</span>
    ${move.cards.map((name, i) => html`<${Card} key=${i} name=${name} small=${true} />`)}
  </span>`;
}
