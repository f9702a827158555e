#!/usr/bin/env node
// The `yaniv` command line.
import { Command, InvalidArgumentError } from 'commander';
import { RuleError } from '../env/rules.js';
import { benchCommand } from './bench.js';
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

  program.addCommand(benchCommand());

  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // Bad flags and other problems the user can fix: one line naming it, no stack trace.
  if (error instanceof InvalidArgumentError || error instanceof RuleError) {
    process.stderr.write(`yaniv: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
