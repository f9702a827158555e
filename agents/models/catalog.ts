/**
 * The catalog of shipped models: every folder of `models/` that holds a model, keyed by what its
 * card says it was trained for (a preset with its overrides, and table sizes). `modelFor` picks the
 * model a table plays: the one trained for its rules and size, else the nearest trained size of
 * its preset, else the default model (`models/standard`) — and says which, and why it may play
 * below its strength there. The folders are the one list: shipping a model is adding a folder.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RuleChoice } from '../../env/rules/rules.js';
import { MODEL_JSON } from '../../nn/modelFiles.js';
import { type ModelCard, readModelCard, trainedUnder, trainingMismatch } from './modelCard.js';
import { DEFAULT_MODEL, MODELS_FOLDER, packageRoot } from './modelFolder.js';

export interface CatalogEntry {
  /** The model's folder relative to the package root (`models/standard`): `neural:<folder>` plays it. */
  readonly folder: string;
  readonly card: ModelCard;
}

/** How a model fits the table it was picked for: trained there, the preset's nearest trained size, or the default model. */
export const MODEL_FITS = ['trained', 'nearest-size', 'default'] as const;
export type ModelFit = (typeof MODEL_FITS)[number];

export interface ModelChoice extends CatalogEntry {
  readonly fit: ModelFit;
  /** Why it may play below its measured strength at this table (trainingMismatch), or null. */
  readonly mismatch: string | null;
}

let cached: readonly CatalogEntry[] | undefined;

/** The shipped models, by folder name (read once; a folder whose card is malformed is an error naming it). */
export function shippedModels(): readonly CatalogEntry[] {
  if (cached) return cached;
  const root = path.join(packageRoot(), MODELS_FOLDER);
  const names = existsSync(root)
    ? readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(path.join(root, entry.name, MODEL_JSON)))
        .map((entry) => entry.name)
        .sort()
    : [];
  cached = names.map((name) => ({ folder: `${MODELS_FOLDER}/${name}`, card: readModelCard(path.join(root, name)) }));
  return cached;
}

/** Fewer trained sizes first (a model trained for this size alone beats one shared with others), then the folder name. */
function bySpecialisation(a: CatalogEntry, b: CatalogEntry): number {
  return a.card.players.length - b.card.players.length || (a.folder < b.folder ? -1 : 1);
}

/** Distance from a table size to the nearest size a model was trained at. */
function sizeGap(entry: CatalogEntry, players: number): number {
  return Math.min(...entry.card.players.map((size) => Math.abs(size - players)));
}

/**
 * The shipped model a table with these rules and this many seats plays: one trained under its
 * rules at its size (the preset's own with the same overrides first, then the preset's with other
 * overrides), else the preset's nearest trained size, else the default model. A tie goes to the
 * larger size: a model trained at N seats has also played every smaller number of seats in play
 * (its games eliminate seats), never more (measured: at 3 seats the 4-seat model against the
 * heads-up one, models/README.md).
 */
export function modelFor(rules: RuleChoice, players: number, catalog: readonly CatalogEntry[] = shippedModels()): ModelChoice {
  const ofPreset = catalog.filter((entry) => entry.card.rules.preset === rules.preset);
  const exactRules = ofPreset.filter((entry) => trainedUnder(entry.card, rules));
  const atSize = (entries: CatalogEntry[]) => entries.filter((entry) => entry.card.players.includes(players)).sort(bySpecialisation)[0];
  const nearestSize = () =>
    [...(exactRules.length ? exactRules : ofPreset)].sort(
      (a, b) =>
        sizeGap(a, players) - sizeGap(b, players) || Math.max(...b.card.players) - Math.max(...a.card.players) || bySpecialisation(a, b),
    )[0];
  const trained = atSize(exactRules) ?? atSize(ofPreset);
  const nearest = trained ? undefined : nearestSize();
  const [chosen, fit]: [CatalogEntry | undefined, ModelFit] = trained
    ? [trained, 'trained']
    : nearest
      ? [nearest, 'nearest-size']
      : [catalog.find((entry) => entry.folder === DEFAULT_MODEL), 'default'];
  if (!chosen) throw new Error(`the shipped model is missing: no ${MODEL_JSON} in ${path.join(packageRoot(), DEFAULT_MODEL)}`);
  return { ...chosen, fit, mismatch: trainingMismatch(chosen.card, rules, players) };
}
