// A zod schema as commander options (support/schemaFlags.ts says how each field is a flag):
// the options added, their values read back by field name, parsed by the schema, and a bad value
// an InvalidArgumentError naming the flag (exit 2 in cli/main.ts).
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import { type SchemaFlag, flagHelp, parseSchemaFlags } from '../support/schemaFlags.js';

function optionOf(flag: SchemaFlag): Option {
  const value = flag.value === null ? '' : flag.variadic ? ` ${flag.value.replace(/>$/, '...>')}` : ` ${flag.value}`;
  const option = new Option(flag.flag + value, flagHelp(flag));
  return flag.env === null ? option : option.env(flag.env);
}

/** Adds an option for each flag (those added elsewhere aside); the values stay text until readSchemaOptions. */
export function addSchemaOptions(command: Command, flags: readonly SchemaFlag[]): Command {
  for (const flag of flags) if (!flag.elsewhere) command.addOption(optionOf(flag));
  return command;
}

function attributeOf(command: Command, flag: SchemaFlag): string {
  const option = command.options.find((o) => o.long === flag.flag);
  if (!option) throw new Error(`${flag.flag} is not an option of yaniv ${command.name()}`);
  return option.attributeName();
}

/** The values of the flags given, by field name (absent flags undefined). */
export function schemaOptionValues(command: Command, flags: readonly SchemaFlag[]): Record<string, unknown> {
  const options = command.opts();
  return Object.fromEntries(flags.filter((f) => !f.elsewhere).map((f) => [f.key, options[attributeOf(command, f)]]));
}

/** The fields whose flag was typed on the command line (not defaulted, not from the environment). */
export function schemaOptionsGiven(command: Command, flags: readonly SchemaFlag[]): Set<string> {
  return new Set(flags.filter((f) => !f.elsewhere && command.getOptionValueSource(attributeOf(command, f)) === 'cli').map((f) => f.key));
}

/** The values (by field name: the flags' and any the command sets itself) parsed by the schema; a bad one throws naming its flag. */
export function readSchemaOptions<S extends z.ZodObject>(
  schema: S,
  flags: readonly SchemaFlag[],
  values: Readonly<Record<string, unknown>>,
): z.output<S> {
  const parsed = parseSchemaFlags(schema, flags, values);
  if (!parsed.success) throw new InvalidArgumentError(parsed.message);
  return parsed.data;
}
