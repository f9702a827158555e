/**
 * A model's card: what its metadata.json says of it that players, benches and the server need —
 * the contract it was trained for, the rules and table sizes it learnt on, its adviser and reward,
 * and its measured strength. One zod schema reads it (a malformed or foreign card is refused
 * naming the field); the trainer writes the fields it reads (training/learner.ts
 * `trainingMetadata`). Reading a card never loads tfjs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MAX_PLAYERS, MIN_PLAYERS, type RuleChoice, ruleSelectionSchema } from '../../env/rules/rules.js';
import { METADATA_JSON } from '../../nn/modelFiles.js';
import { parseConfig } from '../../nn/config.js';

const tableSize = z.number().int().min(MIN_PLAYERS).max(MAX_PLAYERS);

/** One match-up of a trainer's evaluation (training/evaluate.ts) or of a published benchmark. */
const winRateSchema = z.looseObject({
  games: z.number().int().nonnegative(),
  wins: z.number().nonnegative(),
  winRate: z.number().min(0).max(1),
  low: z.number().min(0).max(1),
  high: z.number().min(0).max(1),
});

const evaluationSchema = z.looseObject({
  iteration: z.number().int().nonnegative(),
  episodes: z.number().int().nonnegative(),
  results: z.array(winRateSchema.extend({ opponent: z.string(), players: tableSize, key: z.string() })),
});

/** The published benchmark of a shipped model (models/README.md): `yaniv bench` lines keyed by match-up. */
const benchmarkSchema = z.looseObject({
  machine: z.string().optional(),
  rules: z.string(),
  results: z.record(z.string(), winRateSchema.extend({ command: z.string() })),
});

/** The part of metadata.json's `training` record a card reads (the rest is the run's own). */
const trainingSchema = z.looseObject({
  rules: ruleSelectionSchema.describe('The rules the model was trained under: a preset and overrides'),
  players: z.array(tableSize).min(1).describe('The table sizes it was trained at'),
  episodes: z.number().int().nonnegative().nullable().default(null),
  wallSeconds: z.number().nonnegative().nullable().default(null),
  reward: z.string().nullable().default(null),
  returnHorizon: z.enum(['round', 'game']).nullable().default(null),
  hyperParameters: z.looseObject({ adviser: z.string().nullable().default(null) }).optional(),
  evaluation: evaluationSchema.nullable().default(null),
  benchmark: benchmarkSchema.nullable().default(null),
});

/**
 * The model's own evaluation of moves, when it ships one (agents/equity/qHead.ts): its format and
 * file in the folder, the positions it was trained on and what it measured on held-out ones.
 */
const qHeadCardSchema = z.looseObject({
  version: z.string().min(1).describe('The head file\'s format (yaniv-qhead/1)'),
  file: z.string().min(1).describe('The head file, in the model folder'),
  positions: z.number().int().nonnegative().describe('The positions it was trained on'),
  players: z.array(tableSize).min(1).describe('The table sizes of those positions'),
});

/** One agent's result in a panel pairing: a win rate with its 95% interval and the mean place (1 = won). */
const panelSideSchema = winRateSchema.extend({ agent: z.string().min(1), meanPlace: z.number().min(1).max(MAX_PLAYERS) });

/**
 * One held-out panel result the card keeps (`yaniv bench --panel --card`): the model, then the
 * reference, in one seat against the rest of the table played by one panel member, on the same
 * deals, and their difference paired game by game. Keyed by table size, rules, member and reference.
 */
export const panelResultSchema = z.looseObject({
  players: tableSize,
  rules: ruleSelectionSchema,
  opponent: z.string().min(1).describe('The panel member at every other seat'),
  seed: z.number().int(),
  model: panelSideSchema,
  reference: panelSideSchema,
  difference: z
    .looseObject({ mean: z.number().min(-1).max(1), low: z.number(), high: z.number() })
    .describe("The model's win rate less the reference's, paired over the same deals and seats, with its 95% interval"),
  command: z.string().min(1),
  measured: z.string().min(1).describe('When (ISO date)'),
});

export type PanelResult = z.output<typeof panelResultSchema>;

/** metadata.json as a card reads it: the contract, the network's shape, the training record. */
export const modelMetadataCardSchema = z.looseObject({
  formatVersion: z.literal(1, { error: 'must be 1 (a yaniv-arena model folder)' }),
  observationVersion: z.string().min(1),
  actionSpaceVersion: z.string().min(1),
  actionFeaturesVersion: z.string().min(1).optional(),
  network: z.looseObject({ hiddenUnits: z.array(z.number().int().positive()).min(1) }),
  createdAt: z.string(),
  training: trainingSchema,
  qHead: qHeadCardSchema.optional(),
  panel: z.array(panelResultSchema).optional(),
});

