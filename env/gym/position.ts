/**
 * Positions as data: a `yaniv-record/1` game record whose last round is unfinished, plus
 * the part of the turn in progress (the group laid, the card drawn) and optionally the
 * game's PRNG state. Any position an environment reaches can be exported, stored, sent to
 * an advisor and imported back into a state or an environment.
 */
import { z } from 'zod';
import { type Card, cardName, parseCard } from '../rules/cards.js';
import { applyAction } from '../rules/actions.js';
import { type TurnExtra, drawName, turnExtraFlag } from '../rules/turns.js';
import { IllegalMoveError, reshuffleIfEmpty, reshuffleOrderError } from '../rules/engine.js';
import {
  type GameRecord,
  RecordError,
  type RecordJson,
  type RecordSelection,
  RecordWriter,
  type Replayed,
  parseRecord,
  recordToJson,
  replay,
} from '../rules/record.js';
import { documentIssue, preview } from '../../support/zod.js';
import { rngFromState, seededRng } from '../rules/random.js';
import { type GameState, PHASE_DRAW, PHASE_TURN } from '../rules/state.js';

export const POSITION_FORMAT = 'yaniv-position/1';

/** The steps of the turn in progress that the record (whole turns only) cannot hold. */
export interface PendingTurnJson {
  /** The group laid this turn, in laid order. */
  discard: string[];
  /** The draw, once made: "deck" or the card taken. */
  draw?: string;
  /** The deck order (top first) a reshuffle made for that draw. */
  reshuffle?: string[];
}

export interface PositionJson {
  format: typeof POSITION_FORMAT;
  /** The game so far; its last round is unfinished unless the position is between rounds or the game is over. */
  record: RecordJson;
  pending: PendingTurnJson | null;
  /** The game's PRNG state (future reshuffles and deals) for an exact restore; without it the game is reseeded. */
  rng?: number[];
}

/** The document is not a position, or its moves do not replay. */
export class PositionError extends Error {
  override name = 'PositionError';
}

const cardName$ = z.string({ error: 'must be a card name' });
const positionSchema = z.strictObject({
  format: z.literal(POSITION_FORMAT, { error: `must be "${POSITION_FORMAT}"` }),
  record: z.unknown(),
  pending: z
    .strictObject(
      {
        discard: z.array(cardName$, { error: 'must be a list of cards in laid order' }),
        draw: cardName$.optional(),
        reshuffle: z.array(cardName$).optional(),
      },
      { error: 'must be the turn in progress, { "discard": [cards], "draw"?: "deck" or a card }, or null' },
    )
    .nullable()
    .default(null),
  rng: z.array(z.int({ error: 'must be an integer' }), { error: 'must be the PRNG state, a list of integers' }).optional(),
});

function card(name: string, field: string): Card {
  const parsed = parseCard(name);
  if (parsed === undefined) throw new PositionError(`${field}: ${preview(name)} is not a card`);
  return parsed;
}

export interface ImportedPosition {
  state: GameState;
  /** The record of the game so far, in canonical form. */
  record: RecordJson;
  pending: PendingTurnJson | null;
}

/**
 * Rebuilds the state of a position (a document or its JSON text); throws PositionError naming
 * the field, `record.rounds[0].moves[3]` for a problem in the record.
 */
export function importPosition(input: unknown, options: { seed?: number } = {}): ImportedPosition {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new PositionError(`position: not valid JSON: ${(error as Error).message}`);
    }
  }
  const parsed = positionSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    const { field, problem } = documentIssue(parsed.error.issues[0]);
    throw new PositionError(`${field || 'position'}: ${problem}`);
  }
  let replayed: Replayed;
  let canonical: RecordJson;
  try {
    const record = parseRecord(parsed.data.record);
    replayed = replay(record);
    canonical = recordToJson(record);
    fillStarters(canonical, record);
  } catch (error) {
    if (error instanceof RecordError) throw new PositionError(`${error.field ? `record.${error.field}` : 'record'}: ${error.problem}`);
    throw error;
  }
  const { state, result } = replayed;
  if (!result.ok) throw new PositionError(`record: round ${result.round}, move ${result.move}: ${result.error}`);
  const pending = parsed.data.pending;
  if (pending) applyPending(state, pending);
  state.rng = parsed.data.rng ? rngFromState(parsed.data.rng) : seededRng(options.seed ?? 0);
  return { state, record: canonical, pending };
}

/** Rounds after the first may omit `starter`; the canonical record states the one replay derived. */
function fillStarters(canonical: RecordJson, record: GameRecord): void {
  if (canonical.rounds.every((round) => round.starter >= 0)) return;
  canonical.rounds.forEach((round, r) => {
    if (round.starter >= 0) return;
    const rounds = record.rounds.slice(0, r + 1).map((rd, i) => (i === r ? { ...rd, moves: [] } : rd));
    round.starter = replay({ ...record, rounds }).state.starter;
  });
}

