// A compiled check is zod's schema made fast: it must accept exactly what the schema accepts,
// fill in the same defaults, and leave the refusals (and their words) to zod.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledCheck, parseFast } from '../../support/compiledSchema.js';
import { intFrom } from '../../support/zod.js';

const options = z
  .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value))
  .meta({ type: 'object', additionalProperties: {} });

const schema = z.strictObject({
  name: z.string().regex(/^[a-c]{1,3}$/),
  count: intFrom(-5, 5),
  mode: z.enum(['x', 'y']).default('x'),
  items: z.array(z.boolean()).min(1).max(3),
  note: z.string().max(4).nullable().default(null),
  label: z
    .string()
    .max(3)
    .regex(/^.{0,2}$/)
    .optional(),
  later: intFrom(0).optional(),
  inner: z.strictObject({ size: z.number().min(0).max(2) }).nullable(),
  options: options.default({}),
});

const valid = { name: 'ab', count: 0, items: [true], inner: null };
const FIELDS = [...Object.keys(schema.shape), 'extra'];
const odd = fc.oneof(
  fc.constantFrom(
    0,
    -5,
    5,
    6,
    1.5,
    -0,
    NaN,
    Infinity,
    -Infinity,
    'a',
    'abcd',
    'd',
    '',
    'y',
    'z',
    null,
    true,
    [],
    {},
    { size: 1 },
    { size: 3 },
    [true, false],
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('a compiled check', () => {
  it('accepts exactly what its schema accepts, with the same defaults', () => {
    const check = compiledCheck(schema);
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.option(odd)), { maxLength: 3 }), (edits) => {
        const value: Record<string, unknown> = structuredClone(valid);
        for (const [field, replacement] of edits) {
          if (replacement === null) delete value[field];
          else value[field] = replacement;
        }
        const reference = schema.safeParse(value);
        const fast = structuredClone(value);
        expect(check(fast)).toBe(reference.success);
        if (reference.success) {
          expect(fast).toEqual(reference.data);
          accepted++;
        }
      }),
      { numRuns: 1500, seed: 1 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it.each([
    ['note', '😀😀'],
    ['note', '😀a😀'],
    ['label', '😀'],
    ['label', 'a😀'],
    ['label', '😀😀'],
  ])('counts %s = %j in code points and matches its pattern without the u flag, like zod', (field, text) => {
    const value = { ...valid, [field]: text };
    expect(compiledCheck(schema)(structuredClone(value))).toBe(schema.safeParse(value).success);
  });

  it('holds a refinement JSON Schema cannot say, as the refined schema does', () => {
    const nonZero = (value: { count: number }) => value.count !== 0;
    const refined = schema.refine(nonZero);
    const check = compiledCheck(schema, nonZero);
    for (const count of [0, 1, 9]) expect(check(structuredClone({ ...valid, count }))).toBe(refined.safeParse({ ...valid, count }).success);
  });

  it('refuses to compile a custom check whose JSON form is not given', () => {
    const bare = z.strictObject({ options: z.custom<object>((value) => typeof value === 'object') });
    expect(() => compiledCheck(bare)({ options: {} })).toThrow('the custom check at properties.options has no JSON form (.meta)');
  });

  it('leaves the refusal to the schema, in its words', () => {
    const check = compiledCheck(schema);
    expect(parseFast(schema, check, { ...valid, count: 9 }, () => 'out of range')).toMatchObject({
      success: false,
      error: { issues: [{ path: ['count'], message: 'must be an integer from -5 to 5' }] },
    });
    expect(parseFast(schema, check, { ...valid, items: 'no' }, () => 'not a list')).toMatchObject({
      success: false,
      error: { issues: [{ path: ['items'], message: 'not a list' }] },
    });
    const accepted = { ...valid };
    expect(parseFast(schema, check, accepted)).toEqual({ success: true, data: accepted });
    expect(accepted).toMatchObject({ mode: 'x', note: null, options: {} });
  });
});
