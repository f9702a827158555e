/**
 * Settings as command-line flags, from their zod schema: a field's flag (its name in kebab case
 * unless renamed), the value it takes, its help (description, choices, bounds, default), its text
 * read as that value, and a failed parse as one sentence naming the flags. Pure and game-free:
 * cli/schemaOptions.ts binds it to commander; training's messages and the generated docs tables
 * (scripts/docs.ts) name the flags as the commands do.
 */
import type { z } from 'zod';

/** How one field appears on the command line where the schema alone does not say it. */
export interface FlagSpec {
  /** The flag, when it is not the field's name in kebab case (allowOrigins → --allow-origin). */
  flag?: string;
  /** The placeholder of the value in --help (default by kind: <n>, <list>, <name>, <value>). */
  value?: string;
  /** The help text, when the command line says it otherwise than the schema's description. */
  description?: string;
  /** The default as help and docs show it, when the schema's depends on the machine or the command sets it. */
  defaultText?: string;
  /** An environment variable read when the flag is absent. */
  env?: string;
  /** No value: `--resume` turns the field on, a `--no-progress` flag turns it off. */
  switch?: boolean;
  /** Values may follow the flag one after another (`--allow-origin A B`), as well as comma-separated. */
  variadic?: boolean;
  /** The flag is added by another helper (the shared rule flags): named in messages and tables, not generated. */
  elsewhere?: boolean;
}

/** A flag per field of a schema: a spec, or false for a field that is not a flag of the command. */
export type FlagSpecs<Shape> = { [K in keyof Shape]?: FlagSpec | false };

export type FlagKind = 'switch' | 'boolean' | 'number' | 'text' | 'numbers' | 'texts';

/** One field of a schema as a flag, everything the help, the parser and the docs need. */
export interface SchemaFlag {
  key: string;
  flag: string;
  /** The placeholder of the value, `<n>`; null for a switch. */
  value: string | null;
  kind: FlagKind;
  /** The description, without its final period. */
  description: string;
  /** The values allowed, in words ("one of round, game", "from 2 to 8", "≥ 1; or none"), or ''. */
  allowed: string;
  /** The default in words, or null when there is none (the flag is optional or required). */
  defaultText: string | null;
  /** Whether the schema refuses the field absent. */
  required: boolean;
  choices: readonly string[] | null;
  nullable: boolean;
  env: string | null;
  variadic: boolean;
  elsewhere: boolean;
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; options?: z.ZodType[]; values?: unknown[] };
const defOf = (schema: z.ZodType) => schema.def as unknown as Def;

/** `hiddenUnits` → `--hidden-units`. */
export function kebabFlag(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The schema under default/optional/nullable wrappers (and the input side of a pipe), and whether null is allowed. */
function unwrap(field: z.ZodType): { core: z.ZodType; nullable: boolean } {
  let current = field;
  let nullable = false;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'nullable') nullable = true;
    const inner = def.type === 'pipe' ? def.in : def.innerType;
    if (!inner) return { core: current, nullable };
    current = inner;
  }
}

/** The values an enum or a union of literals allows, else null. */
function choicesOf(core: z.ZodType): readonly unknown[] | null {
  const def = defOf(core);
  if (def.type === 'enum') return (core as unknown as { options: string[] }).options;
  if (def.type === 'literal') return def.values ?? null;
  if (def.type === 'union' && def.options?.every((o) => defOf(o).type === 'literal'))
    return def.options.flatMap((o) => defOf(o).values ?? []);
  return null;
}

function kindOf(core: z.ZodType): FlagKind {
  const def = defOf(core);
  if (def.type === 'boolean') return 'boolean';
  if (def.type === 'number') return 'number';
  if (def.type === 'array') return def.element && unwrap(def.element).core.def.type === 'number' ? 'numbers' : 'texts';
  const choices = choicesOf(core);
  if (choices?.every((c) => typeof c === 'number')) return 'number';
  return 'text';
}

/** "from 2 to 8", "≥ 1", "> 0", or '' when the schema gives no bound worth saying. */
function boundsOf(core: z.ZodType): string {
  const checks = (core.def as { checks?: { _zod: { def: { check: string; value: number; inclusive: boolean } } }[] }).checks ?? [];
  let low: { value: number; inclusive: boolean } | null = null;
  let high: { value: number; inclusive: boolean } | null = null;
  // Bounds at the safe-integer limits are those of every integer: not worth saying.
  for (const { _zod } of checks) {
    if (_zod.def.check === 'greater_than' && _zod.def.value > Number.MIN_SAFE_INTEGER) low = _zod.def;
    if (_zod.def.check === 'less_than' && _zod.def.value < Number.MAX_SAFE_INTEGER) high = _zod.def;
  }
  if (low && high && low.inclusive && high.inclusive) return `from ${low.value} to ${high.value}`;
  const parts = [low && `${low.inclusive ? '≥' : '>'} ${low.value}`, high && `${high.inclusive ? '≤' : '<'} ${high.value}`];
  return parts.filter(Boolean).join(', ');
}

