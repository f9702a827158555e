/**
 * Rule options (RULES.md, "Rule options and presets"): one zod schema gives the
 * option names, types, defaults, validation and the JSON schema.
 */
import { z } from 'zod';
import { deckComposition } from './cards.js';
import type { FlagSpecs } from '../../support/schemaFlags.js';
import { bool, formatOptionIssues, intFrom, oneOf, preview } from '../../support/zod.js';

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 8;

/**
 * The largest value of each unbounded-looking rule option: every game under them still ends in a
 * number of rounds a server can play out (a request for advice simulates whole games, and a
 * client may name any rules). The schema below, and so the protocol's JSON Schema, the CLI's
 * `--rule` and the page's house-rules form, read them from here.
 */
export const RULE_LIMITS = {
  /** eliminationLimit, and the totals a milestone names. */
  total: 500,
  /** assafPenalty and assafTiePenalty. */
  penalty: 500,
  yanivsToWin: 50,
  /** Entries of `milestones`. */
  milestones: 20,
} as const;

const milestone = z.tuple([intFrom(1, RULE_LIMITS.total), intFrom(0, RULE_LIMITS.total)], {
  error: 'must be a list of [at, to] pairs of integers',
});

/**
 * An option that matters only when other options hold one of the listed values (the JSON
 * Schema annotation `relevantWhen`: a form hides it otherwise, web/ruleOptions.ts).
 */
const WITH_ASSAF = { relevantWhen: { assaf: [true] } };

/** Every rule option, as named in RULES.md, with the standard value as default. */
export const ruleOptionsSchema = z.strictObject({
  decks: z
    .union([z.literal(1), z.literal(2)], { error: 'must be 1 or 2' })
    .describe('Number of 52-card decks. Default: 1 with up to 5 players, 2 with 6 or more (pagat: more than 4).')
    .optional(),
  jokersPerDeck: z
    .union([z.literal(0), z.literal(2), z.literal(4)], { error: 'must be 0, 2 or 4' })
    .describe('Jokers added to each deck.')
    .default(2),
  handSize: intFrom(3, 7).describe('Cards dealt to each player.').default(5),
  jackValue: intFrom(0, 10).describe('Point value of a jack.').default(10),
  yanivThreshold: intFrom(0, 30).describe('Highest hand value that may call Yaniv.').default(7),
  assaf: bool().describe('Whether a lower or equal hand beats a Yaniv call (Assaf).').default(true),
  assafPenalty: intFrom(0, RULE_LIMITS.penalty)
    .describe("Added to the caller's hand value when Assaf happens.")
    .default(30)
    .meta(WITH_ASSAF),
  assafScoring: oneOf(['lowest', 'othersZero', 'everyone'] as const)
    .describe(
      'Who scores what on Assaf: "lowest" (Assaf winners 0), "othersZero" (all but the caller 0), "everyone" (all but the caller their hand).',
    )
    .default('lowest')
    .meta(WITH_ASSAF),
  assafTiePenalty: intFrom(0, RULE_LIMITS.penalty)
    .nullable()
    .describe('When set, a tie (lowest opponent equal to the caller) gives the caller exactly this, everyone else their hand.')
    .default(null)
    .meta(WITH_ASSAF),
  pickFromSet: oneOf(['any', 'ends'] as const)
    .describe('Which cards of a previous set may be taken.')
    .default('any'),
  pickFromRun: oneOf(['ends', 'any'] as const)
    .describe('Which cards of a previous run may be taken.')
    .default('ends'),
  milestones: z
    .array(milestone, { error: 'must be a list of [at, to] pairs of integers' })
    .max(RULE_LIMITS.milestones, { error: `must have at most ${RULE_LIMITS.milestones} pairs` })
    .refine((list) => new Set(list.map(([at]) => at)).size === list.length, { error: 'must not name the same total twice' })
    .describe('A total landing exactly on `at` after a round becomes `to`.')
    .default([
      [50, 25],
      [100, 50],
    ]),
  milestoneRobbery: bool().describe('Hitting a milestone makes the leader(s) add 30.').default(false),
  eliminationLimit: intFrom(1, RULE_LIMITS.total).describe('A total above this eliminates the player.').default(200),
  gameEnd: oneOf(['lastSurvivor', 'firstOverLimit', 'yanivCount'] as const)
    .describe('When the game ends.')
    .default('lastSurvivor'),
  yanivsToWin: intFrom(1, RULE_LIMITS.yanivsToWin)
    .describe('Successful calls that win the game under gameEnd "yanivCount".')
    .default(10)
    .meta({ relevantWhen: { gameEnd: ['yanivCount'] } }),
  nextStarter: oneOf(['rotate', 'roundWinner', 'lowestHand'] as const)
    .describe('Who starts the next round.')
    .default('rotate'),
  slapdown: bool().describe('Right after drawing, a hand worth 0 may end the round as a successful Yaniv.').default(false),
  quickDiscard: bool()
    .describe('Right after drawing from the deck, a card that extends the group just laid may be added to it.')
    .default(false),
});

