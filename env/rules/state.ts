/**
 * The game state: typed arrays with fixed shapes, owned by the rules core (engine.ts).
 * Everything else reads it; only the core's transitions write it.
 */
import { type Card, KIND_COUNT, deckComposition, valueTable } from './cards.js';
import { GROUP_CAP, type GroupType, SINGLE } from './groups.js';
import { type Rng, rngFromState } from './random.js';
import type { Rules } from './rules.js';

export const HAND_CAP = 8;

export const PHASE_TURN = 0;
export const PHASE_DRAW = 1;
export const PHASE_AFTER_DRAW = 2;
export const PHASE_BETWEEN_ROUNDS = 3;
export const PHASE_GAME_OVER = 4;
export type Phase = typeof PHASE_TURN | typeof PHASE_DRAW | typeof PHASE_AFTER_DRAW | typeof PHASE_BETWEEN_ROUNDS | typeof PHASE_GAME_OVER;
export const PHASE_NAMES = ['turn', 'draw', 'afterDraw', 'betweenRounds', 'gameOver'] as const;

/** Whether no round is under way: between rounds, or the game is over. */
export function isRoundOver(s: { phase: Phase }): boolean {
  return s.phase === PHASE_BETWEEN_ROUNDS || s.phase === PHASE_GAME_OVER;
}
export type PhaseName = (typeof PHASE_NAMES)[number];

export type Outcome = 'yaniv' | 'assaf' | 'slapdown' | 'exhausted';

/** How a round ended (RECORD.md, "Replay result"). Arrays are indexed by seat. */
export interface RoundResult {
  readonly outcome: Outcome;
  readonly caller: number | null;
  readonly handValues: readonly (number | null)[];
  readonly points: readonly (number | null)[];
  readonly totals: readonly number[];
  readonly eliminated: readonly number[];
  readonly winner: number;
}

export interface GameState {
  readonly rules: Rules;
  readonly players: number;
  /** Point value of each card kind under these rules (shared by every state under the same rules: never written). */
  readonly values: Uint8Array;
  /** How many of each kind the decks hold (shared like `values`). */
  readonly composition: Uint8Array;
  rng: Rng;
  phase: Phase;

  readonly totals: Int32Array;
  /** 1 while the seat is in the game. */
  readonly active: Uint8Array;
  /** Successful Yaniv calls (slapdowns included) per seat, for gameEnd "yanivCount". */
  readonly yanivWins: Int32Array;
  /** Rounds dealt so far. */
  round: number;
  dealer: number;
  starter: number;
  /** The seat that starts the next round, settled at each showdown. */
  nextStarter: number;
  /** The game's winner, -1 while it goes on. */
  winner: number;
  lastResult: RoundResult | null;

  current: number;
  /** Turns completed in this round. */
  turn: number;
  /** Seat s holds `hands[s*HAND_CAP .. +handLength[s]]`. */
  readonly hands: Uint8Array;
  readonly handLength: Uint8Array;
  /** The face-down deck; its top is `deck[deckLength-1]`. */
  readonly deck: Uint8Array;
  deckLength: number;
  /** Discards out of reach (older than the previous group): what a reshuffle takes. */
  readonly pile: Uint8Array;
  pileLength: number;
  /** The group the previous player laid (what is left of it): the current player may take from it. */
  readonly prev: Uint8Array;
  prevLength: number;
  prevType: GroupType;
  /** Bit i: prev[i] may be taken. */
  prevPickable: number;
  /** The group the current player laid this turn. */
  readonly laid: Uint8Array;
  laidLength: number;
  laidType: GroupType;
  /** The card drawn this turn, -1 before the draw. */
  drawn: number;
  drawnFromDeck: boolean;
  /** `known[s*KIND_COUNT + k]`: copies of kind k that seat s took from the pile in view of all and still holds. */
  readonly known: Uint8Array;
}

export function totalCards(composition: Uint8Array): number {
  return composition.reduce((a, b) => a + b, 0);
}

/** The read-only tables a rule set implies, shared by every state played under it. */
const tablesByRules = new WeakMap<Rules, { values: Uint8Array; composition: Uint8Array }>();

/** Card values and deck composition of a rule set: one shared, read-only copy per `Rules` object. */
export function ruleTables(rules: Rules): { values: Uint8Array; composition: Uint8Array } {
  let tables = tablesByRules.get(rules);
  if (!tables) {
    tables = { values: valueTable(rules.jackValue), composition: deckComposition(rules.decks, rules.jokersPerDeck) };
    tablesByRules.set(rules, tables);
  }
  return tables;
}

