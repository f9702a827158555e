/**
 * The game equity as shipped data (`models/equity/<preset>-<players>.json`, written by `yaniv
 * equity`): reading and checking a file, and solving it once per file (env/gym/equity.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { EQUITY_FORMAT, type EquityData, EquityError, type HeadsUpEquityData, isHeadsUpData } from '../../env/gym/equityData.js';
import { type GameEquity } from '../../env/gym/equity.js';
import { HeadsUpEquity, solveHeadsUpEquity } from '../../env/gym/headsUpEquity.js';
import { SeatEquity } from '../../env/gym/seatEquity.js';
import { PRESET_NAMES, type Rules, resolveRules, rulesJson } from '../../env/rules/rules.js';
import { packageRoot } from '../models/modelFolder.js';

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

/**
 * Solved heads-up values are kept in the system's temporary folder, by a hash of the data they
 * were solved from: the solve takes seconds of CPU, and every process that needs the equity
 * (a server's first advice, a test file, a training run) would pay it. The cache is a derived
 * copy, checked by its size and rebuilt when missing or unreadable.
 */
function cachedHeadsUp(data: HeadsUpEquityData): HeadsUpEquity {
  const rules = equityRules(data);
  const side = rules.eliminationLimit + 1;
  const file = path.join(tmpdir(), 'yaniv-equity', `${createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 32)}.f64`);
  try {
    const bytes = readFileSync(file);
    if (bytes.length === side * side * 2 * 8 + 4) {
      const values = new Float64Array(bytes.buffer.slice(bytes.byteOffset + 4, bytes.byteOffset + bytes.length));
      return new HeadsUpEquity(rules, values, bytes.readUInt32LE(0));
    }
  } catch {
    // Not solved on this machine yet (or unreadable): solve it.
  }
  const equity = solveHeadsUpEquity(rules, data.model);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const header = Buffer.alloc(4);
    header.writeUInt32LE(equity.sweeps, 0);
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, Buffer.concat([header, Buffer.from(equity.values.buffer, equity.values.byteOffset, equity.values.byteLength)]));
    renameSync(partial, file);
  } catch {
    // A read-only temporary folder only costs the next process the solve.
  }
  return equity;
}

/** The equity of data: heads-up solved (seconds: once per distinct data, and cached on disk), else the learned predictor. */
export function solveEquityData(data: EquityData, { cache = true }: { cache?: boolean } = {}): GameEquity {
  const key = JSON.stringify(data);
  let equity = cache ? solved.get(key) : undefined;
  if (!equity) {
    if (isHeadsUpData(data)) equity = cache ? cachedHeadsUp(data) : solveHeadsUpEquity(equityRules(data), data.model);
    else equity = new SeatEquity(equityRules(data), data.players, data.predictor);
    if (cache) solved.set(key, equity);
  }
  return equity;
}

/** Per rules and size (any a client names: the least recently asked go first), the shipped equity or none. */
const byRules = new LRUCache<string, { readonly equity: GameEquity | null }>({ max: 256 });

/** The preset whose rules these settled rules are (no overrides) and that ships an equity at this size, or null. */
export function shippedEquityPreset(rules: Rules, players: number): string | null {
  const wanted = rulesJson(rules);
  return (
    PRESET_NAMES.find(
      (name) => existsSync(shippedEquityFile(name, players)) && JSON.stringify(resolveRules({ preset: name, players })) === wanted,
    ) ?? null
  );
}

/**
 * The shipped equity for a table under these settled rules at this size: the one of the preset
 * whose rules these are (no overrides), or null when no preset matches or none ships for the size.
 */
export function shippedEquityFor(rules: Rules, players: number): GameEquity | null {
  const key = `${players} ${rulesJson(rules)}`;
  let found = byRules.get(key);
  if (found === undefined) {
    const preset = shippedEquityPreset(rules, players);
    found = { equity: preset ? shippedEquity(preset, players) : null };
    byRules.set(key, found);
  }
  return found.equity;
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
