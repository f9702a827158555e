/**
 * Game records, `yaniv-record/1` (RECORD.md): reading with validation that names the field,
 * writing from a played game, and replaying to the result `yaniv replay` prints.
 */
import { z } from 'zod';
import { type Card, KIND_COUNT, cardName, cardNames, deckComposition, parseCard } from './cards.js';
import { IllegalMoveError, newGame, reshuffleOrderError, startRound } from './engine.js';
import {
  MAX_PLAYERS,
  MIN_PLAYERS,
  type RuleOptionsInput,
  type Rules,
  RuleError,
  resolveRules,
  ruleSelectionSchema,
  DEFAULT_PRESET,
  ruleErrorField,
} from './rules.js';
import { documentIssue, preview } from '../../support/zod.js';
import { type GameState, type Outcome, PHASE_GAME_OVER, deckTopFirst, handOf, handValue, isRoundOver } from './state.js';
import { TURN_EXTRA_NAMES, type TurnExtra, type TurnMove, drawName, playTurn, turnExtras } from './turns.js';

export const RECORD_FORMAT = 'yaniv-record/1';

/** The document is not a valid record; `field` names where (`rounds[0].hands[1][2]`). */
export class RecordError extends Error {
  override name = 'RecordError';
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(field ? `${field}: ${problem}` : problem);
  }
}

const cardSchema = z.string({ error: 'must be a card name such as "10H" or "JK"' }).transform((name, ctx) => {
  const card = parseCard(name);
  if (card === undefined) {
    ctx.addIssue({ code: 'custom', message: `${preview(name)} is not a card (rank A 2..10 J Q K and suit S H D C, or JK)` });
    return z.NEVER;
  }
  return card;
});

const seatSchema = z
  .int({ error: 'must be a seat number' })
  .min(0, { error: 'must be a seat number' })
  .max(MAX_PLAYERS - 1, { error: 'must be a seat number' });

/** A move's flag for each after-draw extra of a turn (`"quick": true`), from the turn's one list. */
const extraFlagsShape = Object.fromEntries(
  TURN_EXTRA_NAMES.map((extra) => [extra, z.boolean({ error: 'must be true or false' }).optional()]),
) as Record<TurnExtra, z.ZodOptional<z.ZodBoolean>>;

const moveSchema = z
  .strictObject(
    {
      yaniv: z.literal(true, { error: 'must be true' }).optional(),
      discard: z.array(cardSchema, { error: 'must be a list of cards in laid order' }).optional(),
      draw: z.union([z.literal('deck'), cardSchema], { error: 'must be "deck" or a card of the previous group' }).optional(),
      ...extraFlagsShape,
      player: seatSchema.optional(),
    },
    { error: 'must be a move: { "yaniv": true } or { "discard": [cards], "draw": "deck" or a card }' },
  )
  .superRefine((move, ctx) => {
    if (move.yaniv) {
      for (const key of ['discard', 'draw', ...TURN_EXTRA_NAMES] as const) {
        if (move[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'a Yaniv call has no other part' });
      }
      return;
    }
    if (move.discard === undefined)
      ctx.addIssue({ code: 'custom', path: ['discard'], message: 'a move is { "yaniv": true } or has "discard" and "draw"' });
    if (move.draw === undefined) ctx.addIssue({ code: 'custom', path: ['draw'], message: 'a discard needs its draw: "deck" or a card' });
  });

const roundSchema = z.strictObject(
  {
    starter: seatSchema.optional(),
    hands: z.array(z.array(cardSchema).nullable(), { error: 'must be a list with one hand (or null) per seat' }),
    discard: cardSchema,
    deck: z.array(cardSchema, { error: 'must be a list of cards, top first' }),
    reshuffles: z.array(z.array(cardSchema), { error: 'must be a list of deck orders' }).optional(),
    moves: z.array(moveSchema, { error: 'must be a list of moves' }),
  },
  { error: 'must be a round: { "hands", "discard", "deck", "moves" }' },
);

