/**
 * The game equity as shipped data (`models/equity/<preset>-<players>.json`, written by `yaniv
 * equity`): reading and checking a file, and solving it once per file (env/gym/equity.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  EQUITY_FORMAT,
  type EquityData,
  EquityError,
  type GameEquity,
  type HeadsUpEquity,
  isHeadsUpData,
  solveHeadsUpEquity,
} from '../env/gym/equity.js';
import { SeatEquity } from '../env/gym/seatEquity.js';
import { resolveRules } from '../env/rules/rules.js';
import { packageRoot } from './modelFolder.js';

/** Where the shipped equity files live, relative to the package root. */
export const EQUITY_DIR = 'models/equity';

const count = z.int().min(0);
const pairs = z.record(z.string().regex(/^\d+$/), z.tuple([count, count]));
const roleTable = z.strictObject({ starter: pairs, other: pairs });

const header = {
  format: z.literal(EQUITY_FORMAT),
  preset: z.string().min(1),
  overrides: z.record(z.string(), z.unknown()),
  agent: z.string().min(1),
};

const headsUpSchema = z.strictObject({
  ...header,
  players: z.literal(2),
  model: z.strictObject({
    rounds: count,
    outcomes: z.array(z.tuple([count, count, count])).min(1),
    landing: roleTable,
    scored: roleTable,
  }),
});

const weight = z.number().finite();
const seatsSchema = z.strictObject({
  ...header,
  players: z.int().min(3).max(8),
  games: count,
  states: count,
  predictor: z.strictObject({
    knotStep: z.int().min(1),
    maxGap: z.int().min(0),
    byActive: z.record(
      z.string().regex(/^\d+$/),
      z.strictObject({ total: z.array(weight.max(0)), gap: z.array(weight), order: z.array(weight) }),
    ),
  }),
});

/** Checks parsed JSON as equity data; a bad document throws EquityError naming the field. */
export function parseEquityData(value: unknown, source: string): EquityData {
  // Heads-up data holds a round model, larger tables a predictor: the table size says which to check.
  const headsUp = typeof value === 'object' && value !== null && (value as { players?: unknown }).players === 2;
  const parsed = (headsUp ? headsUpSchema : seatsSchema).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EquityError(`${source}: ${issue.path.join('.') || 'the document'} ${issue.message}`);
  }
  return parsed.data;
}

export function readEquityData(file: string): EquityData {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new EquityError(`cannot read the equity file ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    return parseEquityData(JSON.parse(text), file);
  } catch (error) {
    if (error instanceof SyntaxError) throw new EquityError(`${file} is not JSON (${error.message})`);
    throw error;
  }
}

/** The shipped equity file of a preset and table size. */
export function shippedEquityFile(preset: string, players: number): string {
  return path.join(packageRoot(), EQUITY_DIR, `${preset}-${players}.json`);
}

const solved = new Map<string, GameEquity>();

/** The rules an equity data file was measured under, at its table size. */
export function equityRules(data: EquityData) {
  return resolveRules({ preset: data.preset, rules: data.overrides, players: data.players });
}

/** The equity of data: heads-up solved (a few seconds, so once per distinct data), else the learned predictor. */
export function solveEquityData(data: EquityData): GameEquity {
  const key = JSON.stringify(data);
  let equity = solved.get(key);
  if (!equity) {
    equity = isHeadsUpData(data)
      ? solveHeadsUpEquity(equityRules(data), data.model)
      : new SeatEquity(equityRules(data), data.players, data.predictor);
    solved.set(key, equity);
  }
  return equity;
}

/** The table sizes a preset ships an equity for. */
export function shippedEquitySizes(preset: string): number[] {
  return Array.from({ length: 7 }, (_, i) => i + 2).filter((players) => existsSync(shippedEquityFile(preset, players)));
}

/** The shipped equity of a preset and table size; one not shipped is an EquityError naming the file expected. */
export function shippedEquity(preset: string): HeadsUpEquity;
export function shippedEquity(preset: string, players: number): GameEquity;
export function shippedEquity(preset: string, players = 2): GameEquity {
  const file = shippedEquityFile(preset, players);
  if (!existsSync(file))
    throw new EquityError(`no game equity ships for ${preset} with ${players} players (expected ${file}; make it with yaniv equity)`);
  const data = readEquityData(file);
  if (data.preset !== preset || data.players !== players)
    throw new EquityError(`${file} holds the equity of ${data.preset} with ${data.players} players`);
  return solveEquityData(data);
}
