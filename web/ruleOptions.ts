/**
 * The house-rules form, read from `welcome.ruleOptions` (the JSON Schema of the rule options)
 * and the chosen preset's options: one field per option that a form control can hold — yes/no,
 * a whole number in a range, one of a few values, a list of number pairs (milestones) —, each
 * with the preset's value as its default, and the schema's `relevantWhen` (an option that
 * matters only under some values of others, hidden otherwise).
 */
import type { Rules } from '../env/rules/rules.js';
import { spaced } from './words.js';

/** A list of [at, to] pairs (milestones: a total landing on `at` becomes `to`). */
export type Pairs = readonly (readonly [number, number])[];
export type RuleValue = string | number | boolean | null | undefined | Pairs;

export interface RuleField {
  readonly name: string;
  readonly description: string;
  readonly control: 'checkbox' | 'number' | 'select' | 'pairs';
  /** select: the values offered (undefined: the rules decide, e.g. decks by table size). */
  readonly choices?: readonly RuleValue[];
  readonly min?: number;
  readonly max?: number;
  /** pairs: the most pairs, and each side's range (the schema's `maxItems` and items' bounds). */
  readonly maxPairs?: number;
  readonly pairRanges?: readonly [{ min?: number; max?: number }, { min?: number; max?: number }];
  /** number: an empty field means null ("not set"). */
  readonly nullable?: boolean;
  /** The value under the preset. */
  readonly preset: RuleValue;
  /** The field matters only when each named option holds one of its values. */
  readonly relevantWhen?: Readonly<Record<string, readonly unknown[]>>;
}

interface Schema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  prefixItems?: Schema[];
  relevantWhen?: Record<string, unknown[]>;
}

/** The fields of the form for this rule-option schema under a preset's options. */
export function ruleFields(schema: unknown, presetOptions: Record<string, unknown>): RuleField[] {
  const properties = (schema as Schema | null)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, option]) => {
    const field = fieldOf(name, option);
    if (field === null) return [];
    const preset = Object.hasOwn(presetOptions, name) ? presetOptions[name] : option.default;
    const relevance = option.relevantWhen === undefined ? {} : { relevantWhen: option.relevantWhen };
    return isRuleValue(preset) ? [{ ...field, ...relevance, preset }] : [];
  });
}

/** Whether a field matters under these values of all the options (the preset's with the changes). */
export function isRelevant(field: RuleField, values: (name: string) => RuleValue): boolean {
  return Object.entries(field.relevantWhen ?? {}).every(([name, allowed]) => allowed.includes(values(name)));
}

/** Whether two values of a field are the same (pairs compared pair by pair). */
export function sameValue(a: RuleValue, b: RuleValue): boolean {
  return Array.isArray(a) || Array.isArray(b) ? JSON.stringify(a) === JSON.stringify(b) : a === b;
}

function fieldOf(name: string, option: Schema): Omit<RuleField, 'preset'> | null {
  const description = option.description ?? '';
  if (option.type === 'boolean') return { name, description, control: 'checkbox' };
  if (option.type === 'integer') return { name, description, control: 'number', min: option.minimum, max: option.maximum };
  if (option.type === 'string' && option.enum?.every(isRuleValue)) return { name, description, control: 'select', choices: option.enum };
  const alternatives = option.anyOf ?? [];
  if (alternatives.length > 0 && alternatives.every((a) => a.const !== undefined && isRuleValue(a.const))) {
    const choices = alternatives.map((a) => a.const as RuleValue);
    return { name, description, control: 'select', choices: option.default === undefined ? [undefined, ...choices] : choices };
  }
  if (option.type === 'array' && isIntegerPair(option.items)) {
    const [at, to] = (option.items?.prefixItems ?? []).map((side) => ({ min: side.minimum, max: side.maximum }));
    return { name, description, control: 'pairs', maxPairs: option.maxItems, pairRanges: [at, to] };
  }
  const integer = alternatives.find((a) => a.type === 'integer');
  if (alternatives.length === 2 && integer && alternatives.some((a) => a.type === 'null'))
    return { name, description, control: 'number', min: integer.minimum, max: integer.maximum, nullable: true };
  return null;
}

function isIntegerPair(item: Schema | undefined): boolean {
  return item?.type === 'array' && item.prefixItems?.length === 2 && item.prefixItems.every((p) => p.type === 'integer');
}

function isRuleValue(value: unknown): value is RuleValue {
  if (Array.isArray(value)) return value.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every(Number.isInteger));
  return value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Every word-valued choice of the rule options (the compiler asks for the words of a new one). */
type RuleChoiceValue = Extract<Rules[keyof Rules], string>;

const CHOICE_WORDS: Record<RuleChoiceValue, string> = {
  lowest: 'whoever caught the caller scores 0',
  othersZero: 'everyone but the caller scores 0',
  everyone: 'everyone but the caller scores their hand',
  any: 'any card',
  ends: 'only a card at an end',
  lastSurvivor: 'when one player is left',
  firstOverLimit: 'when the first player goes out',
  yanivCount: 'after a number of Yaniv calls',
  rotate: 'the next player in turn',
  roundWinner: 'the round’s winner',
  lowestHand: 'the player with the lowest hand',
};

/** How a field's value reads in a select or a number box. */
export function valueLabel(value: RuleValue): string {
  if (value === undefined) return 'as the rules decide';
  if (value === null) return 'not set';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : (value as Pairs).map(([at, to]) => `${at} → ${to}`).join(', ');
  if (typeof value !== 'string') return String(value);
  return Object.hasOwn(CHOICE_WORDS, value) ? CHOICE_WORDS[value as RuleChoiceValue] : spaced(value);
}
