/**
 * The page's model of one table: what the server told this connection, folded message by
 * message (`receive`) — the latest state of the client seat, what each seat did on its latest
 * turn, the round results with the running totals, and the end of the game. Pure functions of
 * plain data: the view renders it, test/web/game.test.ts feeds it messages.
 */
import type { Msg, ServerMessage } from '../client/protocol.js';
import { botName } from './blurbs.js';
import { YOU } from './words.js';

/**
 * The table as created, joined or resumed, with `seat`: the guest seat this page plays (joined,
 * or resumed with a guest's token); null or absent for the creator, who plays the client seats.
 */
export type TableInfo = Omit<Msg<'table_created'>, 'type' | 'id'> & { readonly seat?: number | null };

/** What one seat did on its latest turn: the steps, in order (a discard or Yaniv starts a turn). */
export interface SeatTurn {
  readonly counter: number;
  readonly steps: readonly Msg<'event'>[];
}

export interface RoundResult {
  readonly round: number;
  readonly outcome: Msg<'round_end'>['outcome'];
  readonly caller: number | null;
  readonly winner: number;
  readonly hands: readonly (readonly string[] | null)[];
  readonly handValues: readonly (number | null)[];
  readonly points: readonly (number | null)[];
  readonly totalsBefore: readonly number[];
  readonly totals: readonly number[];
  readonly eliminated: readonly number[];
  /** Per seat, what the rules did to the total beyond the round's points: a milestone or a robbery. */
  readonly adjustments: readonly (string | null)[];
}

export interface Game {
  readonly info: TableInfo;
  readonly state: Msg<'state'> | null;
  readonly turns: readonly (SeatTurn | null)[];
  readonly rounds: readonly RoundResult[];
  /** The latest round result until the player dismisses it. */
  readonly unseenResult: RoundResult | null;
  readonly over: Msg<'game_over'> | null;
  /** The counter at which the current round was dealt (0, or the last round_end's). */
  readonly roundStartedAt: number;
  /**
   * The plays of the round in the order the server told them (the finished round's until the
   * next round's first play).
   */
  readonly log: readonly Msg<'event'>[];
  /** What the server said while a round result waited for the player: shown once it is dismissed. */
  readonly queued: readonly ServerMessage[];
  /** The games played before this one with the same table (Play again), for the running score. */
  readonly series: Series;
}

/** The games before this one in a row of Play again: the seat that won each, in order. */
export interface Series {
  readonly winners: readonly number[];
}

export const NO_SERIES: Series = { winners: [] };

/** What a page keeps of a table across a reload (web/storage.ts): the server sends each of these once. */
export interface KeptPlays {
  readonly rounds: readonly RoundResult[];
  readonly log: readonly Msg<'event'>[];
  readonly roundStartedAt: number;
  /** The games before this one (none: a first game). */
  readonly series?: Series;
}

/** A table as the page starts it: dealt, joined, or taken back after a reload with the plays it kept (each seat's last move read from the log). */
export function newGame(info: TableInfo, kept: KeptPlays = { rounds: [], log: [], roundStartedAt: 0 }): Game {
  const turns = kept.log.reduce(
    withStep,
    info.seats.map((): SeatTurn | null => null),
  );
  return {
    info,
    state: null,
    turns,
    rounds: kept.rounds,
    unseenResult: null,
    over: null,
    roundStartedAt: kept.roundStartedAt,
    log: kept.log,
    queued: [],
    series: kept.series ?? NO_SERIES,
  };
}

/** The series the next game of Play again continues: this one's, with this game's winner once it is over. */
export function nextSeries(game: Game): Series {
  return { winners: [...game.series.winners, ...(game.over === null ? [] : [game.over.winner])] };
}

/** Messages of the next round, held back while a round result waits for the player. */
const HELD_BACK: ReadonlySet<ServerMessage['type']> = new Set(['state', 'event', 'round_end']);

/**
 * Whether a message waits behind the round result shown: the next round's plays, and the game's
 * end when a later round's result waits too (a player who is out sees the bots' last rounds one
 * result at a time, the game over with the last).
 */
function heldBack(game: Game, message: ServerMessage): boolean {
  return HELD_BACK.has(message.type) || (message.type === 'game_over' && game.queued.some((queued) => queued.type === 'round_end'));
}

/** The game after one server message (messages of other tables change nothing). */
export function receive(game: Game, message: ServerMessage): Game {
  if (!('table' in message) || message.table !== game.info.table) return game;
  if (game.unseenResult !== null && heldBack(game, message)) return { ...game, queued: [...game.queued, message] };
  switch (message.type) {
    case 'state':
      return { ...game, state: message };
    case 'event':
      return {
        ...game,
        turns: withStep(game.turns, message),
        log: [...game.log.filter((play) => play.counter > game.roundStartedAt), message],
      };
    case 'round_end': {
      if (game.rounds.some((r) => r.round === message.round)) return game;
      const result = roundResult(message, totalsBefore(game, message.round));
      return { ...game, rounds: [...game.rounds, result], unseenResult: result, roundStartedAt: message.counter };
    }
    case 'game_over':
      return { ...game, over: message };
    case 'seats':
      return { ...game, info: { ...game.info, seats: message.seats, lobby: message.lobby } };
    default:
      return game;
  }
}

