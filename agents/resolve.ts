/**
 * Agent identity at a table: which agent, and which model, a spec plays under these rules at this
 * table size. Every caller that seats or asks an agent — the bench and tournaments, server tables
 * and advice, the trainer's opponents, the server's welcome — resolves through `resolveAgent`, so
 * the same table always gets the same model. Plain `neural` plays the shipped model for the
 * table's (rules, seats) (agents/models/catalog.ts); `neural:PATH` plays PATH; `level:K` its level's setting
 * for the table's preset and size over its best bot (agents/level.ts); other agents are themselves.
 */
import { LRUCache } from 'lru-cache';
import type { Agent } from '../env/gym/agent.js';
import { type RuleChoice, ruleSelectionSchema } from '../env/rules/rules.js';
import { type ModelFit, modelFor } from './models/catalog.js';
import { levelSpec, resolveLevel } from './level.js';
import { type ModelCard, trainingMismatch } from './models/modelCard.js';
import { DEFAULT_MODEL } from './models/modelFolder.js';
import { agentModelCard, createAgent, parseAgentSpec } from './registry.js';

/** The table an agent is resolved for: its rule selection (preset and overrides) and its size. */
export interface TableKind {
  readonly preset?: string;
  /** Overrides on top of the preset (RULES.md names). */
  readonly rules?: object;
  readonly players: number;
}

export interface ResolvedAgent {
  /** The spec as asked (`neural`, `neural?greedy=0`, `strong`). */
  readonly requested: string;
  /** The spec that plays: the model made explicit where plain `neural` plays another than the default. */
  readonly spec: string;
  /** The model folder it plays (relative to the package root for shipped ones), null for agents without a model. */
  readonly model: string | null;
  readonly card: ModelCard | null;
  /** How the shipped model was picked for plain `neural` (null for an explicit model or no model). */
  readonly fit: ModelFit | null;
  /** Why it may play below its measured strength at this table, or null. */
  readonly mismatch: string | null;
}

/** The rule choice of a table (defaults filled: preset standard, no overrides). */
export function ruleChoiceOf(table: TableKind): RuleChoice {
  return ruleSelectionSchema.parse({ preset: table.preset, rules: table.rules ?? {} });
}

/** Per (spec, table kind): advice may name any rule overrides, each a key (the least recently asked go first). */
const resolved = new LRUCache<string, ResolvedAgent>({ max: 1024 });

/**
 * What a spec plays at a table of this kind; throws AgentSpecError for a bad spec. Remembered per
 * (spec, table kind): a server asks it at every bot move, and the catalog does not change while a
 * process runs.
 */
export function resolveAgent(spec: string, table: TableKind): ResolvedAgent {
  const key = JSON.stringify([spec, table.preset, table.rules, table.players]);
  let answer = resolved.get(key);
  if (!answer) {
    resolved.set(key, (answer = resolveAnew(spec, table)));
  }
  return answer;
}

function resolveAnew(spec: string, table: TableKind): ResolvedAgent {
  const parsed = parseAgentSpec(spec);
  const rules = ruleChoiceOf(table);
  if (parsed.name === 'level') {
    // A level plays its best bot's model at the table, at the level's setting.
    const { setting, best } = resolveLevel(parsed, { preset: rules.preset, players: table.players });
    const played = resolveAgent(best, table);
    return { ...played, requested: spec, spec: levelSpec(setting, played.spec) };
  }
  if (parsed.name === 'neural' && !parsed.arg) {
    const choice = modelFor(rules, table.players);
    const query = new URLSearchParams(parsed.params).toString();
    const concrete = choice.folder === DEFAULT_MODEL ? spec : `neural:${choice.folder}${query ? `?${query}` : ''}`;
    return { requested: spec, spec: concrete, model: choice.folder, card: choice.card, fit: choice.fit, mismatch: choice.mismatch };
  }
  const card = agentModelCard(spec);
  return {
    requested: spec,
    spec,
    model: card ? (parsed.arg ?? DEFAULT_MODEL) : null,
    card,
    fit: null,
    mismatch: card ? trainingMismatch(card, rules, table.players) : null,
  };
}

/** The agent a spec plays at a table of this kind, loaded. */
export async function createAgentFor(spec: string, table: TableKind): Promise<Agent> {
  return createAgent(resolveAgent(spec, table).spec);
}

/**
 * What each agent plays at a table of this kind, for people (the bench prints it): a line for each
 * that plays a model — which one and how it was picked — and a warning where it plays rules or a
 * table size it was not trained for.
 */
export function modelLines(agents: readonly string[], table: TableKind): string[] {
  return agents.flatMap((spec) => {
    const { model, fit, mismatch } = resolveAgent(spec, table);
    if (model === null) return [];
    const how =
      fit === null ? '' : fit === 'trained' ? ` (trained for ${ruleChoiceOf(table).preset} at ${table.players} seats)` : ` (${fit})`;
    return [`${spec} plays ${model}${how}`, ...(mismatch ? [`warning: ${spec} ${mismatch}`] : [])];
  });
}
