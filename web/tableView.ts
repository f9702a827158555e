/**
 * The table: the opponents (cards held, cards known to be in their hands, totals, what each
 * just did), the previous group with its pickable cards, the deck and the pile, whose turn it
 * is, the player's hand and the moves on offer. Only legal moves are offered; a selection that
 * is no legal group is still sent, so that the server says why (see selection.ts).
 */
import { useRef } from 'preact/hooks';
import { Card, CardBacks, Face, cardClass } from './cardView.js';
import { cardFace, cardsInWords, sortForDisplay } from './cards.js';
import { AdviceLine } from './advisor.js';
import { botName } from './blurbs.js';
import { type Game, currentTotals, mySeat, previousLayer, seatName, standingIn } from './game.js';
import { useFlights } from './flights.js';
import { MoveView } from './moveView.js';
import { html } from './html.js';
import { type Intent, isCall } from './intents.js';
import type { LegalAction, Msg } from '../client/protocol.js';

/** Clicks go where keys go: to the session's `dispatch` (intents.ts decides what they mean). */
type Dispatch = (intent: Intent) => void;

interface TableProps {
  readonly game: Game;
  readonly state: Msg<'state'>;
  readonly selected: readonly number[];
  readonly advice: Msg<'advice'> | null;
  readonly busy: boolean;
  /** A refused move or what to do next, shown beside the hand. */
  readonly notice: string | null;
  /** The card of the previous group chosen with T. */
  readonly takeChoice: string | null;
  readonly dispatch: Dispatch;
}

export function TableView({ game, state, selected, advice, busy, notice, takeChoice, dispatch }: TableProps) {
  const view = state.view;
  const me = mySeat(game);
  // Once the game is over nobody is to play: the last state's offers are not live.
  const myMove = state.toMove === me && !busy && game.over === null;
  const legal = myMove ? state.legal : [];
  const pick = advice?.pick ?? null;
  const crowded = view.handSizes.length > 4;
  // The turn marker does not flicker while a move is on its way (busy).
  const yourTurn = state.toMove === me && state.legal.length > 0 && game.over === null;
  const root = useRef<HTMLDivElement>(null);
  useFlights(game, root);
  return html`<div class="table" ref=${root}>
    <section class=${`opponents${crowded ? ' crowded' : ''}`} aria-label="Opponents">
      ${view.handSizes.map((_, seat) => (seat === me ? null : html`<${Opponent} key=${seat} game=${game} state=${state} seat=${seat} />`))}
    </section>
    <section class="middle" aria-label="The table">
      <${PreviousGroup}
        state=${state}
        layer=${previousLayer(game, view.current)}
        game=${game}
        legal=${legal}
        pick=${pick}
        selection=${selected.length > 0}
        chosen=${takeChoice}
        dispatch=${dispatch}
      />
      <div class="stock">
        <button
          type="button"
          class=${`deck${pick?.kind === 'draw' ? ' advised' : ''}`}
          disabled=${!canDrawFromDeck(view.phase, legal, selected.length)}
          onClick=${() => dispatch({ type: 'draw' })}
          aria-keyshortcuts="D"
        >
          <span class="card back"></span>
          <span>Deck <b>${view.deckSize}</b></span>
        </button>
        <div class="pile" title=${view.pile.join(' ')}>Pile <b>${view.pile.length}</b></div>
      </div>
      ${
        view.laid
          ? html`<div class="laid fresh">
              <span class="label">${seatName(game, view.current)} laid</span>
              ${view.laid.cards.map((name, i) => html`<${Card} key=${i} name=${name} small=${true} />`)}
            </div>`
          : null
      }
    </section>
    <div class=${`dock${yourTurn ? ' my-turn' : ''}`}>
      ${notice === null ? null : html`<p class="notice hand-notice" role="alert">${notice}</p>`}
      <${Hand} state=${state} selected=${selected} pick=${pick} myMove=${yourTurn} dispatch=${dispatch} />
      <${Moves} state=${state} legal=${legal} selected=${selected} pick=${pick} dispatch=${dispatch} />
      ${advice !== null && myMove ? html`<${AdviceLine} advice=${advice} />` : null}
    </div>
  </div>`;
}

/** A tile's name where space is short (phones): a friend's name, else the seat and the bot's kind. */
function shortName(game: Game, seat: number): string {
  const info = game.info.seats[seat];
  if (info?.player === 'guest' && info.name !== undefined) return info.name;
  return `#${seat + 1} ${info?.player === 'bot' ? botName(info.agent ?? 'bot').replace(/ bot$/, '') : seatName(game, seat)}`;
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
  const toPlay = view.current === seat && state.toMove !== null && game.over === null;
  const name = seatName(game, seat);
  return html`<article class=${`seat${toPlay ? ' current' : ''}${out ? ' out' : ''}`} aria-label=${name} data-seat=${seat}>
    <h3 title=${name}>
      <span class="name"
        ><span class="long-name">${name}</span><span class="short-name" aria-hidden="true">${shortName(game, seat)}</span></span
      >${toPlay ? html`<span class="turn-mark">to play</span>` : null}
    </h3>
    ${standingIn(game, seat) ? html`<p class="away hint">Away: a bot plays for them</p>` : null}
    <div class="total">
      Total <b>${currentTotals(game)[seat]}</b>${out ? ' · out' : html`<span class="count"> · ${view.handSizes[seat]} cards</span>`}
    </div>
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
        ? html`<p class="last-move fresh" key=${turn.counter}>
            ${turn.steps.map(
              (step, i) =>
                html`<span key=${i} class="step">
                  <${MoveView} move=${step} tense="done" />${step.timeout ? ' (out of time)' : ''}${
                    step.reshuffled ? ' (pile reshuffled)' : ''
                  }</span
                >`,
            )}
          </p>`
        : html`<p class="last-move">—</p>`
    }
  </article>`;
}

