/**
 * The house-rules form, read from `welcome.ruleOptions` (the JSON Schema of the rule options)
 * and the chosen preset's options: one field per option that a form control can hold — yes/no,
 * a whole number in a range, one of a few values —, each with the preset's value as its
 * default. Options of other shapes (milestone lists) keep the preset's value.
 */
import { spaced } from './words.js';

export type RuleValue = string | number | boolean | null | undefined;

export interface RuleField {
  readonly name: string;
  readonly description: string;
  readonly control: 'checkbox' | 'number' | 'select';
  /** select: the values offered (undefined: the rules decide, e.g. decks by table size). */
  readonly choices?: readonly RuleValue[];
  readonly min?: number;
  readonly max?: number;
  /** number: an empty field means null ("not set"). */
  readonly nullable?: boolean;
  /** The value under the preset. */
  readonly preset: RuleValue;
}

interface Schema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
  properties?: Record<string, Schema>;
}

/** The fields of the form for this rule-option schema under a preset's options. */
export function ruleFields(schema: unknown, presetOptions: Record<string, unknown>): RuleField[] {
  const properties = (schema as Schema | null)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, option]) => {
    const field = fieldOf(name, option);
    if (field === null) return [];
    const preset = Object.hasOwn(presetOptions, name) ? presetOptions[name] : option.default;
    return isRuleValue(preset) ? [{ ...field, preset }] : [];
  });
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
  const integer = alternatives.find((a) => a.type === 'integer');
  if (alternatives.length === 2 && integer && alternatives.some((a) => a.type === 'null'))
    return { name, description, control: 'number', min: integer.minimum, max: integer.maximum, nullable: true };
  return null;
}

function isRuleValue(value: unknown): value is RuleValue {
  return value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);
}

/** How a field's value reads in a select or a number box. */
export function valueLabel(value: RuleValue): string {
  if (value === undefined) return 'as the rules decide';
  if (value === null) return 'not set';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return typeof value === 'string' ? spaced(value) : String(value);
}
