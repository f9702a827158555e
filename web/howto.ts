/**
 * The How-to-play view (/rules.html, shown by the page's entry, web/main.ts): the rules of the standard game in a player's words
 * (docs/RULES.md is the precise text) first, then a checker below them — pick cards, see whether
 * they are a legal group and why (groupCheck.ts, the engine's own code).
 */
import { useState } from 'preact/hooks';
import { RANKS, SUITS } from '../env/rules/cards.js';
import { Card, Face, cardClass } from './cardView.js';
import { cardFace } from './cards.js';
import { checkGroup } from './groupCheck.js';
import { html } from './html.js';

const example = (...names: string[]) =>
  html`<span class="example">${names.map((n, i) => html`<${Card} key=${i} name=${n} small=${true} />`)}</span>`;

function Rules() {
  return html`<section class="howto-text">
    <h2>The aim</h2>
    <p>
      Keep the points in your hand low. When your hand is worth little enough, call <b>Yaniv</b> to end the round: if nobody holds as little
      as you, you score nothing and everyone else scores what they hold. Points add up over the rounds; a player whose total goes above 200
      is out, and the last one left wins.
    </p>
    <h2>What the cards are worth</h2>
    <p>
      Ace 1, number cards their number, jack, queen and king 10, joker 0. Everyone is dealt 5 cards; the rest is the deck, and its top card
      is turned up to start the pile. With <b>6 players or more</b> the game is played with <b>two decks</b> shuffled together, so every
      card (the jokers too) is there twice.
    </p>
    <h2>Your turn</h2>
    <p>
      Either call Yaniv (below), or <b>lay, then draw</b>: first lay one group of cards from your hand on the pile, then take one card — the
      top of the deck, or a card of the group the player before you just laid. You may not pass.
    </p>
    <h2>Groups you may lay</h2>
    <ul>
      <li><b>One card</b>, any card: ${example('KS')}</li>
      <li><b>A set</b>: two or more cards of one rank ${example('8H', '8D')}; a joker may stand in for one ${example('8H', 'JK')}.</li>
      <li>
        <b>A run</b>: three or more cards of one suit in a row ${example('4S', '5S', '6S')}; jokers may fill a gap or an end
        ${example('4S', 'JK', '6S')}. The ace is low only: ${example('AH', '2H', '3H')} is a run, queen-king-ace is not.
      </li>
    </ul>
    <p>Nothing else: not two cards of different ranks, not a run of mixed suits.</p>
    <h2>Taking from the group before yours</h2>
    <p>
      From a single card: that card. From a set: any of its cards. From a run: only a card at one of its ends (from
      ${example('4S', '5S', '6S')} the 4 or the 6). Older cards of the pile cannot be taken.
    </p>
    <h2>Calling Yaniv, and Assaf</h2>
    <p>
      At the start of your turn, with a hand worth 7 points or less, you may call Yaniv. Everyone shows their hand. If another player holds
      <b>as many points as you or fewer</b>, that is <b>Assaf</b>: you score your hand plus 30, and the player who caught you scores 0.
      Otherwise you score 0 and everyone else scores what they hold.
    </p>
    <h2>Totals and milestones</h2>
    <p>
      Each round's points are added to your total. A total that lands <b>exactly</b> on 50 drops to 25, and exactly on 100 drops to 50
      (passing them does nothing). Above 200 you are out.
    </p>
    <h2>House rules</h2>
    <p>
      Tables play many variants: a lower call (Yaniv at 5 points), no Assaf, other milestones, taking only the ends of a set, a quick
      discard or a slapdown after drawing… The new-game form lists every option with what it does, and the game page shows the rules of the
      table under <i>Rules</i>.
    </p>
  </section>`;
}

/** Every card a player may pick, suit by suit, then the joker. */
const PALETTE = [...SUITS.flatMap((suit) => RANKS.map((rank) => `${rank}${suit}`)), 'JK'];

function Checker() {
  const [picked, setPicked] = useState<readonly string[]>([]);
  const verdict = checkGroup(picked);
  return html`<section class="checker" aria-labelledby="checker-title">
    <h2 id="checker-title">Try it: is this a group?</h2>
    <p class="hint">Tap cards in the order you would lay them; tap a picked card to put it back.</p>
    <div class="checker-picked" aria-label="Your group">
      ${picked.length === 0 ? html`<span class="hint">No cards picked.</span>` : null}
      ${picked.map(
        (name, i) =>
          html`<button
            type="button"
            key=${`${name}-${i}`}
            class=${cardClass(cardFace(name).colour, false)}
            aria-label=${`put back ${cardFace(name).words}`}
            onClick=${() => setPicked(picked.filter((_, j) => j !== i))}
          >
            <${Face} name=${name} />
          </button>`,
      )}
    </div>
    <p class=${`verdict ${verdict.legal ? 'legal' : 'illegal'}`} role="status" aria-live="polite">${verdict.words}</p>
    <button type="button" onClick=${() => setPicked([])} disabled=${picked.length === 0}>Clear</button>
    <div class="palette" aria-label="Cards to pick">
      ${PALETTE.map(
        (name) =>
          html`<button
            type="button"
            key=${name}
            data-card=${name}
            class=${cardClass(cardFace(name).colour, true)}
            aria-label=${`pick ${cardFace(name).words}`}
            disabled=${picked.length >= 8}
            onClick=${() => setPicked([...picked, name])}
          >
            <${Face} name=${name} />
          </button>`,
      )}
    </div>
  </section>`;
}

/** The How-to-play view (web/main.ts shows it at /rules.html). */
export function HowToPlay() {
  return html`<header class="top">
      <h1>Yaniv</h1>
      <a class="button" href="/">Play</a>
    </header>
    <main class="howto">
      <h2>How to play</h2>
      <${Rules} />
      <${Checker} />
    </main>`;
}
