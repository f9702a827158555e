/**
 * `level:K`: the best shipped bot played at a chosen strength, the way a weaker person plays
 * rather than a random one. At each decision the best bot's policy is sampled at the level's
 * temperature (T = 0: its own choice; large T: any sensible move about as likely as another),
 * and when the best bot calls Yaniv the level calls with the level's share, else plays on as if
 * it had not noticed. Whatever the temperature it never makes an absurd move (`absurdMove`): it
 * never calls Yaniv where the best bot would not, never keeps a loose high card while laying
 * less, and never takes a high card from the pile that makes no group with its hand; the best
 * bot's own choice is always allowed. The levels' settings and their measured ratings ship as
 * data per preset and table size (models/levels/PRESET-PLAYERS.json, made by `yaniv rate`).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { z } from 'zod';
import { actionToMove } from '../env/gym/actionMoves.js';
import { YANIV_ACTION } from '../env/gym/actionLayout.js';
import { explaining, type Agent, type Decision, type DecisionInput } from '../env/gym/agent.js';
import type { Card, PlayerView } from '../env/index.js';
import { type Rng, seededRng } from '../env/rules/random.js';
import { nearestSize } from '../env/rules/tableSizes.js';
import { packageRoot } from './models/modelFolder.js';
import { type AgentSpec, AgentSpecError } from './agentSpec.js';
import type { ModelFit } from './models/catalog.js';
import { discardOptions, formsGroupWith, valuesOf } from './bots/tactics.js';

/** A card worth this much or more is a high card (under the standard values: 10, J, Q, K). */
export const HIGH_CARD = 10;

export const LEVELS_FORMAT = 'yaniv-levels/1';

/** The share of the best bot's calls a level of this temperature makes: all at 0, 3 points fewer per unit, at least 3 in 4. */
export function yanivShareAt(temperature: number): number {
  return Math.max(0.75, 1 - 0.03 * temperature);
}

/** How one level plays. */
export const levelSettingSchema = z.strictObject({
  /** The temperature the best bot's policy is sampled at (0: its own choice). */
  temperature: z.number().min(0),
  /** The share of the best bot's Yaniv calls the level makes. */
  yanivShare: z.number().min(0).max(1),
});
export type LevelSetting = z.output<typeof levelSettingSchema>;

const ratedLevelSchema = levelSettingSchema.extend({
  level: z.int().min(1),
  /** Its rating on the `yaniv rate` scale, with the 95% interval. */
  rating: z.number(),
  low: z.number(),
  high: z.number(),
});

export const levelsFileSchema = z.strictObject({
  format: z.literal(LEVELS_FORMAT),
  preset: z.string(),
  players: z.int().min(2).max(8),
  /** The agent spec the levels play (the best shipped bot). */
  best: z.string(),
  anchor: z.string(),
  anchorRating: z.number(),
  /** The `yaniv rate` command that measured the ratings. */
  ratedBy: z.string(),
  /** Other agents' ratings from the same run, for scale. */
  reference: z.record(z.string(), z.number()),
  levels: z.array(ratedLevelSchema).min(1),
});
export type LevelsFile = z.output<typeof levelsFileSchema>;

/** The folder of the shipped levels, relative to the package root. */
export const LEVELS_FOLDER = 'models/levels';

