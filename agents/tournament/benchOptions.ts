/** The settings of a `yaniv bench` tournament, each with its default and description; its flags come from this schema. */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { REDIS_ENV, redisUrlSchema } from '../../support/redis.js';
import { EPISODE_MODES } from '../../env/gym/episode.js';
import { MAX_PLAYERS, MIN_PLAYERS, RULE_SELECTION_FLAGS, ruleSelectionSchema } from '../../env/rules/rules.js';
import { intFrom, oneOf } from '../../support/zod.js';
import type { FlagSpecs } from '../../support/schemaFlags.js';
import { AGENT_NAMES, agentSpecSchema } from '../registry.js';
import { DEFAULT_MAX_TURNS } from './match.js';
import { PANEL } from './panel.js';

const MAX_WORKERS = 64;

const redisUrl = redisUrlSchema();

export const benchOptionsSchema = z.strictObject({
  agents: z
    .array(agentSpecSchema)
    .min(1, { error: 'name at least one agent' })
    .refine((names) => new Set(names).size === names.length, { error: 'name each agent once' })
    .default(['strong', 'intermediate'])
    .describe(`Comma-separated agent specs (${AGENT_NAMES.join(', ')}; name:ARG, name?key=value).`),
  games: intFrom(1).default(1000).describe('Games per lineup (rounded up to whole sets of seat rotations).'),
  players: intFrom(MIN_PLAYERS, MAX_PLAYERS).default(2).describe('Seats at each table.'),
  seed: intFrom(-(2 ** 31), 2 ** 31 - 1)
    .default(1)
    .describe('Tournament seed: the same seed gives the same result.'),
  episode: oneOf(EPISODE_MODES).default('game').describe('What counts as one game: a round, or a whole game.'),
  workers: intFrom(1, MAX_WORKERS).default(Math.min(MAX_WORKERS, availableParallelism())).describe('Worker threads.'),
  maxTurns: intFrom(1)
    .default(DEFAULT_MAX_TURNS)
    .describe('Turns after which a game is stopped unfinished (a guard against agents that never end a round).'),
  json: z.string().min(1).optional().describe('Write the summary as JSON to this file ("-" for standard output).'),
  saveRecords: z.string().min(1).optional().describe('Write every game as a yaniv-record/1 file into this folder.'),
  progress: z.boolean().default(true).describe('Show a progress bar.'),
  redis: redisUrl
    .optional()
    .describe('Play the games on `yaniv worker` processes of any machine through this Redis, a job queue (docs/agents.md).'),
  jobGames: intFrom(1)
    .optional()
    .describe('With --redis: games per job, whole duplicate-deal groups (default: the games in about 64 jobs).'),
  ...ruleSelectionSchema.shape,
  lineup: z
    .array(agentSpecSchema)
    .optional()
    .describe('One table seat by seat (agents may repeat), e.g. neural,strong,strong,strong; replaces --agents and --players.'),
  panel: z
    .boolean()
    .default(false)
    .describe(
      `Judge the one agent of --agents against the held-out panel (${PANEL.join(', ')}: never training opponents), one seat against the rest of the table played by each member, beside --reference on the same deals.`,
    ),
  reference: agentSpecSchema.default('strong').describe('With --panel: the agent the first is judged beside, on the same deals.'),
  card: z
    .boolean()
    .default(false)
    .describe(
      "With --panel: keep the results in the judged model's card (its folder's metadata.json, `panel`), replacing those of the same table size, rules, member and reference.",
    ),
});

export type BenchOptions = z.output<typeof benchOptionsSchema>;

/** How the bench settings appear as flags of `yaniv bench` where their names and schemas do not say it. */
export const BENCH_FLAGS: FlagSpecs<typeof benchOptionsSchema.shape> = {
  agents: { value: '<list>' },
  episode: { value: '<kind>' },
  workers: { defaultText: 'the cores' },
  json: { value: '<file>' },
  saveRecords: { value: '<dir>' },
  progress: { flag: '--no-progress', switch: true, description: 'Hide the progress bar.' },
  redis: { value: '<url>', env: REDIS_ENV },
  ...RULE_SELECTION_FLAGS,
  lineup: { value: '<list>' },
  panel: { switch: true },
  reference: { value: '<spec>' },
  card: { switch: true },
};

/** The settings of `yaniv worker`, which plays the games of benches run with --redis. */
export const workerOptionsSchema = z.strictObject({
  redis: redisUrl.describe('Redis URL, with a password or ACL user if set (redis://user:pass@host:6379).'),
  concurrency: intFrom(1, MAX_WORKERS)
    .default(Math.min(MAX_WORKERS, availableParallelism()))
    .describe('Jobs played at once, each in its own process.'),
  lockSeconds: intFrom(1, 3600)
    .default(10)
    .describe('How long a job waits on a worker that stopped answering (died) before another worker takes it over.'),
});

export const WORKER_FLAGS: FlagSpecs<typeof workerOptionsSchema.shape> = {
  redis: { value: '<url>', env: REDIS_ENV },
  concurrency: { defaultText: 'the cores' },
  lockSeconds: { value: '<s>' },
};

/** The settings of `yaniv rate`: a bench's (lineups drawn evenly, no records) with the anchor and the chart. */
export const rateOptionsSchema = benchOptionsSchema
  .omit({ lineup: true, saveRecords: true, agents: true, games: true, panel: true, reference: true, card: true })
  .extend({
    agents: benchOptionsSchema.shape.agents
      .unwrap()
      .min(2, { error: 'name at least two agents to rate' })
      .default(['novice', 'intermediate', 'strong', 'neural'])
      .describe(`Comma-separated agent specs to rate (${AGENT_NAMES.join(', ')}; name:ARG, name?key=value).`),
    games: intFrom(1).default(4000).describe('Games in all (rounded up to whole sets of seat rotations), spread evenly over the lineups.'),
    anchor: agentSpecSchema.default('intermediate').describe('The agent whose rating is fixed (one of --agents).'),
    anchorRating: z.number({ error: 'must be a number' }).default(1500).describe("The anchor's rating."),
    chart: z.string().min(1).optional().describe('Write the ladder chart (SVG: ratings with their 95% intervals) to this file.'),
  });

export type RateOptions = z.output<typeof rateOptionsSchema>;

export const RATE_FLAGS: FlagSpecs<typeof rateOptionsSchema.shape> = {
  ...BENCH_FLAGS,
  anchor: { value: '<spec>' },
  anchorRating: { value: '<r>' },
  chart: { value: '<file>' },
};
