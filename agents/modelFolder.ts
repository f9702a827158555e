/**
 * Where trained models live and what their folders say, without loading tfjs: the shipped default
 * model, the folder a `neural:PATH` names, and a short card of a model's metadata.json for the
 * server's welcome.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PRESET, type PresetName, isPresetName } from '../env/rules/rules.js';
import { METADATA_JSON, MODEL_JSON } from '../nn/modelFiles.js';

/** The folder of the model shipped for a preset, relative to the package root (it may not exist). */
function presetModelFolder(preset: PresetName): string {
  return `models/${preset}`;
}

/** The shipped default model, relative to the package root. */
export const DEFAULT_MODEL = presetModelFolder(DEFAULT_PRESET);

/** The folder holding package.json, found from this file (works from the sources and from dist/). */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the package root (package.json) above agents/');
    dir = parent;
  }
  return dir;
}

/** The model shipped for a rule preset (`models/<preset>`, relative to the package root), or null when none ships for it. */
export function shippedModelFor(preset: string): string | null {
  if (!isPresetName(preset)) return null;
  const folder = presetModelFolder(preset);
  return existsSync(path.join(packageRoot(), folder, MODEL_JSON)) ? folder : null;
}

/**
 * The model folder a `neural:PATH` names: PATH itself when it holds model.json, else a training
 * run's `best/` (the best evaluated network) or `checkpoint/` (the latest). A relative PATH found
 * nowhere under the working directory is looked for in the package (`neural:models/dutch` works
 * from any directory). No PATH: the shipped model.
 */
export function resolveModelDir(arg?: string): string {
  const bases =
    arg === undefined || arg === ''
      ? [path.join(packageRoot(), DEFAULT_MODEL)]
      : [path.resolve(arg), ...(path.isAbsolute(arg) ? [] : [path.join(packageRoot(), arg)])];
  for (const base of bases)
    for (const dir of [base, path.join(base, 'best'), path.join(base, 'checkpoint')]) {
      if (existsSync(path.join(dir, MODEL_JSON))) return dir;
    }
  const base = bases[0];
  throw new Error(
    arg === undefined || arg === ''
      ? `the shipped model is missing: no ${MODEL_JSON} in ${base}`
      : `no model in ${base}: expected ${MODEL_JSON} there or in its best/ or checkpoint/ folder`,
  );
}

/** What a client is told of a trained model: its versions, network, training and measured strength. */
export interface ModelCard {
  observationVersion: unknown;
  actionSpaceVersion: unknown;
  hiddenUnits: unknown;
  createdAt: unknown;
  rules: unknown;
  players: unknown;
  episodes: unknown;
  wallSeconds: unknown;
  /** The trainer's last evaluation (win rates with 95% intervals). */
  evaluation: unknown;
  /** The published benchmark of a shipped model (models/README.md), when its metadata holds one. */
  benchmark: unknown;
  /** The reward it was trained on, and the return its value head predicts ("round" or "game"): what its value means. */
  reward: unknown;
  returnHorizon: unknown;
  /** The agent whose choice the network reads as a feature (yaniv train --adviser), null if none: it decides with the model. */
  adviser: unknown;
}

/** The adviser a model was trained with (yaniv train --adviser): its training record's `hyperParameters.adviser`, or null. */
export function adviserOf(training: Record<string, unknown>): string | null {
  const adviser = (training.hyperParameters as { adviser?: unknown } | undefined)?.adviser;
  return typeof adviser === 'string' ? adviser : null;
}

/** Reads a model folder's metadata.json into a ModelCard (the loader validates it in full). */
export function readModelCard(arg?: string): ModelCard {
  const dir = resolveModelDir(arg);
  const file = path.join(dir, METADATA_JSON);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null) throw new Error(`${file} is not a JSON object`);
  const meta = raw as Record<string, unknown>;
  const network = (meta.network ?? {}) as Record<string, unknown>;
  const training = (meta.training ?? {}) as Record<string, unknown>;
  return {
    observationVersion: meta.observationVersion,
    actionSpaceVersion: meta.actionSpaceVersion,
    hiddenUnits: network.hiddenUnits,
    createdAt: meta.createdAt,
    rules: training.rules,
    players: training.players,
    episodes: training.episodes,
    wallSeconds: training.wallSeconds,
    evaluation: training.evaluation ?? null,
    benchmark: training.benchmark ?? null,
    reward: training.reward ?? null,
    returnHorizon: training.returnHorizon ?? null,
    adviser: adviserOf(training),
  };
}

/**
 * Why a model may play below its strength at this table: the rules or table size differ from
 * those it was trained on (its card's `rules` and `players`); null when they match or the card
 * does not say.
 */
export function trainingMismatch(
  card: Pick<ModelCard, 'rules' | 'players'>,
  preset: string,
  overrides: object,
  players: number,
): string | null {
  const trained = (card.rules ?? {}) as { preset?: unknown; overrides?: unknown };
  const sizes = Array.isArray(card.players) ? (card.players as unknown[]) : null;
  const problems: string[] = [];
  const trainedOverrides = trained.overrides && typeof trained.overrides === 'object' ? trained.overrides : {};
  if (typeof trained.preset === 'string' && (trained.preset !== preset || JSON.stringify(trainedOverrides) !== JSON.stringify(overrides)))
    problems.push(
      `rules ${preset}${Object.keys(overrides).length ? ` + ${JSON.stringify(overrides)}` : ''} (trained on ${trained.preset})`,
    );
  if (sizes && !sizes.includes(players)) problems.push(`${players} players (trained on ${sizes.join(', ')})`);
  return problems.length ? `plays ${problems.join(' and ')}: expect it below its measured strength` : null;
}
