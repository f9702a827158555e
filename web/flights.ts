/**
 * Move animations: a laid card travels from the player to the pile, a drawn card from the deck
 * (or the previous group) to the hand that took it — the player's own, face up, or an opponent's
 * tile, face down unless the card is known. Decoration only: the table shows the new state at
 * once and a flight is drawn over it (`pointer-events: none`, removed when it lands), so it never
 * delays a click, a key or a state. Nothing flies under `prefers-reduced-motion: reduce`.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { cardFace } from './cards.js';
import { cardClass } from './cardView.js';
import { type Game, mySeat } from './game.js';
import type { Msg } from '../client/protocol.js';

/** The id every flight's animation carries (document.getAnimations() tells them apart by it). */
export const FLIGHT = 'flight';
const FLIGHT_MS = 450;
/** At most this many plays fly at once (instant bots play several between two renders). */
const MAX_FLIGHTS = 3;

/** Where a play's cards fly: from and to, each a list of selectors tried in turn; null for a play with no cards moving. */
export function routeOf(play: Pick<Msg<'event'>, 'kind' | 'actor'>, me: number): { from: string[]; to: string[] } | null {
  const seat = play.actor === me ? ['.hand .cards'] : [`.seat[data-seat="${play.actor}"]`];
  const pile = ['.laid', '.previous .cards', '.pile'];
  switch (play.kind) {
    case 'discard':
    case 'quick':
    case 'slapdown':
      return { from: seat, to: pile };
    case 'draw':
      return { from: ['.deck'], to: seat };
    case 'take':
      return { from: ['.previous .cards', '.pile'], to: seat };
    default:
      return null;
  }
}

export function reducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

/** Flies the plays told since the last render (none on the first render of a table: a reload replays nothing). */
export function useFlights(game: Game, root: { readonly current: HTMLElement | null }): void {
  const seen = useRef<{ table: string; counter: number } | null>(null);
  useLayoutEffect(() => {
    const last = game.log[game.log.length - 1]?.counter ?? -1;
    const before = seen.current?.table === game.info.table ? seen.current.counter : null;
    seen.current = { table: game.info.table, counter: Math.max(last, before ?? -1) };
    if (before === null || root.current === null || reducedMotion()) return;
    const me = mySeat(game);
    for (const play of game.log.filter((p) => p.counter > before).slice(-MAX_FLIGHTS)) fly(root.current, play, me);
  }, [game.log, game.info.table]);
}

function find(root: HTMLElement, selectors: readonly string[]): DOMRect | null {
  for (const selector of selectors) {
    const element = root.querySelector(selector);
    if (element !== null) return element.getBoundingClientRect();
  }
  return null;
}

function fly(root: HTMLElement, play: Msg<'event'>, me: number): void {
  const route = routeOf(play, me);
  const from = route && find(root, route.from);
  const to = route && find(root, route.to);
  if (from === null || to === null || typeof document.body.animate !== 'function') return;
  const flight = flightOf(play.cards);
  document.body.append(flight);
  const box = flight.getBoundingClientRect();
  const start = { x: from.left + from.width / 2 - box.width / 2, y: from.top + from.height / 2 - box.height / 2 };
  const end = { x: to.left + to.width / 2 - box.width / 2, y: to.top + to.height / 2 - box.height / 2 };
  flight.style.left = `${start.x}px`;
  flight.style.top = `${start.y}px`;
  const animation = flight.animate(
    [
      { transform: 'translate(0, 0) scale(1)', opacity: 1 },
      { transform: `translate(${end.x - start.x}px, ${end.y - start.y}px) scale(0.9)`, opacity: 0.85 },
    ],
    { duration: FLIGHT_MS, easing: 'ease-in-out', id: FLIGHT },
  );
  animation.onfinish = animation.oncancel = () => flight.remove();
}

/** The cards in flight, as the table draws them (a hidden card as a back). */
function flightOf(cards: readonly string[]): HTMLElement {
  const flight = document.createElement('div');
  flight.className = 'flight';
  flight.setAttribute('aria-hidden', 'true');
  for (const name of cards.length === 0 ? [null] : cards) {
    const card = document.createElement('span');
    if (name === null) card.className = 'card back small';
    else {
      const face = cardFace(name);
      card.className = cardClass(face.colour, true);
      const rank = document.createElement('span');
      rank.className = 'rank';
      rank.textContent = face.suit === null ? face.symbol : face.rankLabel;
      const suit = document.createElement('span');
      suit.className = 'suit';
      suit.textContent = face.suit === null ? 'Joker' : face.symbol;
      card.append(rank, suit);
    }
    flight.append(card);
  }
  return flight;
}
