// `yaniv actor --redis URL [--run ID] [--workers W]`: joins a training run over Redis from any
// machine and plays for it until the learner finishes (training/redisRun.ts).
import { Command, InvalidArgumentError, Option } from 'commander';
import { backendOption } from '../nn/backendChoice.js';
import type { BackendChoice } from '../nn/backendChoice.js';
import { stopOnSignal } from './stopSignal.js';
import { REDIS_ENV } from '../support/redis.js';

export function actorCommand(): Command {
  return new Command('actor')
    .description(
      "Play for a training run of `yaniv train --redis URL` from this machine: the run's rules, network and opponent mix come from Redis, the latest weights too; the trajectories go back on a Redis stream. Ends when the learner finishes the run (or on Ctrl-C).",
    )
    .addOption(new Option('--redis <url>', 'Redis URL, with a password or ACL user if set (redis://user:pass@host:6379)').env(REDIS_ENV))
    .option('--run <id>', 'the run ID that `yaniv train --redis` printed (default: the one active run)')
    .option('--workers <w>', "actor worker threads (0: one actor in this process's thread)", '1')
    .addOption(backendOption())
    .action(async (raw: { redis?: string; run?: string; workers: string; backend: BackendChoice }) => {
      if (raw.redis === undefined) throw new InvalidArgumentError(`--redis URL (or ${REDIS_ENV}) is required`);
      const workers = Number(raw.workers);
      if (!Number.isInteger(workers) || workers < 0)
        throw new InvalidArgumentError(`--workers: must be a whole number ≥ 0, got ${raw.workers}`);
      const { initBackend } = await import('../nn/backend.js');
      const { runActorHost } = await import('../training/redisRun.js');
      const stop = stopOnSignal('yaniv actor: stopping (the parts being played are dropped)');
      if (workers === 0) await initBackend(raw.backend);
      let lastLine = 0;
      const result = await runActorHost({
        url: raw.redis,
        run: raw.run ?? null,
        workers,
        backend: raw.backend,
        log: (message) => process.stderr.write(message + '\n'),
        stopRequested: () => stop.requested,
        stopSignal: stop.signal,
        onStatus: (s) => {
          if (Date.now() - lastLine < 10_000) return;
          lastLine = Date.now();
          process.stderr.write(
            `run ${s.run}: ${s.parts} parts sent, ${s.decisionsPerSecond.toFixed(0)} decisions/s, weights v${s.version}\n`,
          );
        },
      });
      stop.release();
      process.stderr.write(`${result.finished ? 'run finished' : 'stopped'}: ${result.parts} parts sent to run ${result.run}\n`);
    });
}
