/**
 * Agents by name, for the CLI, tournaments, the trainer and the server. An agent spec is
 * `name`, `name:ARG` or either with `?key=value&…` parameters: `strong`, `rollout?samples=16`,
 * `neural:models/standard?greedy=0`. Each row says how a spec of its agent resolves at a table
 * (`resolve`: the model it plays; none for the rule bots) and how the resolved agent is made
 * (`create`); agents/resolve.ts runs them, so nothing here branches on a name. Rows load lazily
 * (a dynamic import each), so asking for `strong` never loads tfjs, and creating is async because
 * a model may have to load.
 */
import { z } from 'zod';
import type { Agent } from '../env/gym/agent.js';
import {
  type AgentSpec,
  AgentSpecError,
  type Creator,
  type ResolvedAgent,
  type Resolution,
  type Resolver,
  type TableKind,
  ruleChoiceOf,
} from './agentSpec.js';
import { modelFor, shippedModels } from './models/catalog.js';
import { type ModelCard, ownSeats, readModelCard, trainingMismatch } from './models/modelCard.js';
import { DEFAULT_MODEL, resolveModelDir } from './models/modelFolder.js';
import { levelAgent, levelSetting, levelSpec, resolveLevel } from './level.js';
import type { RoundEndModel, StrongConfig, StrongFix } from './bots/strong.js';
import type { RuleBot } from './bots/ruleBot.js';

export { type AgentSpec, AgentSpecError } from './agentSpec.js';

/** What an agent's scores are: a trained policy's probabilities, the agent's own scores, or none (only its pick). */
export const SCORE_KINDS = ['probability', 'score', 'none'] as const;
export type ScoreKind = (typeof SCORE_KINDS)[number];

/** What an agent can tell besides its move: declared here, shown by the server's welcome and advice. */
export interface AgentAbilities {
  /** Whether it ranks actions with scores when asked to explain (its policy), else only its pick is known. */
  readonly explains: boolean;
  /** What those scores are ('none' for agents that do not explain). */
  readonly scores: ScoreKind;
}

export interface Factory extends AgentAbilities {
  readonly description: string;
  /** The parameters the agent takes (anything else is an error). */
  readonly params: readonly string[];
  /** Whether `name:ARG` is allowed. */
  readonly takesArg?: boolean;
  /** A server that serves this agent also seats `name:ARG` (`level:K`: the argument picks a shipped setting). */
  readonly seatsByArg?: boolean;
  /** Decides in well under a millisecond with no inference (a server answers it without a worker thread). */
  readonly cheap: boolean;
  /** A server may publish new versions of the model it plays while serving (serve/inference/models.ts); its `resolve` takes them as `resolver.published`. */
  readonly publishable?: boolean;
  /**
   * What a spec of this agent plays at a table (`raw` as written, `spec` parsed); without it, the
   * spec itself and no model. A published version (resolver.published) is one more model source.
   */
  readonly resolve?: (raw: string, spec: AgentSpec, table: TableKind, resolver: Resolver) => Resolution;
  /** The agent, made from what it resolved to (its `spec` and `params`, its model, the agent it plays through). */
  create(agent: ResolvedAgent, spec: AgentSpec, creator: Creator): Promise<Agent>;
}

/** A number parameter, or the error naming it. */
function numberParam(spec: AgentSpec, key: string): number | undefined {
  const raw = spec.params[key];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw new AgentSpecError(`agent "${spec.name}": parameter ${key} must be a positive number (got ${JSON.stringify(raw)})`);
  return value;
}

/** What `strongTuning` checks names against, passed in from the lazily imported bot (agents/bots/strong.ts). */
interface StrongNames {
  readonly roundEndModels: readonly RoundEndModel[];
  readonly fixes: readonly StrongFix[];
}

/**
 * `strong`'s own knobs: call=RISK (the highest Assaf risk it calls at), look=SHARE (next turn's group
 * counted as gone), end=MODEL (one of the round-end models), fix=NAME+NAME (fixes of its blind spots).
 */
