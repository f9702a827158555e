/**
 * The game equity as shipped data (`models/equity/<preset>-<players>.json`, written by `yaniv
 * equity`): reading and checking a file, and solving it once per file (env/gym/equity.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { EQUITY_FORMAT, type EquityData, EquityError, type HeadsUpEquity, solveHeadsUpEquity } from '../env/gym/equity.js';
import { resolveRules } from '../env/rules/rules.js';
import { packageRoot } from './modelFolder.js';

/** Where the shipped equity files live, relative to the package root. */
export const EQUITY_DIR = 'models/equity';

const count = z.int().min(0);
const pairs = z.record(z.string().regex(/^\d+$/), z.tuple([count, count]));
const roleTable = z.strictObject({ starter: pairs, other: pairs });

const equityDataSchema = z.strictObject({
  format: z.literal(EQUITY_FORMAT),
  preset: z.string().min(1),
  overrides: z.record(z.string(), z.unknown()),
  players: z.literal(2),
  agent: z.string().min(1),
  model: z.strictObject({
    rounds: count,
    outcomes: z.array(z.tuple([count, count, count])).min(1),
    landing: roleTable,
    scored: roleTable,
  }),
});

/** Checks parsed JSON as equity data; a bad document throws EquityError naming the field. */
export function parseEquityData(value: unknown, source: string): EquityData {
  const parsed = equityDataSchema.safeParse(value);
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

const solved = new Map<string, HeadsUpEquity>();

/** The equity solved from data (once per distinct data: solving takes a few seconds). */
export function solveEquityData(data: EquityData): HeadsUpEquity {
  const key = JSON.stringify(data);
  let equity = solved.get(key);
  if (!equity) {
    equity = solveHeadsUpEquity(resolveRules({ preset: data.preset, rules: data.overrides, players: data.players }), data.model);
    solved.set(key, equity);
  }
  return equity;
}

/** The shipped equity of a preset, heads-up; a preset without one is an EquityError naming the file expected. */
export function shippedEquity(preset: string, players = 2): HeadsUpEquity {
  const file = shippedEquityFile(preset, players);
  if (!existsSync(file))
    throw new EquityError(`no game equity ships for ${preset} with ${players} players (expected ${file}; make it with yaniv equity)`);
  return solveEquityData(readEquityData(file));
}
