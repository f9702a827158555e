// `yaniv actor --redis URL [--run ID] [--workers W]`: joins a training run over Redis from any
// machine and plays for it until the learner finishes (training/redisRun.ts). Its flags come from
// actorOptionsSchema (training/config.ts).
import { Command } from 'commander';
import { ACTOR_FLAGS, actorOptionsSchema } from '../training/config.js';
import { schemaFlags } from '../support/schemaFlags.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues } from './schemaOptions.js';
import { stopOnSignal } from './stopSignal.js';

const FLAGS = schemaFlags(actorOptionsSchema, ACTOR_FLAGS);

export function actorCommand(): Command {
  const command = new Command('actor').description(
    "Play for a training run of `yaniv train --redis URL` from this machine: the run's rules, network and opponent mix come from Redis, the latest weights too; the trajectories go back on a Redis stream. Ends when the learner finishes the run (or on Ctrl-C).",
  );
  return addSchemaOptions(command, FLAGS).action(async (_options: unknown, cmd: Command) => {
    const options = readSchemaOptions(actorOptionsSchema, FLAGS, schemaOptionValues(cmd, FLAGS));
    const { initBackend } = await import('../nn/backend.js');
    const { runActorHost } = await import('../training/redisRun.js');
    const stop = stopOnSignal('yaniv actor: stopping (the parts being played are dropped)');
    if (options.workers === 0) await initBackend(options.backend);
    let lastLine = 0;
    const result = await runActorHost({
      url: options.redis,
      run: options.run ?? null,
      workers: options.workers,
      backend: options.backend,
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
