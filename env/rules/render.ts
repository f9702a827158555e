/**
 * Text rendering of a position: from one seat's view (what that seat may know), or
 * omniscient (every hand and the deck) for debugging.
 */
import { formatCards } from './cards.js';
import { GROUP_TYPE_NAMES } from './groups.js';
import { type GameState, HAND_CAP, PHASE_NAMES, handValue } from './state.js';
import { type GroupView, type PlayerView, playerView } from './view.js';

function group(g: GroupView): string {
  return g.cards.length === 0 ? '(nothing left)' : `${formatCards(g.cards)} (${g.type})`;
}

function header(view: PlayerView): string[] {
  const r = view.rules;
  const mover =
    view.phase === 'turn' || view.phase === 'draw' || view.phase === 'afterDraw'
      ? `seat ${view.current} to move (${view.phase})`
      : view.phase;
  return [
    `Round ${view.round}, turn ${view.turn}: ${mover}`,
    `Rules: Yaniv at ≤ ${r.yanivThreshold}, Assaf ${r.assaf ? `+${r.assafPenalty}` : 'off'}, elimination above ${r.eliminationLimit}, ${r.decks} deck${r.decks > 1 ? 's' : ''} with ${r.jokersPerDeck} jokers each`,
    `Deck: ${view.deckSize} cards · pile: ${view.pile.length ? formatCards(view.pile) : '(empty)'}`,
    `Previous group: ${group(view.previous)}; may be taken: ${view.previous.pickable.length ? formatCards(view.previous.pickable) : '(none)'}`,
    ...(view.laid ? [`Laid this turn: ${group(view.laid)}${view.drawn !== null ? `; drew ${formatCards([view.drawn])}` : ''}`] : []),
  ];
}

function seatLine(view: PlayerView, seat: number, hand: string): string {
  const marks = [seat === view.seat ? 'you' : '', seat === view.current ? 'to move' : '', view.active[seat] ? '' : 'out']
    .filter(Boolean)
    .join(', ');
  return `  seat ${seat}${marks ? ` (${marks})` : ''}: total ${view.totals[seat]}, ${hand}`;
}

/** The position as `view.seat` sees it. */
export function renderView(view: PlayerView): string {
  const lines = header(view);
  for (let seat = 0; seat < view.players; seat++) {
    const known = view.known[seat].length ? `, known: ${formatCards(view.known[seat])}` : '';
    const hand =
      seat === view.seat
        ? `hand ${view.hand.length ? formatCards(view.hand) : '(empty)'} = ${view.handValue}`
        : `${view.handSizes[seat]} cards${known}`;
    lines.push(seatLine(view, seat, hand));
  }
  if (view.lastResult) lines.push(`Last round: ${view.lastResult.outcome}, winner seat ${view.lastResult.winner}`);
  if (view.winner !== null) lines.push(`Game over: seat ${view.winner} wins`);
  return lines.join('\n');
}

/** Everything, hidden cards included (debugging only: never show this to a player). */
export function renderState(s: GameState): string {
  const view = playerView(s, s.current);
  const lines = [`[omniscient] phase ${PHASE_NAMES[s.phase]}`, ...header(view)];
  for (let seat = 0; seat < s.players; seat++) {
    const cards = Array.from(s.hands.subarray(seat * HAND_CAP, seat * HAND_CAP + s.handLength[seat])).sort((a, b) => a - b);
    const known = view.known[seat].length ? `, known: ${formatCards(view.known[seat])}` : '';
    lines.push(
      `  seat ${seat}${seat === s.current ? ' (to move)' : ''}${s.active[seat] ? '' : ' (out)'}: total ${s.totals[seat]}, hand ${cards.length ? formatCards(cards) : '(empty)'} = ${handValue(s, seat)}${known}`,
    );
  }
  const deck = Array.from(s.deck.subarray(0, s.deckLength)).reverse();
  lines.push(`Deck, top first: ${deck.length ? formatCards(deck) : '(empty)'}`);
  if (s.laidLength > 0) lines.push(`Laid this turn (${GROUP_TYPE_NAMES[s.laidType]}): ${formatCards(s.laid.subarray(0, s.laidLength))}`);
  return lines.join('\n');
}