export const recordSchema = z.strictObject({
  format: z.literal(RECORD_FORMAT, { error: `must be "${RECORD_FORMAT}"` }),
  ...ruleSelectionSchema.shape,
  players: z
    .int({ error: `must be an integer from ${MIN_PLAYERS} to ${MAX_PLAYERS}` })
    .min(MIN_PLAYERS, { error: `must be an integer from ${MIN_PLAYERS} to ${MAX_PLAYERS}` })
    .max(MAX_PLAYERS, { error: `must be an integer from ${MIN_PLAYERS} to ${MAX_PLAYERS}` }),
  startTotals: z.array(z.int({ error: 'must be an integer' }), { error: 'must be a list of totals, one per seat' }).optional(),
  rounds: z.array(roundSchema, { error: 'must be a list of rounds' }),
});

type ParsedRecord = z.output<typeof recordSchema>;
export type RecordMove = z.output<typeof moveSchema>;
export type RecordRound = z.output<typeof roundSchema>;

/** A record that passed validation, with its rules settled. */
export interface GameRecord extends ParsedRecord {
  readonly settledRules: Rules;
}

/** Reads a record from JSON text or a parsed value; throws RecordError naming the field. */
export function parseRecord(input: unknown): GameRecord {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new RecordError('', `not valid JSON: ${(error as Error).message}`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RecordError(
      '',
      `a record is a JSON object with "format": "${RECORD_FORMAT}" (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})`,
    );
  }
  const parsed = recordSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    const { field, problem } = documentIssue(parsed.error.issues[0]);
    throw new RecordError(field, problem);
  }
  const record = parsed.data;
  let settledRules: Rules;
  try {
    settledRules = resolveRules({ preset: record.preset, rules: record.rules, players: record.players });
  } catch (error) {
    if (error instanceof RuleError) throw new RecordError(ruleErrorField(record.preset), error.message);
    throw error;
  }
  checkShapes(record, settledRules);
  return { ...record, settledRules };
}

function checkShapes(record: ParsedRecord, rules: Rules): void {
  if (record.startTotals && record.startTotals.length !== record.players) {
    throw new RecordError('startTotals', `must have one total per seat: ${record.players}, not ${record.startTotals.length}`);
  }
  const composition = deckComposition(rules.decks, rules.jokersPerDeck);
  record.rounds.forEach((round, r) => {
    const where = `rounds[${r}]`;
    if (round.hands.length !== record.players)
      throw new RecordError(`${where}.hands`, `must have one entry per seat: ${record.players}, not ${round.hands.length}`);
    round.hands.forEach((hand, seat) => {
      if (hand && hand.length !== rules.handSize)
        throw new RecordError(`${where}.hands[${seat}]`, `must hold handSize ${rules.handSize} cards, not ${hand.length}`);
    });
    if (round.starter !== undefined && round.starter >= record.players)
      throw new RecordError(`${where}.starter`, `seat ${round.starter} does not exist with ${record.players} players`);
    const used = new Uint8Array(KIND_COUNT);
    for (const card of [...round.hands.flatMap((h) => h ?? []), round.discard, ...round.deck]) {
      if (++used[card] > composition[card]) {
        throw new RecordError(
          where,
          `${cardName(card)} is used ${used[card]} times but the decks hold ${composition[card]} (decks ${rules.decks}, jokersPerDeck ${rules.jokersPerDeck})`,
        );
      }
    }
  });
}

// ---------------------------------------------------------------- replay

export interface ReplayRound {
  outcome: Outcome | 'unfinished';
  caller: number | null;
  handValues: (number | null)[];
  points: (number | null)[] | null;
  totals: number[];
  eliminated: number[];
  winner: number | null;
}

export type ReplayResult =
  | { ok: true; rounds: ReplayRound[]; totals: number[]; active: number[]; gameOver: boolean; winner: number | null }
  | { ok: false; round: number; move: number; error: string };

export interface Replayed {
  result: ReplayResult;
  /** The state after the last move replayed (the position an unfinished record stops in). */
  state: GameState;
}

