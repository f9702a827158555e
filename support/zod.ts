/**
 * Building blocks for schemas (options, documents, protocol messages): each states what it
 * accepts in words, and the formatters turn a zod failure into sentences that name the field or
 * option and show what was given. Game-free.
 */
import { z } from 'zod';
import { maskSecrets } from './secret.js';

/** An integer from `lo` (to `hi`); `what` names it in the error ("a seat from 0 to 7"). */
export function intFrom(lo: number, hi?: number, what = 'an integer') {
  const range = hi === undefined ? `${what} ≥ ${lo}` : `${what} from ${lo} to ${hi}`;
  const base = z.int({ error: `must be ${range}` }).min(lo, { error: `must be ${range}` });
  return hi === undefined ? base : base.max(hi, { error: `must be ${range}` });
}

/** A string of at most `max` characters. */
export function text(max: number) {
  return z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}` });
}

export function bool() {
  return z.boolean({ error: 'must be true or false' });
}

/**
 * An input value for an error message: compact JSON, cut to three levels, eight entries a
 * level and `maxLength` characters, so that a huge or deeply nested input (a client's
 * document) can neither flood the message nor overflow the stack as JSON.stringify would; a URL's
 * password is never shown.
 */
export function preview(value: unknown, maxLength = 80): string {
  const text = maskSecrets(render(value, 3));
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

function render(value: unknown, depth: number): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value !== 'object' || value === null) return typeof value === 'function' ? 'a function' : String(value);
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.slice(0, 8).map((v) => ['', v])
    : Object.keys(value)
        .slice(0, 8)
        .map((k) => [k, (value as Record<string, unknown>)[k]]);
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (size === 0) return open + close;
  if (depth === 0) return `${open}…${close}`;
  const items = entries.map(([key, v]) => (Array.isArray(value) ? '' : `${render(key, 0)}:`) + render(v, depth - 1));
  return `${open}${items.join(',')}${size > entries.length ? ',…' : ''}${close}`;
}

/** A zod issue path as people write it: `rounds[0].hands[1][2]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}

/**
 * Where a document (a record, a position) is wrong and how, from a zod issue of a parse with
 * `reportInput`: unknown fields by name, a wrong value with a preview of it.
 */
export function documentIssue(issue: z.ZodError['issues'][number]): { field: string; problem: string } {
  const field = fieldPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return { field, problem: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => preview(k)).join(', ')}` };
  }
  const got = issue.input === undefined ? ' (missing)' : issue.code === 'custom' ? '' : ` (got ${preview(issue.input)})`;
  return { field, problem: `${issue.message}${got}` };
}

/** `what "name" must be …(got …)`, one clause per problem; unknown keys list the known ones. */
export function formatOptionIssues(error: z.ZodError, what: string, known: readonly string[]): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `unknown ${what}${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => preview(k)).join(', ')}; the ${what}s are ${known.join(', ')}`;
      }
      const [option = '', ...rest] = issue.path.map(String);
      const where = option + rest.map((p) => `[${p}]`).join('');
      const got = issue.input !== undefined ? ` (got ${preview(issue.input)})` : issue.code === 'invalid_type' ? ' (missing)' : '';
      return `${what} "${where}" ${issue.message}${got}`;
    })
    .join('; ');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
  null: 'null',
};

/**
 * What a schema expects, in words, for the checks that carry no message of their own (a schema's
 * own messages come first): never zod's text. Pass as a parse's `error`.
 */
export function inWords(issue: z.core.$ZodRawIssue): string {
  const items = (origin: string) => (origin === 'string' ? ' characters' : origin === 'array' ? ' entries' : '');
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${items(issue.origin)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${items(issue.origin)}`;
    case 'invalid_value':
      return `must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return 'is not in the expected format';
    case 'invalid_union':
      return 'matches none of the forms this field takes';
    default:
      return 'is not valid here';
  }
}

/** " (missing)" when the field is absent, else what it holds, shortened: " (got \"abc\")". */
export function given(value: unknown, path: readonly PropertyKey[]): string {
  let at: unknown = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return ' (missing)';
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return path.length === 0 ? '' : ` (got ${preview(at, 60)})`;
}
