/**
 * Determinisation: from what one seat knows (its PlayerView), a complete state consistent
 * with all of it, the unknown cards dealt uniformly at random — what search agents
 * (Monte-Carlo rollouts, IS-MCTS) sample their worlds from.
 *
 * Fixed: the seat's own hand, the cards each opponent was seen taking from the pile (they
 * stay in that hand), the previous group, the group laid this turn, the pile, every count,
 * total and score. Sampled: the rest of each opponent's hand, the deck and its order, and
 * the PRNG of future reshuffles. Cards the decks hold that are nowhere in view (opponents'
 * unknown cards, the deck, and cards out of play in a record with a short deck) form one
 * pool; a uniform shuffle of it fills the unknown hand slots and then the deck.
 *
 * Samples condition on the view, not on inferences from past behaviour (for example that a
 * player passed on a quick discard it may have been offered); they are worlds the view cannot
 * tell apart.
 */
import { KIND_COUNT, cardsFromCounts } from './cards.js';
import { groupTypeOf } from './groups.js';
import { type Rng, randomInt, seededRng, shuffleInPlace } from './random.js';
import { type GameState, HAND_CAP, PHASE_AFTER_DRAW, PHASE_NAMES, type Phase, emptyState } from './state.js';
import { type PlayerView, unseenCounts } from './view.js';

/** A complete state that `playerView(state, view.seat)` maps back to `view` exactly. */
export function determinize(view: PlayerView, rng: Rng): GameState {
  const phase = PHASE_NAMES.indexOf(view.phase) as Phase;
  if (phase > PHASE_AFTER_DRAW) throw new RangeError(`determinize samples positions inside a round, not in phase ${view.phase}`);
  if (phase === PHASE_AFTER_DRAW && view.current !== view.seat) {
    throw new RangeError(
      `in the after-draw step only seat ${view.current}, who is to move, knows the card drawn; determinize from that seat`,
    );
  }
  const { seat, players, rules } = view;
  const s = emptyState(rules, players, seededRng(randomInt(rng, -0x80000000, 0x7fffffff)));
  s.phase = phase;
  s.current = view.current;
  s.round = view.round;
  s.turn = view.turn;
  s.dealer = view.dealer;
  s.starter = view.starter;
  s.nextStarter = view.starter;
  s.winner = -1;
  s.lastResult = view.lastResult;
  s.totals.set(view.totals);
  s.active.set(view.active.map(Number));
  s.yanivWins.set(view.yanivWins);

  const left = unseenCounts(view);
  view.hand.forEach((card, i) => {
    s.hands[seat * HAND_CAP + i] = card;
  });
  for (let p = 0; p < players; p++) {
    s.handLength[p] = view.handSizes[p];
    for (const card of view.known[p]) s.known[p * KIND_COUNT + card]++;
    if (p === seat) continue;
    if (view.known[p].length > view.handSizes[p])
      throw new RangeError(`the view is inconsistent: seat ${p} holds ${view.handSizes[p]} cards but ${view.known[p].length} are known`);
    view.known[p].forEach((card, i) => {
      s.hands[p * HAND_CAP + i] = card;
    });
  }
  placeGroups(s, view);
  view.pile.forEach((card, i) => {
    s.pile[i] = card;
  });
  s.pileLength = view.pile.length;

  const pool = cardsFromCounts(left);
  let needed = view.deckSize;
  for (let p = 0; p < players; p++) if (p !== seat) needed += view.handSizes[p] - view.known[p].length;
  if (pool.length < needed) throw new RangeError(`the view is inconsistent: ${needed} unknown cards but only ${pool.length} unseen`);
  shuffleInPlace(rng, pool);
  let next = 0;
  for (let p = 0; p < players; p++) {
    if (p === seat) continue;
    for (let i = view.known[p].length; i < view.handSizes[p]; i++) s.hands[p * HAND_CAP + i] = pool[next++];
  }
  for (let i = 0; i < view.deckSize; i++) s.deck[i] = pool[next++];
  s.deckLength = view.deckSize;
  return s;
}

function placeGroups(s: GameState, view: PlayerView): void {
  const previous = view.previous;
  previous.cards.forEach((card, i) => {
    s.prev[i] = card;
  });
  s.prevLength = previous.cards.length;
  s.prevType = groupTypeOf(previous.type);
  // The pickable cards in position order: the first unclaimed position holding each one.
  let mask = 0;
  let from = 0;
  for (const card of previous.pickable) {
    while (from < previous.cards.length && previous.cards[from] !== card) from++;
    mask |= 1 << from++;
  }
  s.prevPickable = mask;
  if (view.laid) {
    view.laid.cards.forEach((card, i) => {
      s.laid[i] = card;
    });
    s.laidLength = view.laid.cards.length;
    s.laidType = groupTypeOf(view.laid.type);
  }
  s.drawn = view.drawn ?? -1;
  s.drawnFromDeck = view.drawnFromDeck ?? false;
}