function strongTuning(spec: AgentSpec, { roundEndModels, fixes }: StrongNames): Partial<StrongConfig> {
  const callRisk = numberParam(spec, 'call');
  const lookahead = numberParam(spec, 'look');
  if (callRisk !== undefined && callRisk > 1)
    throw new AgentSpecError(`agent "strong": parameter call must be a risk from 0 to 1 (got ${callRisk})`);
  const roundEnd = spec.params.end;
  if (roundEnd !== undefined && !(roundEndModels as readonly string[]).includes(roundEnd))
    throw new AgentSpecError(`agent "strong": parameter end must be ${roundEndModels.join(' or ')} (got ${JSON.stringify(roundEnd)})`);
  // A + in a query string reads as a space.
  const fix = spec.params.fix?.split(/[+ ]/);
  const unknown = fix?.find((name) => !(fixes as readonly string[]).includes(name));
  if (unknown !== undefined)
    throw new AgentSpecError(
      `agent "strong": parameter fix must name fixes joined by + (${fixes.join(', ')}; got ${JSON.stringify(spec.params.fix)})`,
    );
  return {
    ...(callRisk !== undefined ? { callRisk } : {}),
    ...(lookahead !== undefined ? { lookahead } : {}),
    ...(roundEnd !== undefined ? { roundEnd: roundEnd as RoundEndModel } : {}),
    ...(fix !== undefined ? { fixes: fixes.filter((name) => fix.includes(name)) } : {}),
  };
}

function strongName(tuning: Partial<StrongConfig>): string {
  const parts = [
    ...(tuning.callRisk !== undefined ? [`call=${tuning.callRisk}`] : []),
    ...(tuning.lookahead !== undefined ? [`look=${tuning.lookahead}`] : []),
    ...(tuning.roundEnd !== undefined ? [`end=${tuning.roundEnd}`] : []),
    ...(tuning.fixes !== undefined ? [`fix=${tuning.fixes.join('+')}`] : []),
  ];
  return parts.length === 0 ? 'strong' : `strong?${parts.join('&')}`;
}

/** `neural?suggest=1`: the agent playing the advisor's suggestion by its table model's q head (agents/equity/suggest.ts). */
async function suggesting(inner: Agent, table: TableKind, spec: AgentSpec): Promise<Agent> {
  const [{ tableHead }, { suggestAgent }] = await Promise.all([import('./equity/headOutlook.js'), import('./equity/suggest.js')]);
  const { resolveRules } = await import('../env/rules/rules.js');
  const head = await tableHead({ rules: resolveRules({ ...ruleChoiceOf(table), players: table.players }), players: table.players });
  if (head === null)
    throw new AgentSpecError(`agent "neural": suggest=1, but no shipped model has a q head for this table (${table.players} players)`);
  const raw = spec.params.margin;
  const margin = raw === undefined ? undefined : Number(raw);
  if (margin !== undefined && !(raw?.trim() !== '' && margin >= 0 && margin <= 1))
    throw new AgentSpecError(`agent "neural": parameter margin must be a chance from 0 to 1 (got ${JSON.stringify(raw)})`);
  return suggestAgent(inner, head, margin);
}

/** A yes/no parameter (1/0/true/false), or the error naming it. */
function booleanParam(spec: AgentSpec, key: string): boolean | undefined {
  const raw = spec.params[key];
  if (raw === undefined) return undefined;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new AgentSpecError(`agent "${spec.name}": parameter ${key} must be 1, 0, true or false (got ${JSON.stringify(raw)})`);
}

/** The row of a rule bot with no parameters: cheap, explains nothing, its RuleBot wrapped as an Agent. */
function simpleRuleBot(name: string, description: string, load: () => Promise<RuleBot>): Factory {
  return {
    explains: false,
    scores: 'none',
    cheap: true,
    description,
    params: [],
    create: async () => {
      const [{ ruleAgent }, bot] = await Promise.all([import('./bots/ruleAgent.js'), load()]);
      return ruleAgent(name, bot);
    },
  };
}

