/**
 * A calibration map for the advisor's chance to win: a monotone function from the chance the
 * playouts give (agents/equity/moveOutlook.ts) to the share of such positions won, fitted on the
 * positions of `yaniv calibrate --fit` (agents/equity/calibration.ts) by isotonic regression —
 * pool-adjacent-violators, written here (thirty lines; no well-kept npm package of it turned up:
 * docs/design.md) — and shipped beside the game equity it was measured with
 * (`models/equity/calibration/<preset>-<players>.json`; a folder of its own, so that every
 * `.json` of models/equity stays equity data). Applied in one place, `calibrateEstimate`, to the
 * mean and both ends of the interval; a table without a map is shown the playouts' chance as is.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Rules } from '../../env/rules/rules.js';
import { EQUITY_DIR, shippedEquityPreset } from './equity.js';
import { packageRoot } from '../models/modelFolder.js';

export const CALIBRATION_FORMAT = 'yaniv-calibration/1';

/**
 * A fitted block of the isotonic regression smaller than this many positions is pooled with a
 * neighbour: fewer knots, less noise followed. Chosen by two-fold cross-validation on the fitting
 * seed's games (odd games against even; 50–800 tried, 200–400 missed least), never the held-out seed.
 */
export const MIN_BLOCK = 400;

/** The knots [chance shown by the playouts, share won], linear between them, flat beyond the ends. */
export type Knot = [number, number];

const share = z.number().min(0).max(1);

/** Where a map came from: everything but its knots. */
export const calibrationProvenanceSchema = z.strictObject({
  format: z.literal(CALIBRATION_FORMAT),
  preset: z.string().min(1),
  players: z.int().min(2).max(8),
  agent: z.string().min(1),
  games: z.int().min(1),
  seed: z.int(),
  worlds: z.int().min(1),
  positions: z.int().min(1),
});

export const calibrationMapSchema = z
  .strictObject({ ...calibrationProvenanceSchema.shape, knots: z.array(z.tuple([share, share])).min(2) })
  .superRefine((map, ctx) => {
    for (let i = 1; i < map.knots.length; i++) {
      const [x0, y0] = map.knots[i - 1];
      const [x1, y1] = map.knots[i];
      if (x1 <= x0) ctx.addIssue({ code: 'custom', path: ['knots', i, 0], message: 'must be above the knot before it' });
      if (y1 < y0)
        ctx.addIssue({ code: 'custom', path: ['knots', i, 1], message: 'must not be below the knot before it (the map is monotone)' });
    }
  });

export type CalibrationMap = z.infer<typeof calibrationMapSchema>;

export class CalibrationError extends Error {
  override name = 'CalibrationError';
}

/** Checks parsed JSON as a calibration map; a bad document throws CalibrationError naming the field. */
export function parseCalibrationMap(value: unknown, source: string): CalibrationMap {
  const parsed = calibrationMapSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CalibrationError(`${source}: ${issue.path.join('.') || 'the document'} ${issue.message}`);
}