/** The default as a flag would take it: 256,128 for a list, the text else. */
export function flagDefaultText(value: unknown): string {
  if (Array.isArray(value)) return value.length ? value.join(',') : 'none';
  return value === null ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** The description set on a field, looking through its wrappers. */
export function descriptionOf(field: z.ZodType): string {
  let current: z.ZodType | undefined = field;
  while (current) {
    if (current.description) return current.description;
    const def = defOf(current);
    current = def.type === 'pipe' ? def.in : def.innerType;
  }
  return '';
}

const PLACEHOLDERS: Record<Exclude<FlagKind, 'switch'>, string> = {
  boolean: '<true|false>',
  number: '<n>',
  text: '<value>',
  numbers: '<list>',
  texts: '<list>',
};

function allowedValues(choices: readonly unknown[] | null, bounds: string, nullable: boolean): string {
  return [choices && `one of ${choices.join(', ')}`, bounds, nullable && 'or none'].filter(Boolean).join('; ');
}

/** The help of a flag: its description, then the values allowed and the default. */
export function flagHelp(flag: SchemaFlag): string {
  const notes = [flag.allowed, flag.kind !== 'switch' && flag.defaultText !== null && `default: ${flag.defaultText}`].filter(Boolean);
  return notes.length ? `${flag.description} (${notes.join('; ')})` : flag.description;
}

function schemaFlag(key: string, field: z.ZodType, spec: FlagSpec): SchemaFlag {
  const { core, nullable } = unwrap(field);
  const choices = choicesOf(core);
  const fallback = field.safeParse(undefined);
  const kind = spec.switch ? 'switch' : kindOf(core);
  const elementCore = kind === 'numbers' ? unwrap(defOf(core).element!).core : core;
  const defaultText = spec.defaultText ?? (fallback.success && fallback.data !== undefined ? flagDefaultText(fallback.data) : null);
  return {
    key,
    flag: spec.flag ?? kebabFlag(key),
    value: kind === 'switch' ? null : (spec.value ?? (choices && kind === 'text' ? '<name>' : PLACEHOLDERS[kind])),
    kind,
    description: (spec.description ?? descriptionOf(field)).replace(/\.$/, ''),
    allowed: allowedValues(choices, boundsOf(elementCore), nullable),
    defaultText,
    required: !fallback.success && spec.defaultText === undefined,
    choices: choices?.map(String) ?? null,
    nullable,
    env: spec.env ?? null,
    variadic: spec.variadic === true,
    elsewhere: spec.elsewhere === true,
  };
}

/** The flags of a schema's fields, in the schema's order; a field whose spec is false is left out. */
export function schemaFlags<Shape extends z.core.$ZodLooseShape>(schema: z.ZodObject<Shape>, specs: FlagSpecs<Shape> = {}): SchemaFlag[] {
  return Object.entries(schema.shape).flatMap(([key, field]) => {
    const spec = specs[key as keyof Shape];
    return spec === false ? [] : [schemaFlag(key, field as z.ZodType, spec ?? {})];
  });
}

/** The flag of a field: its spec's, else its name in kebab case. */
export function flagOf(specs: FlagSpecs<Record<string, unknown>>, key: string): string {
  const spec = specs[key];
  return (spec && spec.flag) || kebabFlag(key);
}

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

function readScalar(text: string, kind: 'boolean' | 'number' | 'text'): unknown {
  if (kind === 'number') return DECIMAL.test(text) ? Number(text) : Number.NaN;
  if (kind === 'boolean') return ['true', '1'].includes(text) ? true : ['false', '0'].includes(text) ? false : text;
  return text;
}

/** A flag's value as its field takes it: lists split at commas, numbers, booleans, "null"/"none" for a nullable field. */
export function readFlagValue(flag: SchemaFlag, raw: unknown): unknown {
  if (typeof raw !== 'string' && !Array.isArray(raw)) return raw;
  const text = Array.isArray(raw) ? raw.join(',') : raw.trim();
  if (flag.nullable && (text === 'null' || text === 'none')) return null;
  if (flag.kind === 'numbers' || flag.kind === 'texts') {
    const parts = text.split(',').map((part) => part.trim());
    return flag.kind === 'numbers' ? parts.map((part) => readScalar(part, 'number')) : parts.filter(Boolean);
  }
  return flag.kind === 'switch' ? raw : readScalar(text, flag.kind);
}

export type FlagParse<T> = { success: true; data: T } | { success: false; message: string };

/**
 * The flags given (`raw`, by field name; absent ones undefined, so the schema's defaults apply)
 * parsed by the schema; a failure is one sentence naming each bad flag and what it got.
 */
export function parseSchemaFlags<S extends z.ZodObject>(
  schema: S,
  flags: readonly SchemaFlag[],
  raw: Readonly<Record<string, unknown>>,
): FlagParse<z.output<S>> {
  const input: Record<string, unknown> = {};
  for (const flag of flags) if (raw[flag.key] !== undefined) input[flag.key] = readFlagValue(flag, raw[flag.key]);
  for (const [key, value] of Object.entries(raw)) if (!(key in input) && value !== undefined && key in schema.shape) input[key] = value;
  const parsed = schema.safeParse(input);
  if (parsed.success) return { success: true, data: parsed.data };
  const byKey = new Map(flags.map((f) => [f.key, f]));
  const message = parsed.error.issues
    .map((issue) => {
      const key = String(issue.path[0] ?? '');
      if (!key) return issue.message;
      const given = raw[key];
      const got =
        typeof given === 'string' || Array.isArray(given) ? ` (got ${JSON.stringify(Array.isArray(given) ? given.join(',') : given)})` : '';
      return `${byKey.get(key)?.flag ?? kebabFlag(key)}: ${issue.message}${got}`;
    })
    .join('; ');
  return { success: false, message };
}