const FACTORIES = {
  random: {
    explains: false,
    scores: 'none',
    cheap: true,
    description: 'uniform over the legal actions (seeded)',
    params: [],
    create: async () => (await import('./bots/random.js')).randomAgent(),
  },
  novice: simpleRuleBot(
    'novice',
    'lays the most points, takes cards worth ≤ 2, calls when no opponent is known to be lower',
    async () => (await import('./bots/novice.js')).novice,
  ),
  intermediate: simpleRuleBot(
    'intermediate',
    'lays the longest group, takes cards that make groups, calls whenever legal',
    async () => (await import('./bots/intermediate.js')).intermediate,
  ),
  strong: {
    explains: true,
    scores: 'score',
    cheap: true,
    description:
      "card tracking, the exact Assaf risk before calling, one-turn-ahead discard planning (call=RISK: the highest Assaf risk it calls at, default 0.1; look=SHARE: the share of next turn's best group counted as gone, default 0.8; end=rough|measured: how it reads the chance the round ends before its next turn, for its milestone play, default rough; fix=NAME+NAME: fixes of its blind spots, none by default (agents/bots/strong.ts STRONG_FIXES, docs/agents.md, Blind spots); equity=PRESET: milestone play valued by that preset's shipped game equity, at the table sizes it ships for)",
    params: ['equity', 'term', 'call', 'look', 'end', 'fix'],
    create: async (_agent, spec) => {
      const [{ ruleAgent }, { ROUND_END_MODELS, STRONG_FIXES, explainStrong, strongBot }] = await Promise.all([
        import('./bots/ruleAgent.js'),
        import('./bots/strong.js'),
      ]);
      const tuning = strongTuning(spec, { roundEndModels: ROUND_END_MODELS, fixes: Object.keys(STRONG_FIXES) as StrongFix[] });
      const preset = spec.params.equity;
      if (preset === undefined) return ruleAgent(strongName(tuning), strongBot(tuning), explainStrong(tuning));
      const { shippedEquity, shippedEquitySizes } = await import('./equity/equity.js');
      const sizes = shippedEquitySizes(preset);
      if (sizes.length === 0) shippedEquity(preset); // the error naming the file expected
      const equity = sizes.map((players) => shippedEquity(preset, players));
      const term = spec.params.term ?? 'milestone';
      if (term !== 'milestone' && term !== 'hand')
        throw new AgentSpecError(`agent "strong": parameter term must be milestone or hand (got ${JSON.stringify(term)})`);
      const config = { ...tuning, equity, equityTerm: term } as const;
      return ruleAgent(`strong?equity=${preset}&term=${term}`, strongBot(config), explainStrong(config));
    },
  },
  rollout: {
    explains: true,
    scores: 'score',
    cheap: false,
    description: 'search over strong: determinised worlds and strong-like playouts (samples=N worlds, ms=N budget)',
    params: ['samples', 'ms'],
    create: async (_agent, spec) => {
      const { rolloutAgent } = await import('./bots/rollout.js');
      const samples = numberParam(spec, 'samples');
      const maxMillis = numberParam(spec, 'ms');
      return rolloutAgent({
        ...(samples !== undefined ? { samples: Math.round(samples) } : {}),
        ...(maxMillis !== undefined ? { maxMillis } : {}),
      });
    },
  },
  hoarder: {
    explains: false,
    scores: 'score',
    cheap: true,
    description:
      'a held-out panel bot of another style: lays its longest group keeping cards worth 3 or less, takes cards that make a group or are worth 3 or less, calls at an Assaf risk up to 0.3',
    params: [],
    create: async () => {
      const [{ ruleAgent }, { hoarder }] = await Promise.all([import('./bots/ruleAgent.js'), import('./bots/hoarder.js')]);
      return ruleAgent('hoarder', hoarder);
    },
  },
  montecarlo: {
    explains: false,
    scores: 'score',
    cheap: false,
    description: 'a held-out panel bot: flat Monte Carlo over its own sampled worlds with greedy playouts (samples=N worlds)',
    params: ['samples'],
    create: async (_agent, spec) => {
      const { monteCarloAgent } = await import('./bots/montecarlo.js');
      const samples = numberParam(spec, 'samples');
      return monteCarloAgent(samples !== undefined ? { samples: Math.round(samples) } : {});
    },
  },
  neural: {
    explains: true,
    scores: 'probability',
    cheap: false,
    description:
      "a trained policy-value network (neural:PATH for a model folder or training run; the shipped model without; greedy=0 samples; own=N: the most seats in play at which the network's own pick plays, above which its adviser's choice leads — default the largest size it trained at; duel=FOLDER: the model that decides once two seats are left in play; suggest=1: plays the advisor's suggestion where the table's model evaluates moves itself, its pick unless the model's q head rates another listed move higher beyond the head's margin, or margin=M; adviser=SPEC: a model trained with an adviser asks this one instead, e.g. neural?adviser=strong?fix=joker — the network still reads it as its card's adviser)",
    params: ['greedy', 'own', 'duel', 'suggest', 'margin', 'adviser'],
    takesArg: true,
    publishable: true,
    resolve: resolveNeural,
    create: async (agent, spec, creator) => {
      const { loadNeuralAgent } = await import('./models/neural.js');
      const greedy = booleanParam(spec, 'greedy');
      // The adviser its card names (yaniv train --adviser) is built here, so the network module needs no registry.
      const card = agent.card ?? readModelCard(resolveModelDir(spec.arg));
      // adviser=SPEC asks another adviser than the card's (a what-if: the network trained with its card's).
      if (card.adviser === null && spec.params.adviser !== undefined)
        throw new AgentSpecError(`agent "neural": adviser=${spec.params.adviser}, but this model was trained without an adviser`);
      const adviserSpec = card.adviser === null ? null : (spec.params.adviser ?? card.adviser);
      const adviser = adviserSpec === null ? undefined : await creator.create(creator.resolve(adviserSpec, agent.table));
      const ownUpTo = numberParam(spec, 'own') ?? ownSeats(card);
      const main = (
        await loadNeuralAgent(spec.arg, { ...(greedy !== undefined ? { greedy } : {}), ...(adviser ? { adviser, ownUpTo } : {}) })
      ).agent;
      const duel = spec.params.duel;
      const played =
        duel === undefined
          ? main
          : (await import('./bots/duel.js')).withDuellist(
              main,
              await creator.create(
                creator.resolve(`neural:${duel}${greedy === undefined ? '' : `?greedy=${spec.params.greedy}`}`, agent.table),
              ),
            );
      return booleanParam(spec, 'suggest') ? suggesting(played, agent.table, spec) : played;
    },
  },
  level: {
    explains: false,
    scores: 'none',
    cheap: false,
    description:
      'the best shipped bot at a calibrated strength, level:1 (below novice) to the top level (the best bot): its policy sampled at a temperature, some of its Yaniv calls missed, never an absurd move (models/levels; level?temperature=T&yaniv=S&best=SPEC plays one setting)',
    params: ['temperature', 'yaniv', 'best'],
    takesArg: true,
    seatsByArg: true,
    resolve: (_raw, spec, table, resolver) => {
      const { setting, best, fit, mismatch } = resolveLevel(spec, { preset: ruleChoiceOf(table).preset, players: table.players });
      const via = resolver.resolve(best, table);
      if (via.kind === 'level') throw new AgentSpecError('agent "level": its best bot cannot be a level');
      const concrete = levelSpec(setting, via.spec);
      return {
        spec: concrete,
        params: parseAgentSpec(concrete).params,
        model: via.model,
        card: via.card,
        // the levels' fit, unless the best bot's model fits the table less well (level:K rated at seven seats over a four-seat model)
        fit: fit === null || fit === 'trained' ? (via.fit ?? fit) : fit,
        mismatch: [mismatch, via.mismatch].filter((m) => m !== null).join('; ') || null,
        via,
      };
    },
    create: async (agent, spec, creator) => {
      if (agent.via === null) throw new Error(`${agent.spec} resolved without its best bot`);
      return levelAgent(await creator.create(agent.via), levelSetting(spec), agent.spec);
    },
  },
} as const satisfies Record<string, Factory>;