/** Keys of the state that hold a typed array. */
type ArrayKey = { [K in keyof GameState]: GameState[K] extends Uint8Array | Int32Array ? K : never }[keyof GameState];

/** The arrays a state owns, never shared with another state (`values` and `composition` are the shared rule tables). */
export type StateArrayKey = Exclude<ArrayKey, 'values' | 'composition'>;

/**
 * How to make each array a state owns, from the table size and the cards in the decks: the one
 * list that creating, copying and packing states go by. A key of GameState holding a typed
 * array and missing here fails to compile. Listed in the order a step reads them first.
 */
const STATE_ARRAY_MAKERS: { readonly [K in StateArrayKey]: (players: number, cards: number) => GameState[K] } = {
  hands: (players) => new Uint8Array(players * HAND_CAP),
  handLength: (players) => new Uint8Array(players),
  known: (players) => new Uint8Array(players * KIND_COUNT),
  prev: () => new Uint8Array(GROUP_CAP),
  laid: () => new Uint8Array(GROUP_CAP),
  totals: (players) => new Int32Array(players),
  yanivWins: (players) => new Int32Array(players),
  active: (players) => new Uint8Array(players).fill(1),
  pile: (_, cards) => new Uint8Array(cards),
  deck: (_, cards) => new Uint8Array(cards),
};

export const STATE_ARRAYS = Object.keys(STATE_ARRAY_MAKERS) as readonly StateArrayKey[];

/** A state before the first deal. */
export function emptyState(rules: Rules, players: number, rng: Rng): GameState {
  const { values, composition } = ruleTables(rules);
  const cards = totalCards(composition);
  const s = {
    rules,
    players,
    values,
    composition,
    rng,
    phase: PHASE_BETWEEN_ROUNDS,
    round: 0,
    dealer: players - 1,
    starter: 0,
    nextStarter: 0,
    winner: -1,
    lastResult: null,
    current: 0,
    turn: 0,
    deckLength: 0,
    pileLength: 0,
    prevLength: 0,
    prevType: SINGLE,
    prevPickable: 0,
    laidLength: 0,
    laidType: SINGLE,
    drawn: -1,
    drawnFromDeck: false,
  } as GameState;
  const arrays = s as Record<StateArrayKey, Uint8Array | Int32Array>;
  for (const key of STATE_ARRAYS) arrays[key] = STATE_ARRAY_MAKERS[key](players, cards);
  return s;
}

/** An independent copy: transitions on it leave the original untouched. */
export function cloneState(s: GameState): GameState {
  const copy = { ...s, rng: rngFromState(s.rng.getState()) };
  const arrays = copy as Record<StateArrayKey, Uint8Array | Int32Array>;
  for (const key of STATE_ARRAYS) arrays[key] = s[key].slice();
  return copy;
}

export function handOf(s: GameState, seat: number): Uint8Array {
  return s.hands.subarray(seat * HAND_CAP, seat * HAND_CAP + s.handLength[seat]);
}

/** The deck's cards from the top down (the order records list). */
export function deckTopFirst(s: GameState): Card[] {
  return Array.from(s.deck.subarray(0, s.deckLength)).reverse();
}

export function handValue(s: GameState, seat: number): number {
  let sum = 0;
  const base = seat * HAND_CAP;
  for (let i = 0; i < s.handLength[seat]; i++) sum += s.values[s.hands[base + i]];
  return sum;
}

/** Active seats in clockwise order starting after `seat` (and ending with it, if active). */
export function activeSeatsAfter(s: GameState, seat: number): number[] {
  const seats: number[] = [];
  for (let i = 1; i <= s.players; i++) {
    const t = (seat + i) % s.players;
    if (s.active[t]) seats.push(t);
  }
  return seats;
}

/** The next active seat clockwise after `seat`. */
export function nextActive(s: GameState, seat: number): number {
  for (let i = 1; i <= s.players; i++) {
    const t = (seat + i) % s.players;
    if (s.active[t]) return t;
  }
  return seat;
}

/** The active seat before `seat`, counter-clockwise. */
export function previousActive(s: GameState, seat: number): number {
  for (let i = 1; i <= s.players; i++) {
    const t = (seat - i + s.players) % s.players;
    if (s.active[t]) return t;
  }
  return seat;
}

export function activeCount(s: GameState): number {
  let n = 0;
  for (let i = 0; i < s.players; i++) n += s.active[i];
  return n;
}
