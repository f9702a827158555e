#!/usr/bin/env node
// The `yaniv` command line.
import { readFileSync } from 'node:fs';
import { Command, type CommanderError, InvalidArgumentError } from 'commander';
import { RuleError } from '../env/rules/rules.js';
import { REDIS_ENV } from '../support/redis.js';
import { backendCommand } from './backend.js';
import { benchCommand } from './bench.js';
import { calibrateCommand } from './calibrate.js';
import { equityCommand } from './equity.js';
import { replayCommand } from './replay.js';
import { schemaCommand, serveCommand } from './serve.js';
import { actorCommand } from './actor.js';
import { publishModelCommand } from './publishModel.js';
import { rateCommand } from './rate.js';
import { workerCommand } from './worker.js';
import { maskSecrets } from '../support/secret.js';
import { averageModelsCommand, plotCommand, trainCommand } from './train.js';

/** commander's own usage errors (unknown option, bad choice, missing argument) exit 2, like a bad record. */
function usageErrorExit(error: CommanderError): never {
  process.exit(error.exitCode === 0 ? 0 : 2);
}

/** Errors the user can fix, reported as one line without a stack trace. */
function isUserError(error: unknown): error is Error {
  return (
    error instanceof InvalidArgumentError ||
    error instanceof RuleError ||
    (error instanceof Error &&
      [
        'BackendUnavailableError',
        'AgentSpecError',
        'EquityError',
        'CalibrationError',
        'TrainSetupError',
        'MetadataMismatchError',
        'TransportSetupError',
        'PublishError',
        'RemoteJobError',
        'AverageModelsError',
      ].includes(error.name))
  );
}

/** The version in package.json (this file runs as dist/cli/main.js). */
function packageVersion(): string {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return version;
}

export function buildProgram(): Command {
  // An empty variable means unset (an orchestrator's `YANIV_REDIS=` must not read as a bad URL).
  if (process.env[REDIS_ENV] === '') delete process.env[REDIS_ENV];
  const program = new Command('yaniv')
    .description('yaniv-arena: the Yaniv rules engine, environment, agents and bot server')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError()
    .exitOverride(usageErrorExit);

  program
    .command('replay')
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
  program.addCommand(rateCommand().exitOverride(usageErrorExit));
  program.addCommand(equityCommand().exitOverride(usageErrorExit));
  program.addCommand(calibrateCommand().exitOverride(usageErrorExit));
  program.addCommand(backendCommand().exitOverride(usageErrorExit));
  program.addCommand(serveCommand().exitOverride(usageErrorExit));
  program.addCommand(schemaCommand().exitOverride(usageErrorExit));
  program.addCommand(trainCommand().exitOverride(usageErrorExit));
  program.addCommand(plotCommand().exitOverride(usageErrorExit));
  program.addCommand(averageModelsCommand().exitOverride(usageErrorExit));
  program.addCommand(actorCommand().exitOverride(usageErrorExit));
  program.addCommand(publishModelCommand().exitOverride(usageErrorExit));
  program.addCommand(workerCommand().exitOverride(usageErrorExit));

  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // Bad flags and other problems the user can fix: one line naming it, no stack trace.
  if (isUserError(error)) {
    process.stderr.write(`yaniv: ${maskSecrets(error.message)}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
