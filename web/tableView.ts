/**
 * The table: the opponents (cards held, cards known to be in their hands, totals, what each
 * just did), the previous group with its pickable cards, the deck and the pile, whose turn it
 * is, the player's hand and the moves on offer. Only legal moves are offered; a selection that
 * is no legal group is still sent, so that the server says why (see selection.ts).
 */
import { Card, CardBacks, Face, cardClass } from './cardView.js';
import { cardFace, cardsInWords, sortForDisplay } from './cards.js';
import { type Game, mySeat, seatName } from './game.js';
import { html } from './html.js';
import type { LegalAction, Msg } from './protocol.js';

export interface TableCommands {
  readonly pick: (index: number) => void;
  readonly discard: () => void;
  readonly deck: () => void;
  readonly take: (card: string) => void;
  readonly play: (action: LegalAction) => void;
}

interface TableProps {
  readonly game: Game;
  readonly state: Msg<'state'>;
  readonly selected: readonly number[];
  readonly advice: Msg<'advice'> | null;
  readonly busy: boolean;
  readonly commands: TableCommands;
}

export function TableView({ game, state, selected, advice, busy, commands }: TableProps) {
  const view = state.view;
  const me = mySeat(game);
  const myMove = state.toMove === me && !busy;
  const legal = myMove ? state.legal : [];
  const pick = advice?.pick ?? null;
  return html`<div class="table">
    <section class="opponents" aria-label="Opponents">
      ${view.handSizes.map((_, seat) => (seat === me ? null : html`<${Opponent} key=${seat} game=${game} state=${state} seat=${seat} />`))}
    </section>
    <section class="middle" aria-label="The table">
      <${PreviousGroup} state=${state} legal=${legal} pick=${pick} selection=${selected.length > 0} commands=${commands} />
      <div class="stock">
        <button
          type="button"
          class=${`deck${pick?.kind === 'draw' ? ' advised' : ''}`}
          disabled=${!canDrawFromDeck(view.phase, legal, selected.length)}
          onClick=${commands.deck}
          aria-keyshortcuts="D"
        >
          <span class="card back"></span>
          <span>Deck <b>${view.deckSize}</b></span>
        </button>
        <div class="pile" title=${view.pile.join(' ')}>Pile <b>${view.pile.length}</b></div>
      </div>
      ${
        view.laid && view.current === me
          ? html`<div class="laid" aria-label="You laid this turn">
              <span class="label">You laid</span>
              ${view.laid.cards.map((name, i) => html`<${Card} key=${i} name=${name} small=${true} />`)}
            </div>`
          : null
      }
    </section>
    <${Hand} state=${state} selected=${selected} pick=${pick} commands=${commands} />
    <${Moves} state=${state} legal=${legal} selected=${selected} pick=${pick} commands=${commands} />
  </div>`;
}

function canDrawFromDeck(phase: string, legal: readonly LegalAction[], selectedCount: number): boolean {
  if (phase === 'draw') return legal.some((l) => l.kind === 'draw');
  return phase === 'turn' && selectedCount > 0 && legal.some((l) => l.kind === 'discard');
}

function Opponent({ game, state, seat }: { readonly game: Game; readonly state: Msg<'state'>; readonly seat: number }) {
  const view = state.view;
  const out = view.active?.[seat] === false;
  const turn = game.turns[seat];
  const known = view.known[seat] ?? [];
  return html`<article
    class=${`seat${view.current === seat && state.toMove !== null ? ' current' : ''}${out ? ' out' : ''}`}
    aria-label=${seatName(game, seat)}
  >
    <h3>${seatName(game, seat)}${view.current === seat && state.toMove !== null ? html` <span class="turn-mark">to play</span>` : null}</h3>
    <div class="total">Total <b>${view.totals[seat]}</b>${out ? ' · out' : ''}</div>
    ${out ? null : html`<${CardBacks} count=${view.handSizes[seat]} />`}
    ${
      known.length > 0
        ? html`<div class="known">
            <span class="label">Known:</span>
            ${known.map((name, i) => html`<${Card} key=${i} name=${name} small=${true} />`)}
          </div>`
        : null
    }
    ${
      turn
        ? html`<p
            class="last-move fresh"
            key=${turn.counter}
            aria-label=${`${seatName(game, seat)} just played ${turn.steps.map((s) => s.text).join(', then ')}`}
          >
            ${turn.steps.map(
              (step, i) =>
                html`<span key=${i} class="step"
                  >${i > 0 ? ' · ' : ''}${step.text}${step.timeout ? ' (out of time)' : ''}${step.reshuffled ? ' (pile reshuffled)' : ''}</span
                >`,
            )}
          </p>`
        : html`<p class="last-move">—</p>`
    }
  </article>`;
}

interface PreviousProps {
  readonly state: Msg<'state'>;
  readonly legal: readonly LegalAction[];
  readonly pick: LegalAction | null;
  readonly selection: boolean;
  readonly commands: TableCommands;
}

