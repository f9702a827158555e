/**
 * The held-out checks of the advisor's chance to win, as `yaniv calibrate --json` writes them
 * (cli/calibrate.ts), and the ones shipped: `models/calibration/<preset>-<players>.json`, one per
 * table the advice ships a calibration map for, played on a seed the map was not fitted on. Read
 * at one edge (zod) by the reliability diagrams (`reliabilitySpec`, drawn by scripts/calibrationCharts.ts
 * and `yaniv calibrate --chart`) and the decile tables of models/README.md (scripts/docs.ts).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type * as vl from 'vega-lite';
import { z } from 'zod';
import { PRESET_NAMES, type PresetName } from '../../env/rules/rules.js';
import { oneOf } from '../../support/zod.js';
import { packageRoot } from '../models/modelFolder.js';
import { decileSchema } from './calibration.js';
import { CalibrationError, calibrationProvenanceSchema } from './calibrationMap.js';

/** Where the shipped held-out checks live, relative to the package root. */
export const CALIBRATION_CHECKS_DIR = 'models/calibration';

const deciles = z.array(decileSchema);

/** One table size of a check: the deciles of the chance shown, and where a map shipped, the deciles before it. */
export const sizeCalibrationSchema = z.strictObject({
  players: z.int().min(2).max(8),
  positions: z.int().min(0),
  games: z.int().min(0),
  deciles,
  /** The largest |actual − predicted| over the judged deciles. */
  worstGap: z.number().min(0),
  /** Where a calibration map shipped: the chance before it, by decile, and the map's provenance. */
  unmapped: z.strictObject({ deciles, worstGap: z.number().min(0), map: calibrationProvenanceSchema }).optional(),
});

export type SizeCalibration = z.infer<typeof sizeCalibrationSchema>;

export const calibrationCheckSchema = z.strictObject({
  /** The command's options and rule choice (more fields than read here). */
  config: z.looseObject({
    preset: oneOf(PRESET_NAMES as [PresetName, ...PresetName[]]),
    agent: z.string().min(1),
    games: z.int().min(1),
    seed: z.int(),
    worlds: z.int().min(1),
  }),
  sizes: z.array(sizeCalibrationSchema).min(1),
  seconds: z.number().min(0),
});

export type CalibrationCheck = z.infer<typeof calibrationCheckSchema>;

export function readCalibrationCheck(file: string): CalibrationCheck {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CalibrationError(`the calibration check ${file} cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = calibrationCheckSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CalibrationError(`${file}: ${issue.path.join('.') || 'the document'} ${issue.message}`);
}

/** A shipped check of one table: its preset, and the size's figures with the run they came from. */
export interface ShippedCheck {
  readonly preset: PresetName;
  readonly size: SizeCalibration;
  readonly config: CalibrationCheck['config'];
  readonly seconds: number;
}

/** Every shipped held-out check, by preset (in the presets' order), then table size. */
export function shippedCalibrationChecks(root = packageRoot()): ShippedCheck[] {
  const folder = path.join(root, CALIBRATION_CHECKS_DIR);
  if (!existsSync(folder)) return [];
  const found = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const check = readCalibrationCheck(path.join(folder, name));
      return check.sizes.map((size) => ({ preset: check.config.preset, size, config: check.config, seconds: check.seconds }));
    });
  const order = (c: ShippedCheck) => PRESET_NAMES.indexOf(c.preset) * 10 + c.size.players;
  return found.sort((a, b) => order(a) - order(b));
}

/**
 * The reliability diagram, a panel per table size: each decile's share won (with its interval)
 * against its mean shown chance, the diagonal for reference; a judged decile (its interval within
 * ±3 points) a filled point, one not judged hollow, each labelled with its positions.
 */
export function reliabilitySpec(sizes: readonly SizeCalibration[], title: string): vl.TopLevelSpec {
  const values = sizes.flatMap((s) => s.deciles.map((d) => ({ ...d, table: `${s.players} players` })));
  const x = { field: 'predicted', type: 'quantitative' as const, scale: { domain: [0, 1] }, title: 'chance to win shown (decile mean)' };
  const y = { field: 'actual', type: 'quantitative' as const, scale: { domain: [0, 1] }, title: 'share of those positions won' };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: { values },
    facet: { field: 'table', type: 'nominal', title: null, sort: sizes.map((s) => `${s.players} players`) },
    columns: Math.min(sizes.length, 4),
    spec: {
      width: 220,
      height: 220,
      layer: [
        {
          // One row a panel (the diagonal is drawn once, not once a decile).
          transform: [{ aggregate: [{ op: 'count', as: 'deciles' }] }],
          mark: { type: 'rule', color: '#999', strokeDash: [4, 4] },
          encoding: { x: { datum: 0, type: 'quantitative' }, y: { datum: 0, type: 'quantitative' }, x2: { datum: 1 }, y2: { datum: 1 } },
        },
        { mark: { type: 'rule' }, encoding: { x, y: { ...y, field: 'actualLow' }, y2: { field: 'actualHigh' } } },
        { mark: { type: 'line' }, encoding: { x, y } },
        { transform: [{ filter: 'datum.judged' }], mark: { type: 'point', filled: true, size: 40 }, encoding: { x, y } },
        { transform: [{ filter: '!datum.judged' }], mark: { type: 'point', filled: false, size: 40 }, encoding: { x, y } },
        {
          mark: { type: 'text', dx: 6, dy: 10, fontSize: 8, align: 'left' },
          encoding: { x, y, text: { field: 'positions', type: 'quantitative' } },
        },
      ],
    },
  };
}
