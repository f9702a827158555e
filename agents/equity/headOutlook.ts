/**
 * The advice's figures from the model's own evaluation (agents/equity/qHead.ts) instead of
 * playouts: the shipped model trained under the table's rules, when its card names a q head
 * trained at the table's size, evaluates its trunk once on the seat's
 * observation, and the head gives every candidate's chance to win and points from it. The same
 * judgement as the playouts' (`judgeMeans`: the first candidate unless another is above it by more
 * than the head's margin; moves within the margin are about the same), the chance shown through
 * the table's calibration map, each figure with the head's held-out 95% error as its interval.
 * It reads the seat's observation and view only.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MODEL_CONTRACT } from '../../env/gym/modelContract.js';
import type { PlayerView } from '../../env/rules/view.js';
import { loadNetwork } from '../../nn/persistence.js';
import { SinglePolicyValueEvaluator } from '../../nn/singleEvaluator.js';
import { parseConfig } from '../../nn/config.js';
import { shippedModels } from '../models/catalog.js';
import { resolveRules, rulesJson } from '../../env/rules/rules.js';
import { packageRoot } from '../models/modelFolder.js';
import { type CalibrationMap, calibrateEstimate } from './calibrationMap.js';
import { type Estimate, type MoveOutlook, judgeMeans, viewReasons } from './moveOutlook.js';
import { QHead, type MoveValues, moveContext, qHeadFileSchema } from './qHead.js';

/** A table's evaluation: its model's trunk and the head on it. */
export interface TableHead {
  readonly folder: string;
  readonly trunk: SinglePolicyValueEvaluator;
  readonly head: QHead;
}

const loaded = new Map<string, Promise<TableHead | null>>();

/** The model folder and head file per table asked about (its size and rules as JSON): at most TABLES_KEPT, the oldest dropped first. */
const tables = new Map<string, { folder: string; file: string } | null>();
/** Tables are few (a client may name rule overrides: the cache stays bounded all the same). */
const TABLES_KEPT = 64;

/**
 * The evaluation of the moves of the seat's table: the q head of the shipped model trained under
 * exactly these rules (the view's own, resolved) whose head was trained at this table size, or
 * null when none is (the advice plays its moves out then). Loaded once per model; which model
 * fits is found once per table (every shipped card's rules resolved: ≈ 12 µs a request otherwise).
 */
export function tableHead(view: Pick<PlayerView, 'rules' | 'players'>): Promise<TableHead | null> {
  const rules = rulesJson(view.rules);
  const key = `${view.players} ${rules}`;
  let fits = tables.get(key);
  if (fits === undefined) {
    fits = headFor(view.players, rules);
    tables.set(key, fits);
    if (tables.size > TABLES_KEPT) tables.delete(tables.keys().next().value as string);
  }
  if (fits === null) return Promise.resolve(null);
  const { folder, file } = fits;
  let found = loaded.get(folder);
  if (!found) {
    found = loadHead(path.join(packageRoot(), folder), file, folder);
    loaded.set(folder, found);
  }
  return found;
}

/** The shipped model trained under exactly these rules (resolved, as JSON) with a q head at this size, or null. */
function headFor(players: number, rules: string): { folder: string; file: string } | null {
  const entry = shippedModels().find(
    ({ card }) =>
      card.qHead?.players.includes(players) === true &&
      JSON.stringify(resolveRules({ preset: card.rules.preset, rules: card.rules.rules, players })) === rules,
  );
  return entry?.card.qHead ? { folder: entry.folder, file: entry.card.qHead.file } : null;
}

async function loadHead(dir: string, file: string, folder: string): Promise<TableHead> {
  const where = path.join(dir, file);
  const head = parseConfig(qHeadFileSchema, JSON.parse(readFileSync(where, 'utf8')), where);
  const { network } = await loadNetwork(dir, MODEL_CONTRACT);
  return { folder, trunk: new SinglePolicyValueEvaluator(network), head: new QHead(head) };
}

/** The head's values of `candidates` from one pass of the trunk over the seat's observation (`roundStart`: `roundStartEquity`). */
export function headValues(
  table: TableHead,
  view: PlayerView,
  observation: Float32Array,
  roundStart: number,
  candidates: readonly number[],
): MoveValues {
  const h = table.trunk.trunkOf(observation);
  return table.head.values(h, moveContext(view), roundStart, candidates, (a) => table.trunk.baseLogit(h, a));
}

/** A figure with the head's error as its interval, kept within [min, max]. */
function within(mean: number, error: number, min: number, max: number): Estimate {
  const clamp = (x: number) => Math.min(Math.max(x, min), max) + 0;
  return { mean: clamp(mean), low: clamp(mean - error), high: clamp(mean + error) };
}

/** The candidates judged by the model's evaluation, in the candidates' order (as moveOutlooks gives them). */
export function headOutlooks(
  table: TableHead,
  view: PlayerView,
  observation: Float32Array,
  candidates: readonly number[],
  roundStart: number,
  calibration: CalibrationMap | null,
): MoveOutlook[] {
  const { win, points } = headValues(table, view, observation, roundStart, candidates);
  const { margin, heldOut } = table.head.file;
  const standings = judgeMeans(win, margin);
  return candidates.map((action, i) => ({
    action,
    win: calibrateEstimate(calibration, within(win[i], heldOut.win95, 0, 1)),
    points: within(points[i], heldOut.points95, 0, Infinity),
    reasons: viewReasons(view, action),
    standing: standings[i],
  }));
}