function PreviousGroup({ state, legal, pick, selection, commands }: PreviousProps) {
  const previous = state.view.previous;
  const drawing = state.view.phase === 'draw';
  const laying = state.view.phase === 'turn' && selection && legal.some((l) => l.kind === 'discard');
  const takeable = (name: string) => (drawing ? legal.some((l) => l.kind === 'take' && l.cards[0] === name) : laying);
  return html`<div class="previous" aria-label="Previous group">
    <span class="label">Previous ${previous.type}</span>
    <div class="cards">
      ${previous.cards.length === 0 ? html`<span class="hint">(taken)</span>` : null}
      ${previous.cards.map((name, i) => {
        const pickable = previous.pickable.includes(name);
        const face = cardFace(name);
        if (!pickable) return html`<${Card} key=${i} name=${name} />`;
        const advised = pick?.kind === 'take' && pick.cards[0] === name;
        return html`<button
          type="button"
          key=${i}
          class=${`${cardClass(face.colour, false)} pickable${advised ? ' advised' : ''}`}
          disabled=${!takeable(name)}
          aria-label=${`take ${face.words}`}
          onClick=${() => commands.take(name)}
        >
          <${Face} name=${name} />
        </button>`;
      })}
    </div>
  </div>`;
}

interface HandProps {
  readonly state: Msg<'state'>;
  readonly selected: readonly number[];
  readonly pick: LegalAction | null;
  readonly commands: TableCommands;
}

function Hand({ state, selected, pick, commands }: HandProps) {
  const view = state.view;
  const hand = sortForDisplay(view.hand);
  const advised = pick?.kind === 'discard' ? advisedIndices(hand, pick.cards) : new Set<number>();
  const known = view.known[view.seat] ?? [];
  return html`<section class="hand" aria-label="Your hand">
    <h2>
      Your hand <span class="value">${view.handValue ?? ''} points</span> <span class="total">· total ${view.totals[view.seat]}</span>
    </h2>
    <div class="cards" role="group" aria-label="Pick cards to lay">
      ${hand.map((name, i) => {
        const face = cardFace(name);
        const order = selected.indexOf(i);
        return html`<button
          type="button"
          key=${`${name}-${i}`}
          data-card=${name}
          data-index=${i}
          class=${`${cardClass(face.colour, false)}${order >= 0 ? ' selected' : ''}${advised.has(i) ? ' advised' : ''}${name === view.drawn ? ' drawn' : ''}`}
          aria-pressed=${order >= 0 ? 'true' : 'false'}
          aria-label=${`${face.words}, key ${i + 1}`}
          aria-keyshortcuts=${String(i + 1)}
          onClick=${() => commands.pick(i)}
        >
          <span class="key" aria-hidden="true">${i + 1}</span>
          <${Face} name=${name} />
        </button>`;
      })}
    </div>
    ${known.length > 0 ? html`<p class="hint">The others saw you take ${cardsInWords(known)}.</p>` : null}
  </section>`;
}

/** The displayed positions of the advised cards (equal cards: the first ones). */
function advisedIndices(hand: readonly string[], cards: readonly string[]): Set<number> {
  const marked = new Set<number>();
  for (const card of cards) {
    const index = hand.findIndex((name, i) => name === card && !marked.has(i));
    if (index >= 0) marked.add(index);
  }
  return marked;
}

interface MovesProps {
  readonly state: Msg<'state'>;
  readonly legal: readonly LegalAction[];
  readonly selected: readonly number[];
  readonly pick: LegalAction | null;
  readonly commands: TableCommands;
}

const OFFER_KEYS: Partial<Record<LegalAction['kind'], string>> = { quick: 'Q', slapdown: 'S', pass: 'P' };

function Moves({ state, legal, selected, pick, commands }: MovesProps) {
  const yaniv = legal.find((l) => l.kind === 'yaniv');
  const offers = state.view.phase === 'afterDraw' ? legal : [];
  const canLay = state.view.phase === 'turn' && legal.some((l) => l.kind === 'discard');
  return html`<div class="moves" role="toolbar" aria-label="Moves">
    <button
      type="button"
      class="primary"
      disabled=${!canLay || selected.length === 0}
      onClick=${commands.discard}
      aria-keyshortcuts="Enter"
    >
      Lay ${selected.length > 0 ? `${selected.length} card${selected.length === 1 ? '' : 's'}` : 'cards'} <kbd>Enter</kbd>
    </button>
    <button
      type="button"
      class=${`yaniv${pick?.kind === 'yaniv' ? ' advised' : ''}`}
      disabled=${yaniv === undefined}
      onClick=${() => yaniv && commands.play(yaniv)}
      aria-keyshortcuts="Y"
    >
      Yaniv! <kbd>Y</kbd>
    </button>
    ${offers.map(
      (offer) =>
        html`<button
          type="button"
          key=${offer.action}
          class=${`offer${pick?.action === offer.action ? ' advised' : ''}`}
          onClick=${() => commands.play(offer)}
          aria-keyshortcuts=${OFFER_KEYS[offer.kind]}
        >
          ${offer.text} <kbd>${OFFER_KEYS[offer.kind]}</kbd>
        </button>`,
    )}
  </div>`;
}