/** The levels shipped for a preset and table size, or null when none ship (a malformed file throws naming it). */
export function shippedLevels(preset: string, players: number): LevelsFile | null {
  const file = path.join(packageRoot(), LEVELS_FOLDER, `${preset}-${players}.json`);
  if (!existsSync(file)) return null;
  const parsed = levelsFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a ${LEVELS_FORMAT} file: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** The cards of the move, when it lays or takes some. */
function cardsOf(view: PlayerView, action: number): { laid: readonly Card[] } | { taken: Card } | null {
  const move = actionToMove(view, action);
  if (move.type === 'discard') return { laid: move.cards };
  if (move.type === 'draw' && move.source !== 'deck') return { taken: move.source };
  return null;
}

/**
 * Why a move is one no sensible person makes, or null: calling Yaniv (the level calls only when
 * the best bot does, apart from this check); laying fewer points than a loose high card of the
 * hand (one in no group with the rest) while keeping that card; taking a high card from the pile
 * that makes no group with the hand.
 */
export function absurdMove(view: PlayerView, action: number): string | null {
  if (action === YANIV_ACTION) return 'a Yaniv call the best bot would not make';
  const cards = cardsOf(view, action);
  if (cards === null) return null;
  const values = valuesOf(view);
  if ('taken' in cards) {
    return values[cards.taken] >= HIGH_CARD && !formsGroupWith(view.hand, cards.taken, view)
      ? 'takes a high card that makes no group with the hand'
      : null;
  }
  const laidPoints = cards.laid.reduce((sum, card) => sum + values[card], 0);
  const unlaid = [...cards.laid];
  const kept = view.hand.filter((card) => {
    const at = unlaid.indexOf(card);
    if (at >= 0) unlaid.splice(at, 1);
    return at < 0;
  });
  const grouped = new Set(discardOptions(view).flatMap((option) => (option.cards.length >= 2 ? option.cards : [])));
  const looseHigh = kept.find((card) => values[card] >= HIGH_CARD && values[card] > laidPoints && !grouped.has(card));
  return looseHigh === undefined ? null : 'keeps a loose high card while laying fewer points';
}

/** The best bot at a level's setting (see the file's comment); `name` is how tournaments show it. */
export function levelAgent(best: Agent, setting: LevelSetting, name: string): Agent {
  let rng: Rng = seededRng(0);
  const decide = (input: DecisionInput): Decision => {
    const decision = best.act(explaining(input));
    if (decision.action === YANIV_ACTION && uniformFloat64(rng) < setting.yanivShare) return { action: YANIV_ACTION };
    const policy = decision.policy;
    if (setting.temperature === 0 || !policy)
      return decision.action === YANIV_ACTION ? playOn(input, decision) : { action: decision.action };
    const top = Math.max(...policy.scores);
    const candidates = policy.actions.map((action, i) => ({ action, weight: tempered(policy.scores[i], top, setting.temperature) }));
    while (candidates.length > 0) {
      const pick = sample(candidates, rng);
      const { action } = candidates[pick];
      if (action === decision.action ? action !== YANIV_ACTION : absurdMove(input.view, action) === null) return { action };
      candidates.splice(pick, 1);
    }
    return playOn(input, decision);
  };
  return {
    name,
    reset(seed: number) {
      rng = seededRng(seed);
      best.reset(seed);
    },
    act: decide,
  };
}

/** Where the level lets a call go that the best bot would make: the best bot's next choice that is not a call. */
function playOn(input: DecisionInput, decision: Decision): Decision {
  const next = decision.policy?.actions.find((action) => action !== YANIV_ACTION);
  return { action: next ?? decision.action };
}

/** (p / top)^(1/T), from the logarithms so that tiny probabilities stay comparable; a floor so that 0 is not −∞. */
function tempered(probability: number, top: number, temperature: number): number {
  return Math.exp((Math.log(Math.max(probability, 1e-30)) - Math.log(Math.max(top, 1e-30))) / temperature);
}

function sample(candidates: readonly { weight: number }[], rng: Rng): number {
  const total = candidates.reduce((sum, c) => sum + c.weight, 0);
  let u = uniformFloat64(rng) * total;
  for (let i = 0; i < candidates.length; i++) {
    u -= candidates[i].weight;
    if (u < 0) return i;
  }
  return candidates.length - 1;
}

/** What a level's setting depends on: the rule preset and the table size. */
export interface LevelTable {
  readonly preset: string;
  readonly players: number;
}

/** The table sizes levels ship for under a preset (models/levels/PRESET-N.json). */
export function shippedLevelSizes(preset: string): number[] {
  const folder = path.join(packageRoot(), LEVELS_FOLDER);
  if (!existsSync(folder)) return [];
  const prefix = `${preset}-`;
  return readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.json'))
    .map((name) => name.slice(prefix.length, -'.json'.length))
    .filter((size) => /^\d+$/.test(size))
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * The levels a table plays: those shipped for its preset and size, else the preset's nearest
 * shipped size (the larger on a tie, as the model catalog picks), said in `mismatch`; null when
 * none ship for the preset.
 */
export function levelsFor(table: LevelTable): { levels: LevelsFile; fit: ModelFit; mismatch: string | null } | null {
  const exact = shippedLevels(table.preset, table.players);
  if (exact !== null) return { levels: exact, fit: 'trained', mismatch: null };
  const sizes = shippedLevelSizes(table.preset);
  if (sizes.length === 0) return null;
  const nearest = nearestSize(sizes, table.players);
  const levels = nearest === undefined ? null : shippedLevels(table.preset, nearest);
  if (levels === null) return null;
  const mismatch = `plays its level rated at ${nearest} seats at ${table.players}: expect its strength to differ from its rating`;
  return { levels, fit: 'nearest-size', mismatch };
}

/** What a `level` spec plays at a table: the setting, the best bot, and how the setting fits the table. */
export interface LevelChoice {
  readonly setting: LevelSetting;
  readonly best: string;
  /** How a `level:K`'s shipped levels fit the table (null for an explicit setting). */
  readonly fit: ModelFit | null;
  readonly mismatch: string | null;
}

/**
 * What a `level` spec plays at a table: `level:K` the shipped setting of level K for the table's
 * preset and size (or its nearest shipped size), `level?temperature=T&yaniv=S&best=SPEC` that
 * setting; a bad one throws AgentSpecError. The best bot is resolved by the caller (the registry's
 * row, with the resolver it is given), so this module knows no registry.
 */
export function resolveLevel(spec: AgentSpec, table: LevelTable): LevelChoice {
  if (spec.arg !== undefined) {
    if (Object.keys(spec.params).length > 0)
      throw new AgentSpecError(`agent "level:${spec.arg}" takes no parameters: a level is its shipped setting`);
    const shipped = levelsFor(table);
    if (shipped === null)
      throw new AgentSpecError(`no levels ship for the ${table.preset} rules (${LEVELS_FOLDER}/${table.preset}-${table.players}.json)`);
    const level = shipped.levels.levels.find((l) => String(l.level) === spec.arg);
    if (!level) throw new AgentSpecError(`level:${spec.arg}: the levels are 1 to ${shipped.levels.levels.length}`);
    const setting = { temperature: level.temperature, yanivShare: level.yanivShare };
    return { setting, best: shipped.levels.best, fit: shipped.fit, mismatch: shipped.mismatch };
  }
  return { setting: levelSetting(spec), best: spec.params.best ?? 'neural', fit: null, mismatch: null };
}

/** The setting an explicit `level?temperature=T&yaniv=S` names; a bad number throws AgentSpecError. */
export function levelSetting(spec: AgentSpec): LevelSetting {
  const number = (key: string, fallback: number, max: number) => {
    const raw = spec.params[key];
    const value = raw === undefined ? fallback : Number(raw);
    if (raw?.trim() === '' || !Number.isFinite(value) || value < 0 || value > max)
      throw new AgentSpecError(`agent "level": parameter ${key} must be a number from 0 to ${max} (got ${JSON.stringify(raw)})`);
    return value;
  };
  const temperature = number('temperature', 0, 1e6);
  return { temperature, yanivShare: number('yaniv', yanivShareAt(temperature), 1) };
}

/** The spec of a setting played by a best bot: `level?temperature=T&yaniv=S&best=SPEC`, which needs no table. */
export function levelSpec(setting: LevelSetting, best: string): string {
  const params = new URLSearchParams({ temperature: String(setting.temperature), yaniv: String(setting.yanivShare), best });
  return `level?${params.toString()}`;
}
