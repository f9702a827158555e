/**
 * Building blocks for the option schemas (rule options, environment options): each states
 * what it accepts in words, and one formatter turns a zod failure into sentences that name
 * the option and the allowed values.
 */
import { z } from 'zod';

export function intFrom(lo: number, hi?: number) {
  const range = hi === undefined ? `an integer ≥ ${lo}` : `an integer from ${lo} to ${hi}`;
  const base = z.int({ error: `must be ${range}` }).min(lo, { error: `must be ${range}` });
  return hi === undefined ? base : base.max(hi, { error: `must be ${range}` });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}` });
}

export function bool() {
  return z.boolean({ error: 'must be true or false' });
}

/** `what "name" must be …(got …)`, one clause per problem; unknown keys list the known ones. */
export function formatOptionIssues(error: z.ZodError, what: string, known: readonly string[]): string {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `unknown ${what}${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; the ${what}s are ${known.join(', ')}`;
    }
    const [option = '', ...rest] = issue.path.map(String);
    const where = option + rest.map((p) => `[${p}]`).join('');
    const got = issue.input !== undefined ? ` (got ${JSON.stringify(issue.input)})` : issue.code === 'invalid_type' ? ' (missing)' : '';
    return `${what} "${where}" ${issue.message}${got}`;
  }).join('; ');
}