/** Replays a record; an illegal move is a result, a record the rules cannot follow throws RecordError. */
export function replay(record: GameRecord): Replayed {
  let state = newGame({ rules: record.settledRules, players: record.players, startTotals: record.startTotals });
  const rounds: ReplayRound[] = [];
  for (let r = 0; r < record.rounds.length; r++) {
    const round = record.rounds[r];
    if (state.phase === PHASE_GAME_OVER) {
      return { state, result: { ok: false, round: r, move: 0, error: `the game is over: seat ${state.winner} won in round ${r - 1}` } };
    }
    if (r > 0 && rounds[r - 1].outcome === 'unfinished') {
      throw new RecordError(`rounds[${r - 1}].moves`, 'the round ends without a Yaniv call, yet more rounds follow');
    }
    dealRound(state, round, r);
    const reshuffles = round.reshuffles ?? [];
    let reshuffleCount = 0;
    for (let m = 0; m < round.moves.length; m++) {
      const move = round.moves[m];
      const illegal = (error: string): Replayed => ({ state, result: { ok: false, round: r, move: m, error } });
      if (isRoundOver(state)) return illegal('the round is already over');
      if (move.player !== undefined && move.player !== state.current)
        return illegal(`the move is marked as seat ${move.player}'s but it is seat ${state.current}'s turn`);
      try {
        const played = playTurn(state, toTurnMove(move), {
          reshuffleOrder: (cards) => {
            const order = reshuffles[reshuffleCount];
            if (!order)
              throw new RecordError(
                `rounds[${r}].reshuffles`,
                `the deck runs out at move ${m} but no reshuffle order (number ${reshuffleCount}) is given`,
              );
            const error = reshuffleOrderError(order, cards);
            if (error !== null) throw new RecordError(`rounds[${r}].reshuffles[${reshuffleCount}]`, error);
            reshuffleCount++;
            return order;
          },
        });
        state = played.state;
      } catch (error) {
        if (error instanceof IllegalMoveError) return illegal(error.message);
        throw error;
      }
    }
    if (reshuffleCount < reshuffles.length) {
      throw new RecordError(
        `rounds[${r}].reshuffles`,
        `lists ${reshuffles.length} reshuffles but the deck ran out ${reshuffleCount} times`,
      );
    }
    rounds.push(roundResult(state));
  }
  const active = Array.from(state.active).flatMap((a, seat) => (a ? [seat] : []));
  const over = state.phase === PHASE_GAME_OVER;
  return {
    state,
    result: { ok: true, rounds, totals: Array.from(state.totals), active, gameOver: over, winner: over ? state.winner : null },
  };
}

function dealRound(state: GameState, round: RecordRound, r: number): void {
  round.hands.forEach((hand, seat) => {
    if (hand === null && state.active[seat])
      throw new RecordError(`rounds[${r}].hands[${seat}]`, `seat ${seat} is still in the game and needs a hand`);
    if (hand !== null && !state.active[seat])
      throw new RecordError(`rounds[${r}].hands[${seat}]`, `seat ${seat} is out of the game: its hand must be null`);
  });
  const derived = r === 0 ? (round.starter ?? 0) : state.nextStarter;
  if (round.starter !== undefined && round.starter !== derived) {
    throw new RecordError(
      `rounds[${r}].starter`,
      `seat ${round.starter} is stated, but nextStarter "${state.rules.nextStarter}" makes seat ${derived} start`,
    );
  }
  startRound(state, { hands: round.hands, discard: round.discard, deck: round.deck, starter: derived });
}

function toTurnMove(move: RecordMove): TurnMove {
  if (move.yaniv) return { yaniv: true };
  const extras = Object.fromEntries(TURN_EXTRA_NAMES.map((extra) => [extra, move[extra]]));
  return { discard: move.discard ?? [], draw: move.draw ?? 'deck', ...extras };
}

function roundResult(state: GameState): ReplayRound {
  if (isRoundOver(state) && state.lastResult) {
    const { outcome, caller, handValues, points, totals, eliminated, winner } = state.lastResult;
    return { outcome, caller, handValues: [...handValues], points: [...points], totals: [...totals], eliminated: [...eliminated], winner };
  }
  return {
    outcome: 'unfinished',
    caller: null,
    points: null,
    winner: null,
    eliminated: [],
    handValues: Array.from(state.active, (a, seat) => (a ? handValue(state, seat) : null)),
    totals: Array.from(state.totals),
  };
}

