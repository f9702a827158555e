/**
 * One game at a server table, driven by action ids through the environment's `Table` over an
 * `Episode` (the same wrapper, loop and turn recorder as the environments, env/gym/table.ts), with what the protocol needs on top: a
 * step counter, the legal actions of the seat to move, what each step showed (public cards,
 * and a deck draw's card for its drawer only), the showdown when a round ends, the default
 * action for a seat whose time ran out, and the record. No timers and no I/O: `Table` runs it.
 */
import {
  ACTION_COUNT,
  type Card,
  DISCARD_START,
  DRAW_DECK_ACTION,
  Episode,
  Table,
  type GameState,
  HAND_CAP,
  IllegalActionError,
  ONGOING,
  PASS_ACTION,
  type PlayerView,
  QUICK_ACTION,
  type RecordJson,
  type RoundResult,
  TAKE_START,
  TRUNCATED,
  YANIV_ACTION,
  actionError,
  actionToMove,
  cardName,
  handValue,
  moveToAction,
  parseCard,
  parseEnvOptions,
  playerView,
} from '../../env/index.js';
import { describeLegal } from '../protocol/moves.js';
import type { LegalAction } from '../protocol/protocol.js';

export interface GameSetup {
  readonly preset: string;
  readonly rules: Record<string, unknown>;
  readonly players: number;
  readonly seed: number;
  /** Whole turns after which the game stops unfinished (`truncated`); none by default. */
  readonly maxTurns?: number;
}

/** What one step showed. */
export interface StepReport {
  readonly actor: number;
  readonly action: LegalAction;
  /** The cards every seat sees (a deck draw shows none). */
  readonly publicCards: string[];
  /** A deck draw's card, for the drawer only. */
  readonly drawnCard: string | null;
  readonly reshuffled: boolean;
  readonly roundEnd: { round: number; result: RoundResult; hands: (string[] | null)[] } | null;
  readonly gameOver: boolean;
}

export class TableGame {
  /** The environment's table it plays through: its mask, legal ids and rewards are the ones read here. */
  readonly table: Table;
  /** Steps played. */
  counter = 0;
  /** The action ids played, in order: with the seed, the whole game (what a table store keeps). */
  readonly moves: number[] = [];

  constructor(readonly setup: GameSetup) {
    const episode = new Episode(
      parseEnvOptions({
        preset: setup.preset,
        rules: setup.rules,
        players: setup.players,
        episode: 'game',
        history: true,
        seed: setup.seed,
        maxTurns: setup.maxTurns ?? null,
      }),
    );
    this.table = new Table(episode);
    this.table.reset({ seed: setup.seed });
  }

  get episode(): Episode {
    return this.table.episode;
  }

  get state(): GameState {
    return this.episode.state;
  }

  get over(): boolean {
    return this.episode.status !== ONGOING;
  }

  /** The game stopped at the turn cap, unfinished. */
  get truncated(): boolean {
    return this.episode.status === TRUNCATED;
  }

  /** The winner once the game is over; a game stopped at the turn cap goes to the lowest total still in it (ties: the lowest seat). */
  winner(): number {
    const s = this.episode.state;
    if (!this.truncated) return s.winner;
    let best = -1;
    for (let seat = 0; seat < s.players; seat++) if (s.active[seat] && (best < 0 || s.totals[seat] < s.totals[best])) best = seat;
    return best;
  }

  /** Whether the seat is still in the game. */
  active(seat: number): boolean {
    return this.episode.state.active[seat] === 1;
  }

  /** The seat to move, null once the game is over. */
  get toMove(): number | null {
    return this.over ? null : this.episode.state.current;
  }

  view(seat: number): PlayerView {
    return playerView(this.episode.state, seat);
  }

  legalIds(): number[] {
    return Array.from(this.table.legalIds.subarray(0, this.table.legalCount));
  }

  isLegal(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < ACTION_COUNT && this.table.mask[id] === 1;
  }

  /** The legal actions of the seat to move, readably. */
  legalActions(): LegalAction[] {
    const s = this.episode.state;
    const drawn = s.drawn >= 0 ? s.drawn : null;
    return this.legalIds().map((id) => describeLegal(s, id, drawn));
  }

