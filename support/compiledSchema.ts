/**
 * A fast path for a zod schema on a hot edge: its JSON Schema (`z.toJSONSchema`, the form the
 * protocol's documentation is generated from) compiled by Ajv into one function that accepts
 * what the schema accepts and fills in its defaults, about ten times faster than zod's parse.
 * Zod stays the reference and the voice: a value the check refuses is parsed by the schema for
 * the words of its refusal. Fit only for schemas whose JSON Schema says all they check (no
 * transforms; a refinement given to the check as well; a `.meta` stating a custom check's JSON
 * form); a property test
 * per schema keeps the two equal (test/support/compiledSchema.test.ts and the schema's own).
 * Game-free.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';

// Patterns without the u flag, as zod matches them (lengths are code points in both, as JSON Schema says).
const AJV_OPTIONS = { useDefaults: true, allErrors: false, unicodeRegExp: false } as const;

/** True when `value` is valid for the schema; it then holds the schema's defaults, filled in place. */
export type CompiledCheck<S extends z.ZodType> = (value: unknown) => value is z.output<S>;

/**
 * The compiled check of `schema`, built on first use. Input (`io: 'input'`) form, so that a
 * field with a default may be absent; a custom check without a `.meta` giving its JSON form
 * throws rather than compile a looser check. `refine`: what the schema refines with and JSON
 * Schema cannot say, as a test of a value the compiled part accepted.
 */
export function compiledCheck<S extends z.ZodType>(schema: S, refine?: (value: z.output<S>) => boolean): CompiledCheck<S> {
  let validate: ValidateFunction | undefined;
  return (value: unknown): value is z.output<S> => {
    validate ??= new Ajv2020(AJV_OPTIONS).compile(jsonSchemaOf(schema));
    return validate(value) && (refine === undefined || refine(value as z.output<S>));
  };
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const customs: { path: (string | number)[]; form: { type?: unknown } }[] = [];
  const generated = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema, path }) => {
      if (zodSchema._zod.def.type === 'custom') customs.push({ path, form: jsonSchema });
    },
  });
  // A custom check's form is the `.meta` of it or of a schema derived from it (the override sees each).
  const where = (path: (string | number)[]) => path.join('.') || 'the root';
  const formed = new Set(customs.filter(({ form }) => form.type !== undefined).map(({ path }) => where(path)));
  const formless = customs.find(({ path }) => !formed.has(where(path)));
  if (formless) throw new TypeError(`the custom check at ${where(formless.path)} has no JSON form (.meta): it cannot be compiled`);
  return generated;
}

/**
 * Parses `value` by `schema`: through `check` when it accepts (the value itself, defaults
 * filled in place: pass a value nothing else holds), else by zod with `error` for the words.
 */
export function parseFast<S extends z.ZodType>(
  schema: S,
  check: CompiledCheck<S>,
  value: unknown,
  error?: z.core.$ZodErrorMap,
): z.ZodSafeParseResult<z.output<S>> {
  if (check(value)) return { success: true, data: value };
  return schema.safeParse(value, error ? { error } : undefined);
}
