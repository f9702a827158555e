/**
 * The advice's figures from the model's own evaluation (agents/equity/qHead.ts) instead of
 * playouts: the table's shipped model (agents/models/catalog.ts `modelFor`), when its card names a
 * q head and it was trained under the table's rules, evaluates its trunk once on the seat's
 * observation, and the head gives every candidate's chance to win and points from it. The same
 * judgement as the playouts' (`judgeMeans`: the first candidate unless another is above it by more
 * than the head's margin; moves within the margin are about the same), the chance shown through
 * the table's calibration map, each figure with the head's held-out 95% error as its interval.
 * It reads the seat's observation and view only.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MODEL_CONTRACT } from '../../env/gym/modelContract.js';
import type { GameEquity } from '../../env/gym/equity.js';
import type { GameState } from '../../env/rules/state.js';
import type { PlayerView } from '../../env/rules/view.js';
import { loadNetwork } from '../../nn/persistence.js';
import { SinglePolicyValueEvaluator } from '../../nn/singleEvaluator.js';
import { parseConfig } from '../../nn/config.js';
import { type TableKind, ruleChoiceOf } from '../agentSpec.js';
import { modelFor } from '../models/catalog.js';
import { trainedUnder } from '../models/modelCard.js';
import { packageRoot } from '../models/modelFolder.js';
import { type CalibrationMap, calibrateEstimate } from './calibrationMap.js';
import { type Estimate, type MoveOutlook, judgeMeans, viewReasons } from './moveOutlook.js';
import { QHead, type MoveValues, moveContext, qHeadFileSchema, roundStartEquity } from './qHead.js';

/** A table's evaluation: its model's trunk and the head on it. */
export interface TableHead {
  readonly folder: string;
  readonly trunk: SinglePolicyValueEvaluator;
  readonly head: QHead;
}

const loaded = new Map<string, Promise<TableHead | null>>();

/**
 * The evaluation of a table's moves: its shipped model's q head, or null when that model has none,
 * was trained under other rules, or its head was not trained at this table size (the advice plays
 * its moves out then). Loaded once per model.
 */
export function tableHead(table: TableKind): Promise<TableHead | null> {
  const rules = ruleChoiceOf(table);
  const chosen = modelFor(rules, table.players);
  const measured = chosen.card.qHead?.players.includes(table.players) ?? false;
  if (!chosen.card.qHead || !measured || !trainedUnder(chosen.card, rules)) return Promise.resolve(null);
  const { folder } = chosen;
  const file = chosen.card.qHead.file;
  let found = loaded.get(folder);
  if (!found) {
    found = loadHead(path.join(packageRoot(), folder), file, folder);
    loaded.set(folder, found);
  }
  return found;
}

async function loadHead(dir: string, file: string, folder: string): Promise<TableHead> {
  const where = path.join(dir, file);
  const head = parseConfig(qHeadFileSchema, JSON.parse(readFileSync(where, 'utf8')), where);
  const { network } = await loadNetwork(dir, MODEL_CONTRACT);
  return { folder, trunk: new SinglePolicyValueEvaluator(network), head: new QHead(head) };
}

/** The head's values of `candidates` from one pass of the trunk over the seat's observation. */
export function headValues(
  table: TableHead,
  view: PlayerView,
  observation: Float32Array,
  equity: GameEquity,
  candidates: readonly number[],
): MoveValues {
  const h = table.trunk.trunkOf(observation);
  return table.head.values(h, moveContext(view), roundStartEquity(view, equity), candidates, (a) => table.trunk.baseLogit(h, a));
}

/** A figure with the head's error as its interval, kept within [min, max]. */
function within(mean: number, error: number, min: number, max: number): Estimate {
  const clamp = (x: number) => Math.min(Math.max(x, min), max) + 0;
  return { mean: clamp(mean), low: clamp(mean - error), high: clamp(mean + error) };
}

/**
 * The candidates judged by the model's evaluation, in the candidates' order (as moveOutlooks gives
 * them); `world` is any world drawn from the view (the reasons read only the seat's own group laid).
 */
export function headOutlooks(
  table: TableHead,
  view: PlayerView,
  observation: Float32Array,
  world: GameState,
  candidates: readonly number[],
  equity: GameEquity,
  calibration: CalibrationMap | null,
): MoveOutlook[] {
  const { win, points } = headValues(table, view, observation, equity, candidates);
  const { margin, heldOut } = table.head.file;
  const standings = judgeMeans(win, margin);
  return candidates.map((action, i) => ({
    action,
    win: calibrateEstimate(calibration, within(win[i], heldOut.win95, 0, 1)),
    points: within(points[i], heldOut.points95, 0, Infinity),
    reasons: viewReasons(view, action, world),
    standing: standings[i],
  }));
}
