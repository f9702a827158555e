#!/usr/bin/env node
// The `yaniv` command line.
import { Command, InvalidArgumentError } from 'commander';
import { replayCommand } from './replay.js';

export function buildProgram(): Command {
  const program = new Command('yaniv')
    .description('yaniv-arena: the Yaniv rules engine, environment, agents and bot server')
    .showHelpAfterError()
    .exitOverride((error) => {
      // commander's own usage errors (unknown option, missing argument) exit 2 like a bad record.
      process.exit(error.exitCode === 0 ? 0 : 2);
    });

  program.command('replay')
    .description('Replay a yaniv-record/1 game record and print the result (exit 1: illegal move, 2: invalid record)')
    .argument('<file>', 'the record (JSON)')
    .option('--json', 'print the result as JSON (RECORD.md, "Replay result")')
    .action((file: string, options: { json?: boolean }) => {
      const { stdout, stderr, exitCode } = replayCommand(file, options);
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      process.exitCode = exitCode;
    });

  return program;
}

/** Parses a whole number flag with bounds, naming the flag in the error. */
export function intOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`} (got ${JSON.stringify(value)})`);
    }
    return n;
  };
}

await buildProgram().parseAsync(process.argv);