// ---------------------------------------------------------------- writing

/** A record as JSON (a type, not an interface: it is a plain JSON object wherever one is expected). */
export type RecordJson = {
  format: typeof RECORD_FORMAT;
  preset: string;
  rules: RuleOptionsInput;
  players: number;
  startTotals?: number[];
  rounds: RoundJson[];
};

interface RoundJson {
  starter: number;
  hands: (string[] | null)[];
  discard: string;
  deck: string[];
  reshuffles: string[][];
  moves: MoveJson[];
}

type MoveJson = { yaniv: true } | ({ discard: string[]; draw: string } & { [K in TurnExtra]?: true });

/** How the rules and the table were picked, as a record states them. */
export interface RecordSelection {
  preset?: string;
  rules?: RuleOptionsInput;
  players: number;
  startTotals?: readonly number[];
}

/** A round as a record writes it, from its cards. */
interface RoundCards {
  starter: number;
  hands: readonly (ArrayLike<Card> | null)[];
  discard: Card;
  /** Top first. */
  deck: ArrayLike<Card>;
  reshuffles: readonly (readonly Card[])[];
  moves: readonly TurnMove[];
}

function recordJson(selection: RecordSelection, rounds: RoundJson[]): RecordJson {
  return {
    format: RECORD_FORMAT,
    preset: selection.preset ?? DEFAULT_PRESET,
    rules: { ...(selection.rules ?? {}) },
    players: selection.players,
    ...(selection.startTotals ? { startTotals: [...selection.startTotals] } : {}),
    rounds,
  };
}

function roundJson(round: RoundCards): RoundJson {
  return {
    starter: round.starter,
    hands: round.hands.map((hand) => (hand ? cardNames(hand) : null)),
    discard: cardName(round.discard),
    deck: cardNames(round.deck),
    reshuffles: round.reshuffles.map(cardNames),
    moves: round.moves.map(moveJson),
  };
}

function moveJson(move: TurnMove): MoveJson {
  if ('yaniv' in move) return { yaniv: true };
  return {
    discard: cardNames(move.discard),
    draw: drawName(move.draw),
    ...(Object.fromEntries(turnExtras(move).map((extra) => [extra, true])) as { [K in TurnExtra]?: true }),
  };
}

/** The canonical JSON of a parsed record (upper-case card names, every optional list present). */
export function recordToJson(record: GameRecord): RecordJson {
  return recordJson(
    record,
    record.rounds.map((round, r) =>
      roundJson({
        ...round,
        starter: round.starter ?? (r === 0 ? 0 : -1),
        reshuffles: round.reshuffles ?? [],
        moves: round.moves.map(toTurnMove),
      }),
    ),
  );
}

/** Writes a record while a game is played: call `beginRound` after each deal and `addTurn` after each turn. */
export class RecordWriter {
  private readonly record: RecordJson;

  constructor(selection: RecordSelection) {
    this.record = recordJson(selection, []);
  }

  /** Continues writing an existing record (a game picked up at a saved position). */
  static fromJSON(record: RecordJson): RecordWriter {
    const writer = new RecordWriter(record);
    writer.record.rounds.push(...structuredClone(record.rounds));
    return writer;
  }

  /** Captures the deal of the round just started. */
  beginRound(state: GameState): void {
    this.record.rounds.push(
      roundJson({
        starter: state.starter,
        hands: Array.from(state.active, (a, seat) => (a ? handOf(state, seat) : null)),
        discard: state.prev[0],
        deck: deckTopFirst(state),
        reshuffles: [],
        moves: [],
      }),
    );
  }

  addTurn(move: TurnMove, reshuffled: readonly Card[] | null): void {
    const round = this.record.rounds[this.record.rounds.length - 1];
    if (!round) throw new Error('addTurn before beginRound');
    if (reshuffled) round.reshuffles.push(cardNames(reshuffled));
    round.moves.push(moveJson(move));
  }

  toJSON(): RecordJson {
    return structuredClone(this.record);
  }
}
