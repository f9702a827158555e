// Validation of configs and saved metadata: strict zod schemas, so an unknown key (a typo) is an
// error, and one readable line per problem instead of zod's JSON dump.
import type { z } from 'zod';

/** A config or file that does not match its schema; the message names the field and the problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** schema.parse, throwing ConfigError("<what>: <field>: <problem>; …"). */
export function parseConfig<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ` : '') + issue.message);
  throw new ConfigError(`${what}: ${problems.join('; ')}`);
}
