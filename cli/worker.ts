// `yaniv worker --redis URL [--concurrency N]`: plays the games of `yaniv bench --redis URL` from
// this machine until Ctrl-C (agents/tournament/queue.ts).
import { availableParallelism } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import { stopOnSignal } from './stopSignal.js';

/** A whole number flag in a range, or an InvalidArgumentError naming the flag. */
function wholeNumber(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min)
    throw new InvalidArgumentError(`${flag} must be a whole number ≥ ${min} (got ${JSON.stringify(text)})`);
  return n;
}

export function workerCommand(): Command {
  return new Command('worker')
    .description(
      'Play the games of `yaniv bench --redis URL` runs from this machine, each job in a child process; a job this worker does not finish (killed) is played again by another. Runs until Ctrl-C.',
    )
    .addOption(new Option('--redis <url>', 'Redis URL, with a password or ACL user if set (redis://user:pass@host:6379)').env('REDIS_URL'))
    .option('--concurrency <n>', 'jobs played at once, each in its own process', String(availableParallelism()))
    .option(
      '--lock-seconds <s>',
      'how long a job waits on a worker that stopped answering (died) before another worker takes it over',
      '10',
    )
    .action(async (raw: { redis?: string; concurrency: string; lockSeconds: string }) => {
      if (raw.redis === undefined) throw new InvalidArgumentError('--redis URL (or REDIS_URL) is required');
      const concurrency = wholeNumber('--concurrency', raw.concurrency, 1);
      const lockSeconds = wholeNumber('--lock-seconds', raw.lockSeconds, 1);
      const { runBenchWorker } = await import('../agents/tournament/queue.js');
      const stop = stopOnSignal('yaniv worker: stopping after the jobs being played');
      const result = await runBenchWorker({
        url: raw.redis,
        concurrency,
        lockMs: lockSeconds * 1000,
        log: (message) => process.stderr.write(message + '\n'),
        stopRequested: () => stop.requested,
      });
      stop.release();
      process.stderr.write(`stopped: ${result.jobs} jobs, ${result.games} games played\n`);
      if (result.refused !== null) {
        process.stderr.write(`yaniv worker: a job of another build came (${result.refused}): update this machine and start again\n`);
        process.exitCode = 2;
      }
    });
}
