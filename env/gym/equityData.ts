/**
 * The game equity data (`yaniv-equity/1`) and its types: the heads-up round-outcome model the
 * heads-up equity is solved from (headsUpEquity.ts), the learned predictor at 3–8 seats
 * (seatEquity.ts), and the error for rules or tables an equity cannot be had for. Pure.
 */

export const EQUITY_FORMAT = 'yaniv-equity/1';

/** Seat roles in a heads-up round: the seat that starts it, and the other. */
export const ROLES = ['starter', 'other'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What simulated heads-up rounds measured, from the starter's side. `outcomes` are the
 * distinct (starter's points, other's points) pairs with their counts; `landing[role][g]` is
 * [rounds in which the seat scored exactly g while a milestone was g above its total, rounds in
 * which a milestone was g above its total], and `scored[role][g]` is [rounds the seat scored
 * exactly g, rounds] over all rounds — together they give the spike that milestone play adds.
 */
export interface RoundOutcomeModel {
  readonly rounds: number;
  readonly outcomes: readonly (readonly [number, number, number])[];
  readonly landing: Readonly<Record<Role, Readonly<Record<string, readonly [number, number]>>>>;
  readonly scored: Readonly<Record<Role, Readonly<Record<string, readonly [number, number]>>>>;
}

interface EquityDataBase {
  readonly format: typeof EQUITY_FORMAT;
  readonly preset: string;
  readonly overrides: Readonly<Record<string, unknown>>;
  /** The agent that played every seat of the simulated rounds or games. */
  readonly agent: string;
}

/** The shipped heads-up data: the round model the equity is solved from, how it was measured, and for which rules. */
export interface HeadsUpEquityData extends EquityDataBase {
  readonly players: 2;
  readonly model: RoundOutcomeModel;
}

/** The shipped data at 3–8 seats: the learned predictor (seatEquity.ts) and what it was fitted to. */
export interface SeatsEquityData extends EquityDataBase {
  readonly players: number;
  /** Games played out from sampled totals, and the between-rounds states of them fitted to. */
  readonly games: number;
  readonly states: number;
  readonly predictor: SeatPredictor;
}

export type EquityData = HeadsUpEquityData | SeatsEquityData;

export function isHeadsUpData(data: EquityData): data is HeadsUpEquityData {
  return 'model' in data;
}

/** Thrown for rules or table sizes the equity cannot be solved for. */
export class EquityError extends Error {
  override name = 'EquityError';
}

/** The learned weights for one number of seats still in. */
export interface SeatWeights {
  /** Slope of the score over each `knotStep` points of total (≤ 0), from 0 up. */
  readonly total: readonly number[];
  /** Weight of a milestone exactly g points above the total, g = 1..maxGap (index g − 1). */
  readonly gap: readonly number[];
  /** Weight of each place in the turn order from the starter (index 0: the starter). */
  readonly order: readonly number[];
}

export interface SeatPredictor {
  readonly knotStep: number;
  readonly maxGap: number;
  /** By the number of seats still in, "2" up to the table size. */
  readonly byActive: Readonly<Record<string, SeatWeights>>;
}

/** The feature layout of a predictor: what it reads of one seat's total. */

export function checkTotal(total: number, name: string): void {
  if (!Number.isInteger(total) || total < 0) throw new EquityError(`${name} total must be a whole number ≥ 0 (got ${total})`);
}
