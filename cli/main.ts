#!/usr/bin/env node
// The `yaniv` command line.
import { Command, type CommanderError, InvalidArgumentError } from 'commander';
import { RuleError } from '../env/rules/rules.js';
import { backendCommand } from './backend.js';
import { benchCommand } from './bench.js';
import { replayCommand } from './replay.js';
import { plotCommand, trainCommand } from './train.js';

/** commander's own usage errors (unknown option, bad choice, missing argument) exit 2, like a bad record. */
function usageErrorExit(error: CommanderError): never {
  process.exit(error.exitCode === 0 ? 0 : 2);
}

/** Errors the user can fix, reported as one line without a stack trace. */
function isUserError(error: unknown): error is Error {
  const named = ['BackendUnavailableError', 'TrainSetupError', 'MetadataMismatchError'];
  return error instanceof InvalidArgumentError || error instanceof RuleError || (error instanceof Error && named.includes(error.name));
}

export function buildProgram(): Command {
  const program = new Command('yaniv')
    .description('yaniv-arena: the Yaniv rules engine, environment, agents and bot server')
    .showHelpAfterError()
    .exitOverride(usageErrorExit);

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

  program.addCommand(benchCommand().exitOverride(usageErrorExit));
  program.addCommand(backendCommand().exitOverride(usageErrorExit));
  program.addCommand(trainCommand().exitOverride(usageErrorExit));
  program.addCommand(plotCommand().exitOverride(usageErrorExit));

  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // Bad flags and other problems the user can fix: one line naming it, no stack trace.
  if (isUserError(error)) {
    process.stderr.write(`yaniv: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
