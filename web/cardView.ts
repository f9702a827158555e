/** A card face (rank and suit symbol, red or black, the joker set apart) and a card back. */
import { cardFace } from './cards.js';
import { html } from './html.js';

export interface CardProps {
  readonly name: string;
  readonly small?: boolean;
}

/** A card shown, not played: an image with its words for screen readers. */
export function Card({ name, small = false }: CardProps) {
  const face = cardFace(name);
  return html`<span class=${cardClass(face.colour, small)} role="img" aria-label=${face.words} title=${face.words}>
    <${Face} name=${name} />
  </span>`;
}

/** The inside of a card: rank over suit. */
export function Face({ name }: { readonly name: string }) {
  const face = cardFace(name);
  return face.suit === null
    ? html`<span class="rank" aria-hidden="true">${face.symbol}</span><span class="suit joker-word" aria-hidden="true">Joker</span>`
    : html`<span class="rank" aria-hidden="true">${face.rankLabel}</span><span class="suit" aria-hidden="true">${face.symbol}</span>`;
}

export function cardClass(colour: string, small: boolean): string {
  return `card ${colour}${small ? ' small' : ''}`;
}

export function CardBacks({ count }: { readonly count: number }) {
  return html`<span class="backs" role="img" aria-label=${`${count} card${count === 1 ? '' : 's'}`}>
    ${Array.from({ length: count }, (_, i) => html`<span class="card back small" key=${i} aria-hidden="true"></span>`)}
  </span>`;
}
