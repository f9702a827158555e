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

const AGENT_BLURBS: Record<AgentName, string> = {
  strong: 'The toughest of the quick bots: keeps track of the cards, plans a turn ahead, and calls Yaniv only when an Assaf is unlikely.',
  neural: 'A bot that learned the game by playing against itself (a trained neural network).',
  rollout: 'Thinks ahead by playing out many possible deals before each move; strong but slower.',
  intermediate: 'Lays its longest group, takes cards that make groups, and calls Yaniv as soon as it may.',
  novice: 'Lays its highest cards, takes only low cards, and calls when nobody is known to hold less.',
  random: 'Plays any legal move at random: an easy first game.',
  hoarder: 'Hoards low cards and calls Yaniv early, taking a few more risks than most.',
  montecarlo: 'Plays out a handful of possible deals before each move, with simple play in each.',
  level: 'The best bot at a chosen difficulty: lower levels miss more, but never play a silly move.',
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
 * Which trained model a bot plays at the table being set up, for a player (welcome.agents[].plays:
 * the server's own choice, agents/resolve.ts), or null for bots without a model.
 */
export function modelNote(agent: WelcomeAgent, preset: string, players: number, houseRules: boolean): string | null {
  const played = agent.plays?.[preset]?.[String(players)];
  if (!played) return null;
  const name = played.model.replace(/^models\//, '');
  const fit =
    played.fit === 'trained'
      ? `trained for ${preset} at ${players} seats`
      : played.fit === 'nearest-size'
        ? `trained for ${preset} at another table size: it may play below its best here`
        : `trained for other rules or table sizes: it may play below its best here`;
  const house = houseRules ? '; your house rules are new to it' : '';
  return `plays the model “${name}” (${fit}${house})`;
}
