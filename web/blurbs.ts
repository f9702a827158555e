/**
 * The new-game form in a player's words. `welcome` describes agents and presets for developers
 * (agent parameters, rule sources); the form shows these lines instead and keeps welcome's
 * behind its "Details" toggle. Both tables are typed over the registry's names, so a new agent
 * or preset does not compile until it has its line; a name the server offers that the page does
 * not know (an agent spec such as `neural:runs/x`) is read by its base name, or falls back to
 * the server's description.
 */
import type { AgentName } from '../agents/registry.js';
import type { PresetName } from '../env/rules/rules.js';
import type { Pairs, RuleField, RuleValue } from './ruleOptions.js';
import { labelOf } from './words.js';

const AGENT_BLURBS: Record<AgentName, string> = {
  strong: 'The toughest of the quick bots: keeps track of the cards, plans a turn ahead, and calls Yaniv only when an Assaf is unlikely.',
  neural: 'A bot that learned the game by playing against itself (a trained neural network).',
  rollout: 'Thinks ahead by playing out many possible deals before each move; strong but slower.',
  intermediate: 'Lays its longest group, takes cards that make groups, and calls Yaniv as soon as it may.',
  novice: 'Lays its highest cards, takes only low cards, and calls when nobody is known to hold less.',
  random: 'Plays any legal move at random: an easy first game.',
  hoarder: 'Hoards low cards and calls Yaniv early, taking a few more risks than most.',
  montecarlo: 'Plays out a handful of possible deals before each move, with simple play in each.',
  level:
    'The best bot held back to a chosen difficulty: the lower the level, the more often it picks a weaker move or lets a chance to call Yaniv go by. Even level 1 never calls Yaniv where the best bot would not, never keeps a lone high card while laying less, and never takes a high card it cannot use.',
};

/** What a player sees a bot called: its kind in words, never its spec. */
const AGENT_NAMES: Record<AgentName, string> = {
  strong: 'Strong bot',
  neural: 'Trained bot',
  rollout: 'Deep-thinking bot',
  intermediate: 'Intermediate bot',
  novice: 'Novice bot',
  random: 'Random bot',
  hoarder: 'Hoarder bot',
  montecarlo: 'Look-ahead bot',
  level: 'Level bot',
};

const PRESET_BLURBS: Record<PresetName, string> = {
  standard: 'The rules most players know',
  israeli5: 'Israeli house rules with a lower call',
  pagat: 'The rules pagat.com gives',
  dutch: 'As played in the Netherlands',
  norwegian: 'As played in Norway',
  nepal: 'As played in Nepal',
  family: 'A gentler game without Assaf',
};

function lookup<K extends string>(table: Record<K, string>, name: string): string | undefined {
  const base = name.split(/[:?]/)[0];
  return Object.hasOwn(table, base) ? table[base as K] : undefined;
}

/** A bot's name for a player: "Strong bot", "Level 3 bot" (`level:3`), "Trained bot" (`neural:runs/x`). */
export function botName(agent: string): string {
  const level = /^level:(\d+)/.exec(agent);
  if (level !== null) return `Level ${level[1]} bot`;
  const known = lookup(AGENT_NAMES, agent);
  return known ?? `${labelOf(agent.split(/[:?]/)[0])} bot`;
}

/** What a bot plays like, for a player. */
export function agentBlurb(agent: { readonly name: string; readonly description: string }): string {
  return lookup(AGENT_BLURBS, agent.name) ?? agent.description;
}

/**
 * A preset for a player: its line and what matters at the table, read from the form's fields
 * under that preset ("call Yaniv with 7 points or less; Assaf costs the caller 30; out above 200").
 */
export function presetBlurb(preset: { readonly name: string; readonly description: string }, fields: readonly RuleField[]): string {
  const value = (name: string): RuleValue => fields.find((f) => f.name === name)?.preset;
  const facts = [
    typeof value('yanivThreshold') === 'number' ? `call Yaniv with ${String(value('yanivThreshold'))} points or less` : null,
    value('assaf') === false
      ? 'no Assaf'
      : typeof value('assafPenalty') === 'number'
        ? `Assaf costs the caller ${String(value('assafPenalty'))}`
        : null,
    value('jokersPerDeck') === 0 ? 'no jokers' : null,
    typeof value('jackValue') === 'number' && value('jackValue') !== 10 ? `jacks count ${String(value('jackValue'))}` : null,
    typeof value('eliminationLimit') === 'number' ? `out above ${String(value('eliminationLimit'))} points` : null,
    milestonesFact(value('milestones')),
  ].filter((fact) => fact !== null);
  const line = lookup(PRESET_BLURBS, preset.name);
  return line === undefined ? preset.description : `${line}: ${facts.join('; ')}.`;
}

function milestonesFact(milestones: RuleValue): string | null {
  if (!Array.isArray(milestones)) return null;
  if (milestones.length === 0) return 'no milestones';
  return `milestones ${(milestones as Pairs).map(([at, to]) => `${at} → ${to}`).join(', ')}`;
}

type WelcomeAgent = { readonly plays?: Readonly<Record<string, Readonly<Record<string, PlayedHere>>>> };
interface PlayedHere {
  readonly model: string;
  readonly fit: 'trained' | 'nearest-size' | 'default';
  readonly mismatch: string | null;
}

/**
 * How well a bot that plays a trained model knows the table being set up, for a player
 * (welcome.agents[].plays: the server's own choice, agents/resolve.ts; the model's name stays
 * behind Details), or null for bots without a model.
 */
export function modelNote(agent: WelcomeAgent, preset: string, players: number, houseRules: boolean): string | null {
  const played = agent.plays?.[preset]?.[String(players)];
  if (!played) return null;
  const fit =
    played.fit === 'trained'
      ? `learned these rules at ${players} players`
      : played.fit === 'nearest-size'
        ? `learned these rules at another table size, so it may play below its best here`
        : `learned other rules or table sizes, so it may play below its best here`;
  return houseRules ? `${fit}; your house rules are new to it` : fit;
}
