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
import type { GameEquity } from '../../env/gym/equity.js';
import type { GameState } from '../../env/rules/state.js';
import type { PlayerView } from '../../env/rules/view.js';
import { loadNetwork } from '../../nn/persistence.js';
import { SinglePolicyValueEvaluator } from '../../nn/singleEvaluator.js';
import { parseConfig } from '../../nn/config.js';
import { shippedModels } from '../models/catalog.js';
import { resolveRules } from '../../env/rules/rules.js';
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
 * The evaluation of the moves of the seat's table: the q head of the shipped model trained under
 * exactly these rules (the view's own, resolved) whose head was trained at this table size, or
 * null when none is (the advice plays its moves out then). Loaded once per model.
 */
export function tableHead(view: Pick<PlayerView, 'rules' | 'players'>): Promise<TableHead | null> {
  const rules = JSON.stringify(view.rules);
  const entry = shippedModels().find(
    ({ card }) =>
      card.qHead?.players.includes(view.players) === true &&
      JSON.stringify(resolveRules({ preset: card.rules.preset, rules: card.rules.rules, players: view.players })) === rules,
  );
  if (!entry?.card.qHead) return Promise.resolve(null);
  const { folder } = entry;
  let found = loaded.get(folder);
  if (!found) {
    found = loadHead(path.join(packageRoot(), folder), entry.card.qHead.file, folder);
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
