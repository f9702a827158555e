/**
 * A bench job on the Redis queue (queue.ts): some whole duplicate-deal groups of a tournament's
 * schedule, with the tournament's config and the build that scheduled it, and the results a
 * worker returns for them. Both ends check what they receive: a job of a foreign shape is refused
 * for good, a job of another build is left to a worker of the same build, and a result that does
 * not answer its job exactly is an error.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ruleSelectionSchema } from '../../env/index.js';
import type { MatchResult, SeatStats } from './match.js';
import type { TournamentConfig } from './tournamentConfig.js';
import type { ScheduledGame } from './schedule.js';

export const JOB_FORMAT = 'yaniv-bench-job/1';
/** The queue every bench and worker uses (BullMQ keys `bull:yaniv-bench:*`). */
export const QUEUE_NAME = 'yaniv-bench';

/** Set while the bench `bench` runs. */
export const benchAliveKey = (bench: string) => `yaniv:bench:${bench}:alive`;

/** The job is not a bench job at all: no worker can play it (BullMQ fails it without retries). */
export class ForeignJobError extends Error {
  override name = 'UnrecoverableError';
}

/** The job comes from another build: a worker of that build must play it (the job is retried elsewhere). */
export class BuildMismatchError extends Error {
  override name = 'BuildMismatchError';
}

/** The code that decides a game's result (env, nn, agents), hashed, with the package version: `0.1.0+3f9c21ab0d4e`. */
export const buildId: () => string = (() => {
  let id: string | null = null;
  return () => (id ??= computeBuildId());
})();

function computeBuildId(): string {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const extension = extname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  for (const folder of ['env', 'nn', 'agents']) {
    const files = (readdirSync(join(root, folder), { recursive: true }) as string[]).filter((f) => f.endsWith(extension)).sort();
    for (const file of files) hash.update(`${folder}/${file}\0`).update(readFileSync(join(root, folder, file)));
  }
  const { version } = JSON.parse(readFileSync(join(root, extension === '.js' ? '../package.json' : 'package.json'), 'utf8')) as {
    version: string;
  };
  return `${version}+${hash.digest('hex').slice(0, 12)}`;
}

const count = z.int().min(0);

const configSchema = z.strictObject({
  ...ruleSelectionSchema.shape,
  agents: z.array(z.string()).min(1),
  games: z.int().min(1),
  players: z.int().min(2).max(8),
  seed: z.int(),
  episode: z.enum(['round', 'game']),
  workers: z.int().min(1),
  maxTurns: z.int().min(1).optional(),
  saveRecords: z.string().optional(),
  lineup: z.array(z.string()).optional(),
}) satisfies z.ZodType<TournamentConfig>;

const gameSchema = z.strictObject({
  index: count,
  seats: z.array(z.string()).min(2).max(8),
  deal: count,
}) satisfies z.ZodType<ScheduledGame>;

const jobSchema = z.strictObject({
  format: z.literal(JOB_FORMAT),
  build: z.string(),
  /** The bench run the job belongs to. */
  bench: z.string(),
  config: configSchema,
  games: z.array(gameSchema).min(1),
});
export type BenchJob = z.output<typeof jobSchema>;

const seatSchema = z.strictObject({
  won: z.boolean(),
  rank: count,
  eliminatedAfter: count.nullable(),
  finalTotal: z.int(),
  roundPoints: z.int(),
  rounds: count,
  yanivCalls: count,
  yanivSuccesses: count,
  assafSuffered: count,
  assafCaused: count,
  milestonePoints: count,
  decisions: count,
  decisionNanos: z.number().min(0),
}) satisfies z.ZodType<SeatStats>;

const matchSchema = z.strictObject({
  seats: z.array(seatSchema),
  rounds: count,
  turns: count,
  winner: z.int().min(-1),
  truncated: z.boolean(),
  record: z.record(z.string(), z.unknown()).optional(),
});

const jobResultSchema = z.array(z.strictObject({ index: count, result: matchSchema }));
export type JobResult = { index: number; result: MatchResult }[];

export function makeJob(bench: string, config: TournamentConfig, games: readonly ScheduledGame[]): BenchJob {
  return { format: JOB_FORMAT, build: buildId(), bench, config, games: games.map((game) => ({ ...game, seats: [...game.seats] })) };
}

/** The job's data checked: a ForeignJobError for anything that is not a bench job, a BuildMismatchError for another build's. */
export function parseJob(data: unknown): BenchJob {
  // The build first: another build may well have another job shape.
  const { format, build } = (typeof data === 'object' && data !== null ? data : {}) as { format?: unknown; build?: unknown };
  if (typeof format === 'string' && format.startsWith('yaniv-bench-job/') && format !== JOB_FORMAT)
    throw new BuildMismatchError(`the job is in format ${format}; this worker reads ${JOB_FORMAT}`);
  if (format === JOB_FORMAT && typeof build === 'string' && build !== buildId())
    throw new BuildMismatchError(`the job comes from build ${build}; this worker is build ${buildId()}`);
  const parsed = jobSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ForeignJobError(`not a ${JOB_FORMAT} job: ${issue.path.join('.') || 'data'}: ${issue.message}`);
  }
  return parsed.data;
}

/** A worker's return value for `job`: one result per game of the job, each with its seats; anything else throws naming it. */
export function parseJobResult(value: unknown, job: { games: readonly ScheduledGame[] }): JobResult {
  const parsed = jobResultSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`not the results of a ${JOB_FORMAT} job: ${issue.path.join('.') || 'value'}: ${issue.message}`);
  }
  const results = parsed.data as JobResult;
  const expected = job.games.map((game) => `${game.index}:${game.seats.length}`).join(',');
  const got = results.map(({ index, result }) => `${index}:${result.seats.length}`).join(',');
  if (got !== expected) throw new Error(`the results are for the games ${got || 'none'}, not the job's ${expected}`);
  return results;
}

/** The schedule cut into jobs of whole duplicate-deal groups (the rotations of one deal stay together), about `gamesPerJob` games each. */
export function splitIntoJobs(games: readonly ScheduledGame[], gamesPerJob: number): ScheduledGame[][] {
  const jobs: ScheduledGame[][] = [];
  let current: ScheduledGame[] = [];
  for (const [i, game] of games.entries()) {
    current.push(game);
    const groupEnds = i + 1 === games.length || games[i + 1].deal !== game.deal;
    if (groupEnds && current.length >= gamesPerJob) {
      jobs.push(current);
      current = [];
    }
  }
  if (current.length > 0) jobs.push(current);
  return jobs;
}
