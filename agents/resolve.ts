/**
 * Agent identity at a table: which agent, and which model, a spec plays under these rules at this
 * table size. Every caller that seats or asks an agent — the bench and tournaments, calibrate and
 * equity, server tables and advice, the trainer's opponents, teacher and adviser, the bridge, the
 * server's welcome — resolves through `resolveAgent`, and `createAgent` takes only what it
 * returns, so the same table always gets the same model. Callers make agents through this
 * module's entries, which resolve first (`createAgentFor`, `seatAgents`); `createAgent` itself is
 * called here and by the registry's rows (through their `Creator`) only. How a spec resolves is its registry
 * row's (agents/registry.ts): plain `neural` plays the shipped model for the table's (rules,
 * seats) (agents/models/catalog.ts) or a version published for the table, `neural:PATH` plays
 * PATH, `level:K` its level's setting for the table's preset and size over its best bot
 * (agents/level.ts); other agents are themselves.
 */
import { LRUCache } from 'lru-cache';
import type { Agent } from '../env/gym/agent.js';
import { type PublishedModel, type ResolvedAgent, type Resolver, type TableKind, ruleChoiceOf } from './agentSpec.js';
import { agentRow, parseAgentSpec } from './registry.js';

export { type ModelSource, type PublishedModel, type ResolvedAgent, type TableKind, AgentSpecError, ruleChoiceOf } from './agentSpec.js';

/** The published version of a served agent, if one plays where it fits (a server's ModelVersions). */
export type PublishedLookup = (agent: string) => PublishedModel | null;

/**
 * Per (spec, table kind): advice may name any rule overrides, each a key (the least recently asked
 * go first), before they are checked. Weighed by the key's length (the client's rules, which the
 * answer holds again): the valid rule options write well under RESOLVED_ENTRY_MAX, so a key past
 * it (a message's worth of junk) is answered and not kept, and all together hold a few MB at most.
 */
export const RESOLVED_ENTRY_MAX = 16 * 1024;
const resolved = new LRUCache<string, ResolvedAgent>({
  max: 1024,
  maxSize: 2 * 1024 * 1024,
  maxEntrySize: RESOLVED_ENTRY_MAX,
  sizeCalculation: (_answer, key) => key.length,
});

/**
 * What a spec plays at a table of this kind; throws AgentSpecError for a bad spec. Remembered per
 * (spec, table kind, published version): a server asks it at every advice request, and the
 * catalog does not change while a process runs.
 */
export function resolveAgent(spec: string, table: TableKind, published?: PublishedLookup): ResolvedAgent {
  const version = published?.(spec)?.version ?? null;
  const key = JSON.stringify([spec, table.preset, table.rules, table.players, version]);
  let answer = resolved.get(key);
  if (!answer) {
    resolved.set(key, (answer = resolveAnew(spec, table, published)));
  }
  return answer;
}

/** The resolver the rows get: nested specs (a level's best bot, a model's adviser) resolve without published versions. */
const nested: Resolver = { resolve: (spec, table) => resolveAgent(spec, table) };

function resolveAnew(spec: string, table: TableKind, published?: PublishedLookup): ResolvedAgent {
  const parsed = parseAgentSpec(spec);
  const row = agentRow(parsed.name);
  const resolution = row.resolve?.(spec, parsed, table, { ...nested, ...(published ? { published } : {}) }) ?? {
    spec,
    model: null,
    card: null,
    fit: null,
    mismatch: null,
  };
  // The one place a ResolvedAgent is made: the brand is a type, never a value.
  return {
    requested: spec,
    kind: parsed.name,
    params: resolution.params ?? parsed.params,
    spec: resolution.spec,
    table: { ...table },
    model: resolution.model,
    card: resolution.card,
    fit: resolution.fit,
    mismatch: resolution.mismatch,
    via: resolution.via ?? null,
  } as ResolvedAgent;
}

/** The agent a resolution names, loaded (a model may have to load, hence async). */
export async function createAgent(agent: ResolvedAgent): Promise<Agent> {
  const spec = parseAgentSpec(agent.spec);
  return agentRow(spec.name).create(agent, spec, { ...nested, create: createAgent });
}

/** The agent a spec plays at a table of this kind, loaded. */
export async function createAgentFor(spec: string, table: TableKind, published?: PublishedLookup): Promise<Agent> {
  return createAgent(resolveAgent(spec, table, published));
}

/** A spec at every seat of a table: what it resolves to there and the agents made from that one resolution. */
export interface SeatedAgents {
  readonly resolved: ResolvedAgent;
  readonly agents: Agent[];
}

/**
 * `seats` agents of one spec at a table of this kind, each made from the same resolution it
 * returns, so that what a command prints it plays (`modelLines([resolved])`) is what it plays.
 */
export async function seatAgents(spec: string, table: TableKind, seats = 1): Promise<SeatedAgents> {
  const resolved = resolveAgent(spec, table);
  return { resolved, agents: await Promise.all(Array.from({ length: seats }, () => createAgent(resolved))) };
}

/** The folder of the model a resolution plays, for people and for the protocol (null: no model). */
export function modelFolder(agent: ResolvedAgent): string | null {
  return agent.model === null
    ? null
    : agent.model.kind === 'published'
      ? `${agent.model.agent} version ${agent.model.version}`
      : agent.model.folder;
}

/**
 * What each resolved agent plays, for people (the bench, rate, calibrate and equity print it): a
 * line for each that plays a model — which one and how it was picked — and a warning where it
 * plays rules or a table size it was not trained for.
 */
export function modelLines(agents: readonly ResolvedAgent[]): string[] {
  return agents.flatMap((agent) => {
    const { requested, table, fit, mismatch } = agent;
    const model = modelFolder(agent);
    if (model === null) return [];
    const how =
      fit === null ? '' : fit === 'trained' ? ` (trained for ${ruleChoiceOf(table).preset} at ${table.players} seats)` : ` (${fit})`;
    return [`${requested} plays ${model}${how}`, ...(mismatch ? [`warning: ${requested} ${mismatch}`] : [])];
  });
}