export type AgentName = keyof typeof FACTORIES;
export const AGENT_NAMES = Object.keys(FACTORIES) as AgentName[];

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(FACTORIES, name);
}

/** The agents with a line each and what they can tell, for help texts and the server's welcome. */
export function describeAgents(): ({ name: AgentName; description: string } & AgentAbilities)[] {
  return AGENT_NAMES.map((name) => {
    const { description, explains, scores } = FACTORIES[name];
    return { name, description, explains, scores };
  });
}

/** What the agent a spec names can tell (its explanation, what its scores mean); throws AgentSpecError. */
export function agentAbilities(spec: string): AgentAbilities {
  const { explains, scores }: Factory = FACTORIES[parseAgentSpec(spec).name as AgentName];
  return { explains, scores };
}

/** Whether the agent a spec names decides cheaply, with no inference (see Factory.cheap); throws AgentSpecError. */
export function decidesCheaply(spec: string): boolean {
  const { cheap }: Factory = FACTORIES[parseAgentSpec(spec).name as AgentName];
  return cheap;
}

/** Whether a server may publish versions of the model the agent a spec names plays (see Factory.publishable); throws AgentSpecError. */
export function takesPublishedModels(spec: string): boolean {
  const { publishable }: Factory = FACTORIES[parseAgentSpec(spec).name as AgentName];
  return publishable === true;
}

