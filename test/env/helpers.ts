// Positions written the way people write Yaniv: cards as strings, deals as objects, whole
// turns as one line ("AS 2S 3S / deck", "9C 9D / 3S", "4S 5S 6S / deck +quick", "yaniv").
import {
  type Card,
  DiscardList,
  type GameState,
  PHASE_BETWEEN_ROUNDS,
  type RoundResult,
  type RuleOptionsInput,
  type TurnMove,
  cardName,
  handOf,
  legalDiscards,
  legalTurns,
  newGame,
  parseCard,
  pickableCards,
  playTurn,
  resolveRules,
  startRound,
  turnError,
} from '../../env/index.js';

/** One card by name; throws on a typo so that a test never silently uses the wrong card. */
export function card(name: string): Card {
  const c = parseCard(name);
  if (c === undefined) throw new Error(`test typo: ${JSON.stringify(name)} is not a card`);
  return c;
}

/** `"AS 2S 3S"` or `["AS", "2S", "3S"]` → cards, in the order written. */
export function cards(text: string | readonly string[]): Card[] {
  const list = typeof text === 'string' ? text.split(/\s+/).filter(Boolean) : text;
  return list.map(card);
}

/** Card names in order, `"AS 2S 3S"`. */
export function text(list: ArrayLike<Card>): string {
  return Array.from(list, cardName).join(' ');
}

/** A seat's hand as sorted names (kind order: suits S H D C, then ranks, jokers last). */
export function handText(s: GameState, seat: number): string {
  return text(Array.from(handOf(s, seat)).sort((a, b) => a - b));
}

export interface DealTable {
  preset?: string;
  rules?: RuleOptionsInput;
  /** Defaults to the number of hands in the deal. */
  players?: number;
  /** Totals before this round. */
  totals?: number[];
  seed?: number;
}

export interface DealText {
  /** One hand per seat, or null for a seat out of the game. */
  hands: (string | readonly string[] | null)[];
  /** The turned-up card. */
  discard: string;
  /** The deck, top first. */
  deck?: string | readonly string[];
  starter?: number;
}

/** A game in its first round, dealt exactly as written. Seats with a null hand are out of the game. */
export function game(deal: DealText, table: DealTable = {}): GameState {
  const players = table.players ?? deal.hands.length;
  const rules = resolveRules({ preset: table.preset, rules: table.rules ?? {}, players });
  const s = newGame({ rules, players, seed: table.seed ?? 1, startTotals: table.totals });
  deal.hands.forEach((hand, seat) => {
    if (hand === null) s.active[seat] = 0;
  });
  return redeal(s, deal);
}

/** Deals the next round of a game that is between rounds, exactly as written. */
export function redeal(s: GameState, deal: DealText): GameState {
  if (s.phase !== PHASE_BETWEEN_ROUNDS) throw new Error('test setup: the round is not over');
  startRound(s, {
    hands: deal.hands.map((hand) => (hand === null ? null : cards(hand))),
    discard: card(deal.discard),
    deck: cards(deal.deck ?? []),
    ...(deal.starter === undefined ? {} : { starter: deal.starter }),
  });
  return s;
}

/** `"AS 2S 3S / deck"`, `"9C 9D / 3S"`, `"4S 5S 6S / deck +quick"`, `"KH / deck +slapdown"`, `"yaniv"`. */
export function turn(line: string): TurnMove {
  const trimmed = line.trim();
  if (/^yaniv$/i.test(trimmed)) return { yaniv: true };
  const match = /^(.+?)\s*\/\s*(\S+)\s*(\+quick|\+slapdown)?\s*(\+quick|\+slapdown)?$/.exec(trimmed);
  if (!match) throw new Error(`test typo: ${JSON.stringify(line)} is not a turn`);
  const [, laid, draw, extra1, extra2] = match;
  const extras = [extra1, extra2].filter(Boolean);
  return {
    discard: laid === '-' ? [] : cards(laid),
    draw: draw.toLowerCase() === 'deck' ? 'deck' : card(draw),
    ...(extras.includes('+quick') ? { quick: true } : {}),
    ...(extras.includes('+slapdown') ? { slapdown: true } : {}),
  };
}

/** Plays whole turns in order and returns the new state (the given one is untouched). */
export function play(s: GameState, ...lines: string[]): GameState {
  let state = s;
  for (const line of lines) {
    try {
      state = playTurn(state, turn(line)).state;
    } catch (error) {
      throw new Error(`turn ${JSON.stringify(line)} by seat ${state.current}: ${(error as Error).message}`);
    }
  }
  return state;
}

/** Why the turn is illegal now, or null when it is legal. */
export function why(s: GameState, line: string): string | null {
  return turnError(s, turn(line));
}

/** Plays the turns, the last being a Yaniv call (or slapdown), and returns how the round ended. */
export function showdown(s: GameState, ...lines: string[]): RoundResult {
  const after = play(s, ...lines);
  if (!after.lastResult || (after.phase !== PHASE_BETWEEN_ROUNDS && after.winner < 0)) throw new Error('test setup: the round did not end');
  return after.lastResult;
}

/** Every legal discard of the player to move, each in laid order, as `"AS 2S 3S"`. */
export function discards(s: GameState): string[] {
  const list = new DiscardList();
  legalDiscards(s, list);
  return Array.from({ length: list.count }, (_, i) => text(list.group(i)));
}

/** Every legal whole turn, as the lines `play` reads. */
export function turns(s: GameState): string[] {
  return legalTurns(s).map(turnLine);
}

export function turnLine(move: TurnMove): string {
  if ('yaniv' in move) return 'yaniv';
  const draw = move.draw === 'deck' ? 'deck' : cardName(move.draw);
  return `${text(move.discard)} / ${draw}${move.quick ? ' +quick' : ''}${move.slapdown ? ' +slapdown' : ''}`;
}

/** The cards of the previous group the player to move may take (after laying their group). */
export function takeable(s: GameState): string[] {
  return pickableCards(s).map(cardName);
}

/** The previous group, in laid order. */
export function previous(s: GameState): string {
  return text(s.prev.subarray(0, s.prevLength));
}