interface PreviousProps {
  readonly game: Game;
  readonly state: Msg<'state'>;
  readonly layer: ReturnType<typeof previousLayer>;
  readonly legal: readonly LegalAction[];
  readonly pick: LegalAction | null;
  readonly selection: boolean;
  readonly chosen: string | null;
  readonly dispatch: Dispatch;
}

function PreviousGroup({ game, state, layer, legal, pick, selection, chosen, dispatch }: PreviousProps) {
  const previous = state.view.previous;
  const drawing = state.view.phase === 'draw';
  const laying = state.view.phase === 'turn' && selection && legal.some((l) => l.kind === 'discard');
  const takeable = (name: string) => (drawing ? legal.some((l) => l.kind === 'take' && l.cards[0] === name) : laying);
  return html`<div class="previous fresh" aria-label="Previous group" key=${layer?.counter ?? 'dealt'}>
    <span class="label">Previous ${previous.type}${layer === null ? '' : ` · laid by ${seatName(game, layer.seat)}`}</span>
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
          class=${`${cardClass(face.colour, false)} pickable${advised ? ' advised' : ''}${chosen === name ? ' chosen' : ''}`}
          disabled=${!takeable(name)}
          aria-label=${`take ${face.words}`}
          onClick=${() => dispatch({ type: 'take', card: name })}
        >
          <${Face} name=${name} />
        </button>`;
      })}
    </div>
    ${chosen === null ? null : html`<p class="hint take-hint">Chosen: take ${cardFace(chosen).words}? <kbd>Enter</kbd> takes it, <kbd>T</kbd> the next.</p>`}
  </div>`;
}

interface HandProps {
  readonly state: Msg<'state'>;
  readonly selected: readonly number[];
  readonly pick: LegalAction | null;
  /** The player is to move: the hand says "Your turn". */
  readonly myMove: boolean;
  readonly dispatch: Dispatch;
}

function Hand({ state, selected, pick, myMove, dispatch }: HandProps) {
  const view = state.view;
  const hand = sortForDisplay(view.hand);
  const advised = pick?.kind === 'discard' ? advisedIndices(hand, pick.cards) : new Set<number>();
  const known = view.known[view.seat] ?? [];
  return html`<section class="hand" aria-label="Your hand">
    <h2>
      ${myMove ? html`<span class="your-turn-mark">Your turn</span>${' '}` : null}${'Your hand '}<span class="value"
        >${view.handValue ?? ''} points</span
      >${' '}<span class="total">· total ${view.totals[view.seat]}</span>
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
          onClick=${() => dispatch({ type: 'pick', index: i })}
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
  readonly dispatch: Dispatch;
}

const OFFER_KEYS: Partial<Record<LegalAction['kind'], string>> = { quick: 'Q', slapdown: 'S', pass: 'P' };

function Moves({ state, legal, selected, pick, dispatch }: MovesProps) {
  const yaniv = legal.find((l) => l.kind === 'yaniv');
  const offers = state.view.phase === 'afterDraw' ? legal.filter(isCall) : [];
  const canLay = state.view.phase === 'turn' && legal.some((l) => l.kind === 'discard');
  return html`<div class="moves" role="toolbar" aria-label="Moves">
    <button
      type="button"
      class="primary"
      disabled=${!canLay || selected.length === 0}
      onClick=${() => dispatch({ type: 'lay' })}
      aria-keyshortcuts="Enter"
    >
      Lay ${selected.length > 0 ? `${selected.length} card${selected.length === 1 ? '' : 's'}` : 'cards'} <kbd>Enter</kbd>
    </button>
    <button
      type="button"
      class=${`yaniv${pick?.kind === 'yaniv' ? ' advised' : ''}`}
      disabled=${yaniv === undefined}
      onClick=${() => dispatch({ type: 'call', kind: 'yaniv' })}
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
          data-action=${offer.action}
          onClick=${() => dispatch({ type: 'call', kind: offer.kind })}
          aria-keyshortcuts=${OFFER_KEYS[offer.kind]}
        >
          <${MoveView} move=${offer} tense="suggest" /> <kbd>${OFFER_KEYS[offer.kind]}</kbd>
        </button>`,
    )}
  </div>`;
}