export function readCalibrationMap(file: string): CalibrationMap {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const why =
      error instanceof SyntaxError
        ? `is not JSON (${error.message})`
        : `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    throw new CalibrationError(`the calibration map ${file} ${why}`);
  }
  return parseCalibrationMap(value, file);
}

/** The shipped calibration map file of a preset and table size. */
export function shippedCalibrationFile(preset: string, players: number): string {
  return path.join(packageRoot(), EQUITY_DIR, 'calibration', `${preset}-${players}.json`);
}

/** Every shipped calibration map, each checked (and its file name against the table it holds). */
export function shippedCalibrationMaps(): CalibrationMap[] {
  const folder = path.dirname(shippedCalibrationFile('standard', 2));
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const map = readCalibrationMap(path.join(folder, name));
      if (name !== `${map.preset}-${map.players}.json`)
        throw new CalibrationError(`${name} holds the calibration map of ${map.preset} with ${map.players} players`);
      return map;
    });
}

const shipped = new Map<string, CalibrationMap | null>();

/** The map shipped for the table whose shipped equity these rules read, or null (the chance is then shown unmapped). */
export function shippedCalibrationFor(rules: Rules, players: number): CalibrationMap | null {
  const preset = shippedEquityPreset(rules, players);
  if (!preset) return null;
  const file = shippedCalibrationFile(preset, players);
  let map = shipped.get(file);
  if (map === undefined) {
    map = existsSync(file) ? readCalibrationMap(file) : null;
    if (map && (map.preset !== preset || map.players !== players))
      throw new CalibrationError(`${file} holds the calibration map of ${map.preset} with ${map.players} players`);
    shipped.set(file, map);
  }
  return map;
}

/** The chance mapped: linear between knots, flat beyond the ends. */
export function applyCalibration(knots: readonly Knot[], p: number): number {
  if (p <= knots[0][0]) return knots[0][1];
  const last = knots[knots.length - 1];
  if (p >= last[0]) return last[1];
  let hi = 1;
  while (knots[hi][0] < p) hi++;
  const [x0, y0] = knots[hi - 1];
  const [x1, y1] = knots[hi];
  return y0 + ((y1 - y0) * (p - x0)) / (x1 - x0);
}

/** An estimate of the chance with its mean and interval ends mapped (the map is monotone: the order stays); unchanged without a map. */
export function calibrateEstimate<T extends { mean: number; low: number; high: number }>(map: CalibrationMap | null, estimate: T): T {
  if (!map) return estimate;
  const at = (p: number) => applyCalibration(map.knots, p);
  return { ...estimate, mean: at(estimate.mean), low: at(estimate.low), high: at(estimate.high) };
}

interface Block {
  x: number;
  y: number;
  weight: number;
}

function pool(a: Block, b: Block): Block {
  const weight = a.weight + b.weight;
  return { x: (a.x * a.weight + b.x * b.weight) / weight, y: (a.y * a.weight + b.y * b.weight) / weight, weight };
}

/**
 * Isotonic regression of outcome on chance by pool-adjacent-violators: equal chances pooled, then
 * every block whose share won falls below the block before it pooled with it; blocks under
 * `minBlock` positions pooled with the next (pooling neighbours of a monotone sequence keeps it
 * monotone). The knots are the blocks' mean chance and share won.
 */
export function fitIsotonic(pairs: readonly { raw: number; won: boolean }[], minBlock = MIN_BLOCK): Knot[] {
  if (pairs.length === 0) throw new CalibrationError('no positions to fit a calibration map to');
  const sorted = [...pairs].sort((a, b) => a.raw - b.raw);
  const ties: Block[] = [];
  for (const { raw, won } of sorted) {
    const top = ties[ties.length - 1];
    if (top && top.x === raw) top.y += (Number(won) - top.y) / ++top.weight;
    else ties.push({ x: raw, y: Number(won), weight: 1 });
  }
  const blocks: Block[] = [];
  for (const tie of ties) {
    blocks.push(tie);
    while (blocks.length > 1 && blocks[blocks.length - 1].y < blocks[blocks.length - 2].y) blocks.push(pool(blocks.pop()!, blocks.pop()!));
  }
  const sized: Block[] = [];
  for (const block of blocks) {
    const top = sized[sized.length - 1];
    if (top && top.weight < minBlock) sized[sized.length - 1] = pool(top, block);
    else sized.push(block);
  }
  if (sized.length > 1 && sized[sized.length - 1].weight < minBlock) sized.push(pool(sized.pop()!, sized.pop()!));
  if (sized.length < 2)
    throw new CalibrationError(
      `${pairs.length} positions fit one constant, not a map: play more games (blocks of ${minBlock} positions or more)`,
    );
  return sized.map((b): Knot => [b.x, b.y]);
}