function applyPending(state: GameState, pending: PendingTurnJson): void {
  try {
    if (state.phase !== PHASE_TURN)
      throw new PositionError(`pending: a turn can be in progress only in a round in play (phase ${state.phase})`);
    applyAction(state, { type: 'discard', cards: pending.discard.map((c, i) => card(c, `pending.discard[${i}]`)) });
    if (pending.draw === undefined) return;
    if ((state.phase as number) !== PHASE_DRAW) throw new PositionError('pending.draw: the round ended after the discard');
    const source = pendingDraw(pending.draw);
    if (source === 'deck') reshuffleIfEmpty(state, (cards) => pendingReshuffle(pending, cards));
    applyAction(state, { type: 'draw', source });
  } catch (error) {
    if (error instanceof IllegalMoveError) throw new PositionError(`pending: ${error.message}`);
    throw error;
  }
}

function pendingDraw(name: string): 'deck' | Card {
  return name.toLowerCase() === 'deck' ? 'deck' : card(name, 'pending.draw');
}

/** The deck order a pending deck draw from an empty deck states, checked against the cards reshuffled. */
function pendingReshuffle(pending: PendingTurnJson, cards: readonly Card[]): Card[] {
  if (!pending.reshuffle) throw new PositionError('pending.reshuffle: the deck is empty, so the draw needs the reshuffled order');
  const order = pending.reshuffle.map((c, i) => card(c, `pending.reshuffle[${i}]`));
  const error = reshuffleOrderError(order, cards);
  if (error !== null) throw new PositionError(`pending.reshuffle: ${error}`);
  return order;
}

/**
 * The history of a game as it is played step by step: a RecordWriter for whole turns and
 * the turn in progress. Environments keep one when asked to, so any position can be exported.
 */
export class GameHistory {
  private readonly writer: RecordWriter;
  private discard: Card[] | null = null;
  private draw: 'deck' | Card | null = null;
  private reshuffled: Card[] | null = null;

  constructor(writer: RecordWriter) {
    this.writer = writer;
  }

  static start(selection: RecordSelection): GameHistory {
    return new GameHistory(new RecordWriter(selection));
  }

  static resume(record: RecordJson, pending: PendingTurnJson | null): GameHistory {
    const history = new GameHistory(RecordWriter.fromJSON(record));
    if (pending) {
      history.discard = pending.discard.map((c) => card(c, 'pending.discard'));
      if (pending.draw !== undefined) history.draw = pendingDraw(pending.draw);
      if (pending.reshuffle) history.reshuffled = pending.reshuffle.map((c) => card(c, 'pending.reshuffle'));
    }
    return history;
  }

  beginRound(state: GameState): void {
    this.clearPending();
    this.writer.beginRound(state);
  }

  yaniv(): void {
    this.writer.addTurn({ yaniv: true }, null);
  }

  laid(cards: ArrayLike<Card>, length: number): void {
    this.discard = Array.from({ length }, (_, i) => cards[i]);
  }

  drew(source: 'deck' | Card, reshuffled: Card[] | null): void {
    this.draw = source;
    this.reshuffled = reshuffled;
  }

  /** The turn is over: after the draw, or after the after-draw choice. */
  endTurn(extra: TurnExtra | null): void {
    if (this.discard === null || this.draw === null) return;
    this.writer.addTurn({ discard: this.discard, draw: this.draw, ...turnExtraFlag(extra) }, this.reshuffled);
    this.clearPending();
  }

  private clearPending(): void {
    this.discard = null;
    this.draw = null;
    this.reshuffled = null;
  }

  /** The record of the whole turns so far. */
  record(): RecordJson {
    return this.writer.toJSON();
  }

  toPosition(state: GameState): PositionJson {
    const pending: PendingTurnJson | null =
      this.discard === null
        ? null
        : {
            discard: this.discard.map(cardName),
            ...(this.draw !== null ? { draw: drawName(this.draw) } : {}),
            ...(this.reshuffled ? { reshuffle: this.reshuffled.map(cardName) } : {}),
          };
    return { format: POSITION_FORMAT, record: this.writer.toJSON(), pending, rng: [...state.rng.getState()] };
  }

  clone(): GameHistory {
    const copy = new GameHistory(RecordWriter.fromJSON(this.writer.toJSON()));
    copy.discard = this.discard && [...this.discard];
    copy.draw = this.draw;
    copy.reshuffled = this.reshuffled && [...this.reshuffled];
    return copy;
  }
}