export type RuleOptionsInput = z.input<typeof ruleOptionsSchema>;
type ParsedOptions = z.output<typeof ruleOptionsSchema>;

/** The options with every value settled for a table of `players`. */
export type Rules = Readonly<
  Omit<ParsedOptions, 'decks' | 'milestones'> & {
    decks: 1 | 2;
    milestones: ReadonlyArray<readonly [number, number]>;
  }
>;

export type RuleOptionName = keyof ParsedOptions;
export const RULE_OPTION_NAMES = Object.keys(ruleOptionsSchema.shape) as RuleOptionName[];

interface Preset {
  readonly description: string;
  readonly options: RuleOptionsInput;
  /** Smallest table that plays with two decks when `decks` is not given. */
  readonly twoDecksFrom: number;
}

export const PRESETS = {
  standard: { description: 'The standard column of RULES.md (sources 000/003).', options: {}, twoDecksFrom: 6 },
  israeli5: { description: 'Standard with yanivThreshold 5.', options: { yanivThreshold: 5 }, twoDecksFrom: 6 },
  pagat: {
    description: 'Source 001: threshold 5, the round winner starts, two decks with more than 4 players.',
    options: { yanivThreshold: 5, nextStarter: 'roundWinner' },
    twoDecksFrom: 5,
  },
  dutch: {
    description: 'Source 002: threshold 4, Assaf gives the others 0, a tie costs 20, four milestones, the round winner starts.',
    options: {
      yanivThreshold: 4,
      assafScoring: 'othersZero',
      assafTiePenalty: 20,
      milestones: [
        [50, 0],
        [100, 50],
        [150, 100],
        [200, 150],
      ],
      nextStarter: 'roundWinner',
    },
    twoDecksFrom: 6,
  },
  norwegian: {
    description: 'Source 004: threshold 5, only the ends of a set, Assaf scores everyone, milestones 100/200, lowest hand starts.',
    options: {
      yanivThreshold: 5,
      pickFromSet: 'ends',
      assafScoring: 'everyone',
      milestones: [
        [100, 50],
        [200, 100],
      ],
      nextStarter: 'lowestHand',
    },
    twoDecksFrom: 6,
  },
  nepal: {
    description: 'No jokers, jacks worth 0, threshold 5.',
    options: { jokersPerDeck: 0, jackValue: 0, yanivThreshold: 5 },
    twoDecksFrom: 6,
  },
  family: { description: 'Standard without Assaf.', options: { assaf: false }, twoDecksFrom: 6 },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/** A rule problem: unknown option or preset, a value out of range, a table the decks cannot deal. */
export class RuleError extends Error {
  override name = 'RuleError';
}

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}

/** Turns a zod failure on rule options into one readable sentence per problem. */
export function formatRuleIssues(error: z.ZodError): string {
  return formatOptionIssues(error, 'rule option', RULE_OPTION_NAMES);
}

export function presetOf(name: string): (typeof PRESETS)[PresetName] {
  if (!isPresetName(name)) {
    throw new RuleError(`unknown preset ${JSON.stringify(name)}; the presets are ${PRESET_NAMES.join(', ')}`);
  }
  return PRESETS[name];
}

/**
 * Rule overrides inside a document (a record's or an env's `rules`): any object, copied key by
 * key; resolveRules checks the names and values. Not a zod record: that rebuilds the object by
 * assignment, and assigning the own `"__proto__"` key JSON.parse creates sets the copy's
 * prototype instead, so an unknown option would vanish rather than be refused.
 */
export const ruleOverridesSchema = z
  .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
    error: 'must be an object of rule options',
  })
  .overwrite((value) => ({ ...value }))
  // What z.record would say in a JSON Schema (a custom check has no JSON form of its own).
  .meta({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} });

/** The preset of a table whose rules name none. */
export const DEFAULT_PRESET: PresetName = 'standard';

/** A preset's name as documents and messages give it (resolveRules says whether it is one). */
export const presetNameSchema = z.string({ error: 'must be a preset name' }).max(40, { error: 'must be at most 40 characters' });

/**
 * How rules are picked everywhere (env, records, views, the server, the trainer, the command
 * line): a preset, and option overrides on top of it checked by the one rule schema. Schemas
 * that name rules embed its fields (`...ruleSelectionSchema.shape`).
 */
