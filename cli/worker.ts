// `yaniv worker --redis URL [--concurrency N]`: plays the games of `yaniv bench --redis URL` from
// this machine until Ctrl-C (agents/tournament/queue.ts).
import { Command } from 'commander';
import { WORKER_FLAGS, workerOptionsSchema } from '../agents/tournament/benchOptions.js';
import { schemaFlags } from '../support/schemaFlags.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues } from './schemaOptions.js';
import { stopOnSignal } from './stopSignal.js';

const FLAGS = schemaFlags(workerOptionsSchema, WORKER_FLAGS);

export function workerCommand(): Command {
  const command = new Command('worker').description(
    'Play the games of `yaniv bench --redis URL` runs from this machine, each job in a child process; a job this worker does not finish (killed) is played again by another. Runs until Ctrl-C.',
  );
  return addSchemaOptions(command, FLAGS).action(async (_options: unknown, cmd: Command) => {
    const options = readSchemaOptions(workerOptionsSchema, FLAGS, schemaOptionValues(cmd, FLAGS));
    const { runBenchWorker } = await import('../agents/tournament/queue.js');
    const stop = stopOnSignal('yaniv worker: stopping (the jobs being played go back to the queue)');
    const result = await runBenchWorker({
      url: options.redis,
      concurrency: options.concurrency,
      lockMs: options.lockSeconds * 1000,
      log: (message) => process.stderr.write(message + '\n'),
      stopRequested: () => stop.requested,
      stopSignal: stop.signal,
    });
    stop.release();
    process.stderr.write(`stopped: ${result.jobs} jobs, ${result.games} games played\n`);
    if (result.refused !== null) {
      process.stderr.write(`yaniv worker: a job of another build came (${result.refused}): update this machine and start again\n`);
      process.exitCode = 2;
    }
  });
}
