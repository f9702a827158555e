/**
 * Game equity: each seat's probability of winning the game from a table state between rounds
 * (totals, who is still in, who starts next, the rules), like a backgammon match equity table:
 * the `GameEquity` interface, solved heads-up (headsUpEquity.ts) or learned at 3–8 seats
 * (seatEquity.ts) from the data of equityData.ts, and each seat's equity at a table from it.
 *
 * Pure: no I/O. Loading and measuring live in agents/.
 */
import type { Rules } from '../rules/rules.js';
import { EquityError, checkTotal } from './equityData.js';

/**
 * A game equity of one rule set and table size: the heads-up one solved (HeadsUpEquity), or
 * the learned one at 3–8 seats (seatEquity.ts).
 */
export interface GameEquity {
  readonly rules: Rules;
  readonly players: number;
  /** Each seat's P(win), every active total within the limit and two or more seats in (0 for a seat out). */
  seats(totals: readonly number[], active: readonly boolean[], starter: number): number[];
}

/** Each seat's share when the game ended now: the lowest of these totals wins, ties split. */
function lowestWins(totals: readonly number[], seats: readonly number[]): number[] {
  const low = Math.min(...seats.map((seat) => totals[seat]));
  const winners = seats.filter((seat) => totals[seat] === low);
  return totals.map((_, seat) => (winners.includes(seat) ? 1 / winners.length : 0));
}

/**
 * Each seat's P(win) at a table between rounds: `totals` per seat, `active` who is still in,
 * `starter` the seat that starts the next round. A seat out of the game has 0, and a game that
 * is over gives its winner 1. An active total over the limit is what the round just scored: the
 * seat is out (under gameEnd "firstOverLimit" the game is over, the lowest total winning).
 */
export function seatEquities(equity: GameEquity, totals: readonly number[], active: readonly boolean[], starter: number): number[] {
  const { players, rules } = equity;
  if (totals.length !== players || active.length !== players)
    throw new EquityError(`this equity is for ${players} seats (got ${totals.length} totals, ${active.length} active flags)`);
  if (!Number.isInteger(starter) || starter < 0 || starter >= players)
    throw new EquityError(`the starter must be a seat 0..${players - 1} (got ${starter})`);
  const seats = active.flatMap((a, seat) => (a ? [seat] : []));
  if (seats.length === 0) throw new EquityError('no seat is in the game');
  seats.forEach((seat) => checkTotal(totals[seat], `seat ${seat}'s`));
  const over = seats.filter((seat) => totals[seat] > rules.eliminationLimit);
  if (over.length > 0 && rules.gameEnd === 'firstOverLimit') return lowestWins(totals, seats);
  const left = seats.filter((seat) => !over.includes(seat));
  if (left.length === 0) return lowestWins(totals, seats);
  if (left.length === 1) return totals.map((_, seat) => (seat === left[0] ? 1 : 0));
  return equity.seats(
    totals,
    active.map((a, seat) => a && left.includes(seat)),
    starter,
  );
}

/** What the "equity" reward needs of an episode: its state when a round begins and when it ends. */
export interface EquityTable {
  readonly players: number;
  readonly totals: ArrayLike<number>;
  readonly active: ArrayLike<number>;
  /** The game's winner once it is over, else −1. */
  readonly winner: number;
}

/**
 * Each seat's equity at a table between rounds (`starter` starts the next round); once the game
 * is over, 1 for its winner and 0 for the others.
 */
export function tableEquities(equity: GameEquity, table: EquityTable, starter: number, out: Float64Array): void {
  if (table.winner >= 0) {
    for (let seat = 0; seat < table.players; seat++) out[seat] = seat === table.winner ? 1 : 0;
    return;
  }
  const totals = Array.from(table.totals);
  const active = Array.from(table.active, (a) => a === 1);
  seatEquities(equity, totals, active, starter).forEach((e, seat) => {
    out[seat] = e;
  });
}