/** What a client is told of a trained model: its contract, network, training and measured strength. */
export interface ModelCard {
  observationVersion: string;
  actionSpaceVersion: string;
  /** The action features an action-scoring network reads; null for one that scores none. */
  actionFeaturesVersion: string | null;
  hiddenUnits: number[];
  createdAt: string;
  /** The rules it was trained under: a preset and the overrides on top of it. */
  rules: RuleChoice;
  /** The table sizes it was trained at. */
  players: number[];
  episodes: number | null;
  wallSeconds: number | null;
  /** The trainer's last evaluation (win rates with 95% intervals). */
  evaluation: z.output<typeof evaluationSchema> | null;
  /** The published benchmark of a shipped model (models/README.md), when its metadata holds one. */
  benchmark: z.output<typeof benchmarkSchema> | null;
  /** The reward it was trained on, and the return its value head predicts ("round" or "game"): what its value means. */
  reward: string | null;
  returnHorizon: 'round' | 'game' | null;
  /** The agent whose choice the network reads as a feature (yaniv train --adviser), null if none: it decides with the model. */
  adviser: string | null;
  /** The model's own evaluation of moves (a q head beside it), null for a model without one. */
  qHead: z.output<typeof qHeadCardSchema> | null;
  /** Its results against the held-out panel beside the reference's on the same deals (none measured: empty). */
  panel: PanelResult[];
}

/** A card from metadata.json's parsed JSON; throws ConfigError naming the field (`what` says whose). */
export function parseModelCard(raw: unknown, what: string): ModelCard {
  const meta = parseConfig(modelMetadataCardSchema, raw, what);
  const { training } = meta;
  return {
    observationVersion: meta.observationVersion,
    actionSpaceVersion: meta.actionSpaceVersion,
    actionFeaturesVersion: meta.actionFeaturesVersion ?? null,
    hiddenUnits: meta.network.hiddenUnits,
    createdAt: meta.createdAt,
    rules: training.rules,
    players: [...new Set(training.players)].sort((a, b) => a - b),
    episodes: training.episodes,
    wallSeconds: training.wallSeconds,
    evaluation: training.evaluation,
    benchmark: training.benchmark,
    reward: training.reward,
    returnHorizon: training.returnHorizon,
    adviser: training.hyperParameters?.adviser ?? null,
    qHead: meta.qHead ?? null,
    panel: meta.panel ?? [],
  };
}

/**
 * The most seats in play at which a model plays its own pick: the largest table size it trained at
 * (a game at that size passes through every smaller count). With more seats in play, a model with
 * an adviser lets the adviser's choice lead (agents/models/neural.ts): measured at 3 and 4 seats, the
 * heads-up model on its own finished below `strong`, and above it with `strong` leading until two
 * seats were left (models/README.md).
 */
export function ownSeats(card: Pick<ModelCard, 'players'>): number {
  return Math.max(...card.players);
}

/** Reads a model folder's card (its metadata.json); throws naming the file and the field. */
export function readModelCard(dir: string): ModelCard {
  const file = path.join(dir, METADATA_JSON);
  return parseModelCard(readMetadataJson(file), file);
}

/** metadata.json's JSON, unparsed; throws naming the file. */
function readMetadataJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * Keeps panel results in a model folder's card: each replaces the one of the same table size,
 * rules, member and reference, the others stay. The card is read by its schema first (a malformed
 * one is refused, not rewritten), and the fields the card does not read are kept as they were.
 */
export function recordPanelResults(dir: string, results: readonly PanelResult[]): void {
  const file = path.join(dir, METADATA_JSON);
  const raw = readMetadataJson(file);
  const card = parseModelCard(raw, file);
  const added = results.map((result) => parseConfig(panelResultSchema, result, 'a panel result'));
  const key = (r: PanelResult) => canonical([r.players, r.rules, r.opponent, r.reference.agent]);
  const replaced = new Set(added.map(key));
  const kept = card.panel.filter((r) => !replaced.has(key(r)));
  raw.panel = [...kept, ...added].sort((a, b) => a.players - b.players || key(a).localeCompare(key(b)));
  writeFileSync(file, JSON.stringify(raw, null, 2) + '\n');
}

/** Object keys sorted at every depth: two overrides objects are the same rules when these match. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** Whether a card was trained under exactly these rules (the preset and the same overrides). */
export function trainedUnder(card: Pick<ModelCard, 'rules'>, rules: RuleChoice): boolean {
  return card.rules.preset === rules.preset && canonical(card.rules.rules) === canonical(rules.rules);
}

/**
 * Why a model may play below its strength at this table: the rules or table size differ from
 * those it was trained on; null when they match. `ownUpTo` is the agent's `own=N` where it moves
 * the line above which the adviser leads.
 */
export function trainingMismatch(
  card: Pick<ModelCard, 'rules' | 'players'> & Partial<Pick<ModelCard, 'adviser'>>,
  rules: RuleChoice,
  players: number,
  ownUpTo?: number,
): string | null {
  const problems: string[] = [];
  if (!trainedUnder(card, rules)) {
    const describe = ({ preset, rules: overrides }: RuleChoice) =>
      `${preset}${Object.keys(overrides).length ? ` + ${canonical(overrides)}` : ''}`;
    problems.push(`rules ${describe(rules)} (trained on ${describe(card.rules)})`);
  }
  if (!card.players.includes(players)) {
    const own = ownUpTo ?? ownSeats(card);
    const lead = card.adviser && players > own ? `; its adviser ${card.adviser} leads while more than ${own} seats are in play` : '';
    problems.push(`${players} players (trained on ${card.players.join(', ')}${lead})`);
  }
  return problems.length ? `plays ${problems.join(' and ')}: expect it below its measured strength` : null;
}