/** Reads `name[:arg][?k=v&…]` and checks it against the registry; throws AgentSpecError naming the problem. */
export function parseAgentSpec(spec: string): AgentSpec {
  const query = spec.indexOf('?');
  const head = query < 0 ? spec : spec.slice(0, query);
  const colon = head.indexOf(':');
  const name = colon < 0 ? head : head.slice(0, colon);
  const arg = colon < 0 ? undefined : head.slice(colon + 1);
  if (!isAgentName(name)) throw new AgentSpecError(`unknown agent ${JSON.stringify(name)}; the agents are ${AGENT_NAMES.join(', ')}`);
  const factory: Factory = FACTORIES[name];
  if (arg !== undefined && !factory.takesArg)
    throw new AgentSpecError(`agent "${name}" takes no ":" argument (got ${JSON.stringify(spec)})`);
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  if (query >= 0) {
    for (const [key, value] of new URLSearchParams(spec.slice(query + 1))) {
      if (!factory.params.includes(key)) {
        const known = factory.params.length > 0 ? `its parameters are ${factory.params.join(', ')}` : 'it takes no parameters';
        throw new AgentSpecError(`agent "${name}" has no parameter ${JSON.stringify(key)}; ${known}`);
      }
      params[key] = value;
    }
  }
  return { name, ...(arg !== undefined ? { arg } : {}), params };
}

/** An agent spec as settings name one (the served agents, a bench's): checked by parseAgentSpec, its error the issue. */
export const agentSpecSchema = z.string().superRefine((spec, ctx) => {
  try {
    parseAgentSpec(spec);
  } catch (error) {
    if (!(error instanceof AgentSpecError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
  }
});

/** The row of an agent kind (agents/resolve.ts resolves and creates through it). */
export function agentRow(name: string): Factory {
  if (!isAgentName(name)) throw new AgentSpecError(`unknown agent ${JSON.stringify(name)}; the agents are ${AGENT_NAMES.join(', ')}`);
  return FACTORIES[name];
}

/**
 * What plain `neural` or `neural:PATH` plays at a table: PATH; else the served agent's published
 * version where it was trained for the table's preset and size; else the catalog's model for the
 * table (agents/models/catalog.ts).
 */
function resolveNeural(raw: string, spec: AgentSpec, table: TableKind, resolver: Resolver): Resolution {
  // A bad parameter is named before the model folder is looked for.
  booleanParam(spec, 'greedy');
  const own = numberParam(spec, 'own');
  const rules = ruleChoiceOf(table);
  const mismatchOf = (card: ModelCard) => trainingMismatch(card, rules, table.players, own);
  if (spec.arg) {
    const card = readModelCard(resolveModelDir(spec.arg));
    const kind = shippedModels().some((entry) => entry.folder === spec.arg) ? 'shipped' : 'path';
    return { spec: raw, model: { kind, folder: spec.arg }, card, fit: null, mismatch: mismatchOf(card) };
  }
  const query = new URLSearchParams(spec.params).toString();
  const published = resolver.published?.(raw) ?? null;
  if (published && published.card.rules.preset === rules.preset && published.card.players.includes(table.players)) {
    const { agent, version, folder, card } = published;
    return {
      spec: `neural:${folder}${query ? `?${query}` : ''}`,
      model: { kind: 'published', agent, version, folder },
      card,
      fit: 'trained',
      mismatch: mismatchOf(card),
    };
  }
  const choice = modelFor(rules, table.players);
  const concrete = choice.folder === DEFAULT_MODEL ? raw : `neural:${choice.folder}${query ? `?${query}` : ''}`;
  return {
    spec: concrete,
    model: { kind: 'shipped', folder: choice.folder },
    card: choice.card,
    fit: choice.fit,
    mismatch: mismatchOf(choice.card),
  };
}
