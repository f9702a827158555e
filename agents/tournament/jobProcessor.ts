// The processor of `yaniv worker`'s jobs, sandboxed: BullMQ runs it in child processes (one per
// concurrent job), so the games' CPU never delays the worker process renewing its job locks.
import type { SandboxedJob } from 'bullmq';
import { type JobResult, parseJob } from './benchJob.js';
import { playScheduled } from './play.js';

/** How often the games played so far are reported (the bench's progress bar). */
const PROGRESS_MS = 500;

// The worker process is gone (killed): its jobs go to other workers, so this one's play is wasted.
process.on('disconnect', () => process.exit(0));

export default async function playJob(job: SandboxedJob, _token?: string, signal?: AbortSignal): Promise<JobResult> {
  // The worker is stopping (SIGTERM): it has handed this job back to the queue, so its games are
  // abandoned now (BullMQ's own SIGTERM handling here would play the job to its end first).
  signal?.addEventListener('abort', () => process.exit(0), { once: true });
  const { config, games } = parseJob(job.data);
  const results: JobResult = [];
  let reported = Date.now();
  await playScheduled(config, games, async (index, result) => {
    results.push({ index, result });
    if (Date.now() - reported < PROGRESS_MS) return new Promise<void>((resolve) => setImmediate(resolve));
    reported = Date.now();
    await job.updateProgress(results.length);
  });
  return results;
}