export const ruleSelectionSchema = z.strictObject({
  preset: presetNameSchema.default(DEFAULT_PRESET).describe(`Rule preset: ${PRESET_NAMES.join(', ')} (RULES.md).`),
  rules: ruleOverridesSchema.default({}).describe('Rule option overrides on top of the preset (RULES.md names).'),
});

/** The rule selection's fields (`...ruleSelectionSchema.shape`) as flags: the shared rule flags of cli/ruleOptions.ts. */
export const RULE_SELECTION_FLAGS = {
  preset: { flag: '--rules', value: '<preset>', elsewhere: true },
  rules: { flag: '--rule', value: '<name=value>', elsewhere: true },
} as const satisfies FlagSpecs<{ preset: unknown; rules: unknown }>;

/** The field of a rule selection that a RuleError of resolveRules is about: an unknown preset, else the overrides. */
export function ruleErrorField(preset: string): 'preset' | 'rules' {
  return isPresetName(preset) ? 'rules' : 'preset';
}

/** A preset and the option overrides on top of it, as chosen (resolveRules settles them for a table). */
export type RuleChoice = z.output<typeof ruleSelectionSchema>;

export interface RuleSelection {
  /** A preset name (default DEFAULT_PRESET). */
  preset?: string;
  /** Overrides on top of the preset, with the option names of RULES.md. */
  rules?: unknown;
  players: number;
}

/** Settles the rules for a table: preset, then overrides, then the defaults; validates everything. */
export function resolveRules({ preset = DEFAULT_PRESET, rules = {}, players }: RuleSelection): Rules {
  const base = presetOf(preset);
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    throw new RuleError(`players must be an integer from ${MIN_PLAYERS} to ${MAX_PLAYERS} (got ${preview(players)})`);
  }
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    throw new RuleError(`rules must be an object of rule options (got ${preview(rules)})`);
  }
  const parsed = ruleOptionsSchema.safeParse({ ...base.options, ...rules }, { reportInput: true });
  if (!parsed.success) throw new RuleError(formatRuleIssues(parsed.error));
  const options = parsed.data;
  const decks = options.decks ?? (players >= base.twoDecksFrom ? 2 : 1);
  const settled: Rules = Object.freeze({ ...options, decks, milestones: options.milestones.map(([at, to]) => [at, to] as const) });
  checkDealable(settled, players);
  return settled;
}

/** The rules objects turned to text last, newest first: a server's requests name a few tables, each one shared object. */
const rulesTexts: { rules: Rules; json: string }[] = [];
const RULES_TEXTS_KEPT = 4;

/**
 * `JSON.stringify(rules)`, kept for the few rules objects asked about last (a settled rules object
 * is frozen: its text never changes): a key for caches per table, made once rather than per request.
 */
export function rulesJson(rules: Rules): string {
  const kept = rulesTexts.find((entry) => entry.rules === rules);
  if (kept) return kept.json;
  const json = JSON.stringify(rules);
  rulesTexts.unshift({ rules, json });
  if (rulesTexts.length > RULES_TEXTS_KEPT) rulesTexts.pop();
  return json;
}

function checkDealable(rules: Rules, players: number): void {
  const cards = deckComposition(rules.decks, rules.jokersPerDeck).reduce((a, b) => a + b, 0);
  const needed = players * rules.handSize + 1;
  if (needed > cards) {
    throw new RuleError(
      `${players} players with handSize ${rules.handSize} need ${needed} cards but decks ${rules.decks} with jokersPerDeck ${rules.jokersPerDeck} hold ${cards}`,
    );
  }
}

/** The JSON schema of the rule options, generated from the one zod schema. */
export function ruleOptionsJsonSchema(): unknown {
  return z.toJSONSchema(ruleOptionsSchema, { io: 'input' });
}

/** Whether a schema is `ruleOverridesSchema` or one derived from it (described, defaulted): the same check. */
export function isRuleOverrides(schema: { readonly _zod: { readonly def: object } }): boolean {
  const def = schema._zod.def as { type?: unknown; fn?: unknown };
  return def.type === 'custom' && def.fn === (ruleOverridesSchema._zod.def as { fn?: unknown }).fn;
}

/**
 * What rule overrides may hold, as JSON Schema for documents that describe them (the protocol's
 * `rules`): every rule option with its range, none required and no defaults (the preset's
 * values apply), nothing else. `resolveRules` checks the same, with the words.
 */
export function ruleOverridesJsonSchema(): Record<string, unknown> {
  const { properties } = z.toJSONSchema(ruleOptionsSchema, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
  const options = Object.fromEntries(Object.entries(properties).map(([name, { default: _, ...option }]) => [name, option]));
  return { type: 'object', properties: options, additionalProperties: false };
}