/** The round result put away: what the server said meanwhile is shown now, in order (up to the next round result). */
export function dismissResult(game: Game): Game {
  return game.queued.reduce(receive, { ...game, unseenResult: null, queued: [] });
}

/** Whether the log holds a round that has ended (its result is the latest round result). */
export function logEnded(game: Game): boolean {
  const last = game.log[game.log.length - 1];
  return last !== undefined && last.counter <= game.roundStartedAt && game.rounds.length > 0;
}

/** The seat this page plays. */
export function mySeat(game: Game): number {
  return game.state?.seat ?? game.info.seat ?? game.info.seats.find((s) => s.player === 'client')?.seat ?? 0;
}

/** Whether this page joined with an invite (then the client seats are the host's). */
export function isGuest(game: Game): boolean {
  return typeof game.info.seat === 'number';
}

/** Whether this page plays the seat: its own seat, and for the creator every client seat. */
function mine(game: Game, seat: number): boolean {
  return seat === mySeat(game) || (!isGuest(game) && game.info.seats[seat]?.player === 'client');
}

/** "You"; a friend by the name they gave; the host; a bot by its name in words, with its seat. */
export function seatName(game: Game, seat: number): string {
  const info = game.info.seats[seat];
  if (info === undefined) return `Seat ${seat + 1}`;
  if (mine(game, seat)) return YOU;
  if (info.player === 'client') return 'Host';
  if (info.player === 'guest') return info.name ?? `Friend (seat ${seat + 1})`;
  return `${botName(info.agent ?? 'bot')} (seat ${seat + 1})`;
}

/** Whether a friend's seat is played by its stand-in bot now (they left, or have not joined). */
export function standingIn(game: Game, seat: number): boolean {
  const info = game.info.seats[seat];
  return info?.player === 'guest' && info.present !== true && !mine(game, seat);
}

/** A column heading for the seat: "You" or "#3" (the full name is its title). */
export function shortSeatName(game: Game, seat: number): string {
  return mine(game, seat) ? YOU : `#${seat + 1}`;
}

/** Who laid the previous group (the latest discard this round by another seat than the one to move), with its counter. */
export function previousLayer(game: Game, current: number): { readonly seat: number; readonly counter: number } | null {
  let layer: { seat: number; counter: number } | null = null;
  game.turns.forEach((turn, seat) => {
    const laid = turn?.steps[0];
    if (seat === current || laid?.kind !== 'discard' || laid.counter <= game.roundStartedAt) return;
    if (layer === null || laid.counter > layer.counter) layer = { seat, counter: laid.counter };
  });
  return layer;
}

function withStep(turns: readonly (SeatTurn | null)[], event: Msg<'event'>): (SeatTurn | null)[] {
  const startsTurn = event.kind === 'discard' || event.kind === 'yaniv';
  const previous = turns[event.actor];
  const steps = startsTurn || previous === null ? [event] : [...previous.steps, event];
  return turns.map((turn, seat) => (seat === event.actor ? { counter: event.counter, steps } : turn));
}

/** Each seat's total now: the game's end, else the latest of the state's view and the latest round result. */
export function currentTotals(game: Game): readonly number[] {
  if (game.over !== null) return game.over.totals;
  const last = game.rounds[game.rounds.length - 1];
  if (last !== undefined && (game.state === null || game.roundStartedAt > game.state.counter)) return last.totals;
  return game.state?.view.totals ?? game.info.seats.map(() => 0);
}

/**
 * The totals a round started from: the previous round's result when the page has it (a seat that
 * is out gets no state frames, so its view's totals can be rounds old), else the latest view's.
 */
function totalsBefore(game: Game, round: number): readonly number[] | undefined {
  const previous = game.rounds[game.rounds.length - 1];
  if (round === 1) return game.info.seats.map(() => 0);
  return previous?.round === round - 1 ? previous.totals : game.state?.view.totals;
}

function roundResult(message: Msg<'round_end'>, before: readonly number[] | undefined): RoundResult {
  const totalsBefore = before ?? message.totals.map((total, seat) => total - (message.points[seat] ?? 0));
  return {
    round: message.round,
    outcome: message.outcome,
    caller: message.caller,
    winner: message.winner,
    hands: message.hands,
    handValues: message.handValues,
    points: message.points,
    totalsBefore,
    totals: message.totals,
    eliminated: message.eliminated,
    adjustments: message.points.map((points, seat) => adjustment(totalsBefore[seat] + (points ?? 0), message.totals[seat], points)),
  };
}

/**
 * The round_end message gives points before milestones and totals after them (RECORD.md): a
 * total below the sum landed on a milestone, one above it was robbed (+30 for each milestone
 * hit by another player, under milestoneRobbery).
 */
function adjustment(sum: number, total: number, points: number | null): string | null {
  if (points === null || sum === total) return null;
  return total < sum ? `milestone: ${sum} → ${total}` : `robbed: +${total - sum}`;
}