  /**
   * The legal discard that lays these cards, in the order given where the rules tell laid
   * orders apart; else IllegalActionError with the engine's reason (as for an illegal id).
   */
  discardId(names: readonly string[]): number {
    const s = this.episode.state;
    const cards = names.map((name) => parseCard(name) ?? -1);
    const text = `discard ${names.join(' ')}`;
    const unknown = names.find((_, i) => cards[i] < 0);
    const reason = unknown !== undefined ? `${unknown} is not a card` : actionError(s, { type: 'discard', cards });
    if (reason !== null) throw new IllegalActionError(-1, `${text} is illegal: ${reason}`, reason);
    const id = moveToAction(s, { type: 'discard', cards });
    if (!this.isLegal(id)) throw this.episode.illegalAction(id);
    return id;
  }

  /** Plays a legal id; an illegal one throws the episode's IllegalActionError (with the engine's reason) and changes nothing. */
  step(id: number): StepReport {
    // Before describeLegal, which cannot read a discard id that names no group of the hand.
    if (!this.isLegal(id)) throw this.episode.illegalAction(id);
    const s = this.episode.state;
    const actor = s.current;
    const round = s.round;
    const action = describeLegal(s, id, s.drawn >= 0 ? s.drawn : null);
    const handBefore = handCards(s, actor);
    const hands = Array.from({ length: s.players }, (_, seat) => (s.active[seat] ? handCards(s, seat).map(cardName) : null));
    const reshuffled = id === DRAW_DECK_ACTION && s.deckLength === 0;
    this.table.step(id);
    this.counter++;
    this.moves.push(id);
    const drawnCard = id === DRAW_DECK_ACTION ? cardName(added(handBefore, handCards(this.episode.state, actor))) : null;
    const result = this.episode.roundResult;
    return {
      actor,
      action,
      publicCards: action.cards,
      drawnCard,
      reshuffled,
      roundEnd: result ? { round, result, hands } : null,
      gameOver: this.over,
    };
  }

  /**
   * What the server plays for a client seat whose time ran out: never a Yaniv call (unless
   * nothing else is legal); in the turn step it lays its highest card alone (ties: the lowest
   * id), then draws from the deck (else takes the first pickable card), and passes any
   * quick discard or slapdown.
   */
  defaultAction(): number {
    const s = this.episode.state;
    const ids = this.legalIds();
    if (ids.includes(PASS_ACTION)) return PASS_ACTION;
    if (ids.includes(DRAW_DECK_ACTION)) return DRAW_DECK_ACTION;
    const take = ids.find((id) => id >= TAKE_START && id < PASS_ACTION);
    if (take !== undefined) return take;
    let best = -1;
    let bestValue = -1;
    for (const id of ids) {
      if (id < DISCARD_START || id >= DRAW_DECK_ACTION) continue;
      const move = actionToMove(s, id);
      if (move.type !== 'discard' || move.cards.length !== 1) continue;
      const value = s.values[move.cards[0]];
      if (value > bestValue) {
        best = id;
        bestValue = value;
      }
    }
    if (best >= 0) return best;
    return ids.includes(YANIV_ACTION) ? YANIV_ACTION : (ids.find((id) => id !== QUICK_ACTION) ?? ids[0]);
  }

  /** The game so far as a yaniv-record/1 (whole turns). */
  record(): RecordJson {
    const history = this.episode.history;
    if (!history) throw new Error('the table keeps no history');
    return history.toPosition(this.episode.state).record;
  }

  /** The seat's hand value (for logs and tests). */
  handValue(seat: number): number {
    return handValue(this.episode.state, seat);
  }
}

function handCards(s: GameState, seat: number): Card[] {
  return Array.from(s.hands.subarray(seat * HAND_CAP, seat * HAND_CAP + s.handLength[seat]));
}

/** The card in `after` that `before` lacks (a draw adds exactly one). */
function added(before: readonly Card[], after: readonly Card[]): Card {
  const left = [...before];
  for (const card of after) {
    const i = left.indexOf(card);
    if (i < 0) return card;
    left.splice(i, 1);
  }
  throw new Error('a deck draw added no card');
}
