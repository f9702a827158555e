/**
 * The words agents are chosen in, shared by the registry's rows (agents/registry.ts), the levels
 * (agents/level.ts) and the resolver (agents/resolve.ts) without any of them importing another in
 * a circle: a spec as written, the table it is resolved for, where a model comes from, and the
 * typed value a spec resolves to. `ResolvedAgent` carries a brand only the resolver sets, and
 * `createAgent` takes nothing else: an agent made from a bare spec string does not compile.
 */
import { type RuleChoice, ruleSelectionSchema } from '../env/rules/rules.js';
import type { ModelFit } from './models/catalog.js';
import type { ModelCard } from './models/modelCard.js';
import type { Agent } from '../env/gym/agent.js';

/** A spec as written: `name`, `name:ARG`, either with `?key=value&…` parameters. */
export interface AgentSpec {
  readonly name: string;
  /** What follows `name:` (a model path for neural agents, a level's number), if anything. */
  readonly arg?: string;
  readonly params: Readonly<Record<string, string>>;
}

/** A spec that names no agent, gives it parameters it does not take, or does not resolve at a table. */
export class AgentSpecError extends Error {
  override name = 'AgentSpecError';
}

/** The table an agent is resolved for: its rule selection (preset and overrides) and its size. */
export interface TableKind {
  readonly preset?: string;
  /** Overrides on top of the preset (RULES.md names). */
  readonly rules?: object;
  readonly players: number;
}

/** The rule choice of a table (defaults filled: preset standard, no overrides). */
export function ruleChoiceOf(table: TableKind): RuleChoice {
  return ruleSelectionSchema.parse({ preset: table.preset, rules: table.rules ?? {} });
}

/**
 * Where the model an agent plays comes from: a shipped folder of the catalog (models/), a folder
 * or training run named by `neural:PATH`, or a version published while serving (its files written
 * to `folder`).
 */
export type ModelSource =
  | { readonly kind: 'shipped'; readonly folder: string }
  | { readonly kind: 'path'; readonly folder: string }
  | { readonly kind: 'published'; readonly agent: string; readonly version: number; readonly folder: string };

/** A version published for a served agent (serve/inference/models.ts), checked against the model contract when it loaded. */
export interface PublishedModel {
  readonly agent: string;
  readonly version: number;
  readonly folder: string;
  readonly card: ModelCard;
}

declare const resolvedBrand: unique symbol;

/** What a spec plays at one kind of table; made by agents/resolve.ts only. */
export interface ResolvedAgent {
  readonly [resolvedBrand]: true;
  /** The spec as asked (`neural`, `neural?greedy=0`, `level:3`, `strong`). */
  readonly requested: string;
  /** The agent kind: a registry row's name. */
  readonly kind: string;
  /** The parameters it plays with (a level's setting made explicit). */
  readonly params: Readonly<Record<string, string>>;
  /** The spec that plays, self-contained: the model made explicit where the table picked it; resolves to itself anywhere. */
  readonly spec: string;
  readonly table: TableKind;
  /** The model it plays, null for agents without one. */
  readonly model: ModelSource | null;
  readonly card: ModelCard | null;
  /** How the model was picked for the table (null for an explicit model or no model). */
  readonly fit: ModelFit | null;
  /** Why it may play below its measured strength at this table, or null. */
  readonly mismatch: string | null;
  /** The agent it plays through (a level's best bot), resolved for the same table; null for most. */
  readonly via: ResolvedAgent | null;
}

/** What a registry row says a spec resolves to at a table (the resolver adds the rest). */
export interface Resolution {
  readonly spec: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly model: ModelSource | null;
  readonly card: ModelCard | null;
  readonly fit: ModelFit | null;
  readonly mismatch: string | null;
  readonly via?: ResolvedAgent;
}

/** The resolver as the registry's rows and the levels get it: an argument, so that they need not import it. */
export interface Resolver {
  resolve(spec: string, table: TableKind): ResolvedAgent;
  /** The published version of a served agent that plays at tables it fits, if any (a server's; none elsewhere). */
  readonly published?: (agent: string) => PublishedModel | null;
}

/** What a row's `create` gets besides the resolved agent: the resolver and `createAgent`, for the agents it plays through. */
export interface Creator extends Resolver {
  create(agent: ResolvedAgent): Promise<Agent>;
}
