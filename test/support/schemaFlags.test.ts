// Settings as flags from their zod schema (support/schemaFlags.ts): names, values read from
// text, help, errors naming the flag; and the flags of train, serve and bench from their schemas.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BENCH_FLAGS, benchOptionsSchema } from '../../agents/tournament/benchOptions.js';
import { intFrom, oneOf } from '../../support/zod.js';
import { flagHelp, parseSchemaFlags, schemaFlags } from '../../support/schemaFlags.js';
import { SERVE_FLAGS, serveProcessSchema, serverOptionsSchema } from '../../serve/options.js';
import { TRAIN_FLAGS, flagName } from '../../training/config.js';

const schema = z.strictObject({
  hiddenUnits: z.array(intFrom(1)).min(1).default([256, 128]).describe('Layer widths.'),
  players: intFrom(2, 8).default(2).describe('Seats.'),
  mode: oneOf(['round', 'game']).default('game').describe('What an episode is.'),
  lag: z
    .union([z.literal(0), z.literal(1)], { error: 'must be 0 or 1' })
    .default(1)
    .describe('Lag.'),
  targetKl: z.number().positive({ error: 'must be a positive number' }).nullable().default(0.03).describe('KL bound.'),
  normalize: z.boolean({ error: 'must be true or false' }).default(true).describe('Normalise.'),
  resume: z.boolean().default(false).describe('Resume.'),
  allowOrigins: z.array(z.string()).default([]).describe('Origins.'),
  hidden: z.string().optional(),
});
const flags = schemaFlags(schema, {
  resume: { switch: true },
  allowOrigins: { flag: '--allow-origin', variadic: true },
  hidden: false,
});
const parse = (raw: Record<string, unknown>) => parseSchemaFlags(schema, flags, raw);

describe('schema flags', () => {
  it('name each field in kebab case unless renamed, and leave out the fields that are not flags', () => {
    expect(flags.map((f) => f.flag)).toEqual([
      '--hidden-units',
      '--players',
      '--mode',
      '--lag',
      '--target-kl',
      '--normalize',
      '--resume',
      '--allow-origin',
    ]);
    expect(flags.map((f) => f.kind)).toEqual(['numbers', 'number', 'text', 'number', 'number', 'boolean', 'switch', 'texts']);
  });

  it('say the choices, the bounds and the default in the help, from the schema', () => {
    const help = Object.fromEntries(flags.map((f) => [f.key, flagHelp(f)]));
    expect(help.hiddenUnits).toBe('Layer widths (≥ 1; default: 256,128)');
    expect(help.players).toBe('Seats (from 2 to 8; default: 2)');
    expect(help.mode).toBe('What an episode is (one of round, game; default: game)');
    expect(help.lag).toBe('Lag (one of 0, 1; default: 1)');
    expect(help.targetKl).toBe('KL bound (> 0; or none; default: 0.03)');
    expect(help.resume).toBe('Resume');
    expect(help.allowOrigins).toBe('Origins (default: none)');
  });

  it('read their text as the values of the fields, absent ones taking the defaults', () => {
    expect(
      parse({ hiddenUnits: '64, 32', players: '4', lag: '0', targetKl: 'none', normalize: 'false', allowOrigins: ['a', 'b,c'] }),
    ).toEqual({
      success: true,
      data: {
        hiddenUnits: [64, 32],
        players: 4,
        mode: 'game',
        lag: 0,
        targetKl: null,
        normalize: false,
        resume: false,
        allowOrigins: ['a', 'b', 'c'],
      },
    });
    expect(parse({ resume: true, normalize: '1' })).toMatchObject({ success: true, data: { resume: true, normalize: true } });
  });

  it('refuse bad values in one sentence naming each flag and what it got', () => {
    expect(parse({ players: '9', mode: 'match' })).toEqual({
      success: false,
      message: '--players: must be an integer from 2 to 8 (got "9"); --mode: must be one of "round", "game" (got "match")',
    });
    expect(parse({ hiddenUnits: '8,x' })).toMatchObject({
      success: false,
      message: expect.stringMatching(/^--hidden-units: .*\(got "8,x"\)$/),
    });
    for (const [raw, message] of [
      [{ players: '0x4' }, '--players: must be an integer from 2 to 8 (got "0x4")'],
      [{ players: '' }, '--players: must be an integer from 2 to 8 (got "")'],
      [{ lag: '2' }, '--lag: must be 0 or 1 (got "2")'],
      [{ targetKl: '-1' }, '--target-kl: must be a positive number (got "-1")'],
      [{ normalize: 'maybe' }, '--normalize: must be true or false (got "maybe")'],
    ] as const) {
      expect(parse(raw)).toEqual({ success: false, message });
    }
  });
});

describe('the flags of train, serve and bench', () => {
  const commands = {
    train: [...TRAIN_FLAGS.run, ...TRAIN_FLAGS.session, ...TRAIN_FLAGS.hyperParameters],
    serve: [...schemaFlags(serverOptionsSchema, SERVE_FLAGS), ...schemaFlags(serveProcessSchema)],
    bench: schemaFlags(benchOptionsSchema, BENCH_FLAGS),
  };

  it.each(Object.entries(commands))('%s: each flag is described and named once, the rule selection by the shared rule flags', (_, list) => {
    for (const flag of list) expect(flag.description, flag.flag).not.toBe('');
    const names = list.map((f) => f.flag);
    expect(new Set(names).size).toBe(names.length);
    expect(list.filter((f) => f.elsewhere).map((f) => f.flag)).toEqual(['--rules', '--rule']);
  });

  it("name the train settings in the trainer's own messages as the command does", () => {
    expect(['hiddenUnits', 'preset', 'rules', 'initFrom'].map(flagName)).toEqual(['--hidden-units', '--rules', '--rule', '--init-from']);
  });
});
