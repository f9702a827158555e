/**
 * Every hyper-parameter of `yaniv train`, in one zod schema with its default and description.
 * The CLI turns each field into a flag (`hiddenUnits` → `--hidden-units 256,128`), checkpoints
 * store the parsed object, and nothing else holds a setting.
 */
import { z } from 'zod';
import { type FlagSpecs, flagOf, schemaFlags } from '../support/schemaFlags.js';
import { intFrom } from '../support/zod.js';
import { REDIS_ENV, redisUrlSchema } from '../support/redis.js';
import { BACKEND_CHOICES } from '../nn/backendChoice.js';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { envOptionsSchema } from '../env/gym/episode.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import { MAX_PLAYERS, MIN_PLAYERS, RULE_SELECTION_FLAGS } from '../env/rules/rules.js';

/** The env's own settings (env/gym/episode.ts): the run's fields below are picked from them. */
const env = envOptionsSchema.shape;

const positiveInt = (what: string) =>
  z.int({ error: `must be a whole number ≥ 1 (${what})` }).min(1, { error: 'must be a whole number ≥ 1' });
const nonNegativeInt = () => z.int({ error: 'must be a whole number ≥ 0' }).min(0, { error: 'must be a whole number ≥ 0' });
const positive = () => z.number({ error: 'must be a positive number' }).positive({ error: 'must be a positive number' });
const unit = () =>
  z
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, { error: 'must be a number from 0 to 1' })
    .max(1, { error: 'must be a number from 0 to 1' });

export const hyperParametersSchema = z.strictObject({
  // The network.
  hiddenUnits: z
    .array(positiveInt('a layer width'), { error: 'must be layer widths such as 256,128' })
    .min(1)
    .default([256, 128])
    .describe(
      `Widths of the policy-value MLP's hidden layers, input side first (${OBSERVATION_SIZE} inputs, ${ACTION_COUNT} logits + a value).`,
    ),
  activation: z
    .enum(['relu', 'tanh', 'elu'], { error: 'must be relu, tanh or elu' })
    .default('relu')
    .describe('Activation of the hidden layers.'),
  actionScoring: z
    .boolean()
    .default(false)
    .describe(
      "Give the network an action-scoring head: each legal action's logit gains (top hidden layer · W + b) · its action features (env/gym/actionFeatures.ts: the hand it leaves). With --init-from a model without one, the head is added with zero weights (it plays as the model did).",
    ),
  adviser: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe(
      "An agent spec (e.g. strong) asked for its move at each of the network's decisions: its choice is one more action feature (adviserChoice), so the network learns where to follow it and where not. Implies --action-scoring; null: none.",
    ),
  adviserBias: z
    .number({ error: 'must be a number' })
    .default(4)
    .describe(
      "Where the action-scoring head is new (a fresh network, or --init-from one without it), the starting logit bonus of the adviser's choice: 0 lets imitation learn it, a few units start the network close to the adviser's play.",
    ),

  // The games the actors play.
  gamesPerActor: positiveInt('games')
    .default(64)
    .describe('Games each actor steps together (its VecEnv batch, split over the table sizes): the batch of every inference call.'),
  // The env's, but never null: a training game always has a cap.
  maxTurns: env.maxTurns
    .unwrap()
    .unwrap()
    .default(1000)
    .describe('Whole turns after which a game is cut short (truncated), a guard against play that never ends a round.'),
  reward: env.reward
    .unwrap()
    .default('zeroSumTotals')
    .describe(env.reward.description ?? ''),
  equityFile: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe('The game equity data the "equity" reward reads (yaniv equity --out); null: the one shipped for the rules (models/equity).'),
  rewardScale: env.rewardScale,
  returnHorizon: z
    .enum(['round', 'game'], { error: 'must be round or game' })
    .default('round')
    .describe(
      'Where returns stop: "round" treats every round end as the end of the return (the value predicts the rest of the round), "game" sums to the end of the episode.',
    ),

  pfsp: z
    .number({ error: 'must be a number' })
    .min(0, { error: 'must be at least 0' })
    .max(8, { error: 'must be at most 8' })
    .default(0)
    .describe(
      "Prioritised fictitious self-play: each opponent's --opponents share is weighted by (1 − the learner's win rate against it)^pfsp, its win rate counted over the actor's games (Laplace-smoothed, the last 2,000 a spec), so opponents it still loses to come up more often; 0: the shares as given. \"self\" keeps its share.",
    ),

  // Rollouts.
  rolloutSamples: positiveInt('decisions')
    .default(8192)
    .describe('Learner decisions gathered per iteration (over all actors), the batch of one update.'),
  actorLag: z
    .union([z.literal(0), z.literal(1)], { error: 'must be 0 or 1' })
    .default(1)
    .describe(
      '1: actors gather the next batch with the previous weights while the learner updates (both cores busy; the data is one version old); 0: they wait for the new weights.',
    ),
  maxStaleness: nonNegativeInt()
    .default(2)
    .describe(
      "Trajectories played with weights more than this many versions older than the learner's (or than --actor-lag, if larger) are dropped and counted (staleParts): actors on other machines (--redis) run free.",
    ),

  // PPO.
  learningRate: positive().default(2e-4).describe('Adam step size of the PPO phase.'),
  adamEpsilon: positive().default(1e-7).describe('Adam ε (both phases).'),
  epochs: positiveInt('passes')
    .default(1)
    .describe('Passes over each batch in the PPO update (1 keeps the learner as fast as one actor on two cores; 2 halves the throughput).'),
  minibatchSize: positiveInt('decisions').default(512).describe('Decisions per gradient step.'),
  gamma: unit().default(1).describe('Discount per decision of the learner.'),
  gaeLambda: unit().default(0.95).describe('λ of the generalised advantage estimate.'),
  clip: positive().default(0.2).describe("ε of PPO's clipped probability ratio."),
  valueCoef: z
    .number({ error: 'must be a number ≥ 0' })
    .min(0)
    .default(0.5)
    .describe('Weight of the mean squared value error in the loss.'),
  entropyCoef: z.number({ error: 'must be a number ≥ 0' }).min(0).default(0.003).describe('Weight of the entropy bonus.'),
  maxGradNorm: positive().nullable().default(0.5).describe('Gradients are scaled down to this global L2 norm (null: no clipping).'),
  targetKl: positive()
    .nullable()
    .default(0.03)
    .describe("An update stops its epochs early once a minibatch's approximate KL to the acting policy exceeds this (null: never)."),
  normalizeAdvantages: z
    .boolean({ error: 'must be true or false' })
    .default(true)
    .describe('Normalise advantages to mean 0, deviation 1 within each minibatch.'),

  // The critic.
  critic: z
    .enum(['seat', 'whole-deal', 'rollout'], { error: 'must be seat, whole-deal or rollout' })
    .default('seat')
    .describe(
      "What the advantages' value reads. seat: the policy-value network's own value head (the seat's observation). whole-deal: a separate critic network, trained only, that reads the observation and every hand and the deck's order (env/gym/wholeDeal.ts); the policy's value head learns the critic's targets. The critic is saved in checkpoints (critic/), never in a model. rollout: no network — the actor plays the round out --critic-rollouts times from each decision's true state (every hand, the deck as dealt; training/rolloutCritic.ts) and the mean equity change is the value; the policy's value head learns its targets.",
    ),
  criticLearningRate: positive().default(5e-4).describe('Adam step size of the whole-deal critic.'),
  criticRollouts: positiveInt('rollouts')
    .default(16)
    .describe(
      'Rollouts of the round from each learner decision under --critic rollout (each costs the actor about one strong playout of the rest of the round).',
    ),
  criticEpochs: positiveInt('passes')
    .default(2)
    .describe('Passes of the whole-deal critic over each batch (it is cheap: one value output).'),

  // Imitation warm start.
  imitationEpisodes: nonNegativeInt()
    .default(4000)
    .describe('Episodes of the imitation warm start before PPO (0: none; skipped with --init-from).'),
  imitationTeacher: z.string().min(1).default('strong').describe('The agent imitated (an agent spec).'),
  imitationLearningRate: positive().default(1e-3).describe('Adam step size of the imitation phase.'),
  imitationEpochs: positiveInt('passes').default(2).describe('Passes over each imitation batch.'),
  imitationDaggerShare: unit()
    .default(0.5)
    .describe(
      'Last share of the imitation phase in which the network plays and the teacher only labels its positions (DAgger); before that the teacher plays.',
    ),

  // League.
  leagueSize: nonNegativeInt().default(8).describe('Past snapshots of the network kept as opponents ("past" in --opponents).'),
  leagueEvery: positiveInt('iterations').default(10).describe('Iterations between snapshots added to the league.'),

  // Checkpoints.
  checkpointEvery: positiveInt('iterations')
    .default(50)
    .describe('Iterations between checkpoints (one is also written at the end and on Ctrl-C).'),
});

export type HyperParameters = z.output<typeof hyperParametersSchema>;

export type HyperParametersInput = z.input<typeof hyperParametersSchema>;

export const DEFAULT_HYPER_PARAMETERS: HyperParameters = hyperParametersSchema.parse({});

/** The run's own settings (the flags of the issue), beside the hyper-parameters. */
/** The table-size list's one message, whichever entry is wrong: it is a list, so say so. */
const tableSizes = `must be table sizes from ${MIN_PLAYERS} to ${MAX_PLAYERS}, one or a list like 2,4`;

export const runOptionsSchema = z.strictObject({
  episodes: positiveInt('episodes').describe(
    "Episodes to play in all (a game each, or a round each with --episode round); with --resume, the new total including those already played (default: the run's own).",
  ),
  players: z
    .array(z.int({ error: tableSizes }).min(MIN_PLAYERS, { error: tableSizes }).max(MAX_PLAYERS, { error: tableSizes }), {
      error: tableSizes,
    })
    .min(1)
    .default([2])
    .describe('Table sizes, e.g. 2 or 2,4 (the games are split evenly between them; one network plays all of them).'),
  preset: env.preset,
  rules: env.rules,
  episode: env.episode,
  out: z.string().min(1).describe('Run folder: checkpoint/, best/, metrics.jsonl, curve.svg.'),
  resume: z.boolean().default(false).describe('Continue the run in --out from its last checkpoint.'),
  initFrom: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe("Start from this model's weights (and architecture) instead of a fresh network; skips imitation."),
  opponents: z
    .string()
    .min(1)
    .default('self=0.3,past=0.2,strong=0.4,intermediate=0.1')
    .describe('Opponent mix, spec=weight pairs (see league.ts).'),
  evalEvery: nonNegativeInt().default(100).describe('Iterations between evaluations (0: only at the end).'),
  evalGames: nonNegativeInt().default(200).describe('Games per evaluation match-up (0: no evaluation).'),
  valueEvalGames: nonNegativeInt()
    .default(0)
    .describe(
      "Held-out games at each evaluation (a seed training never uses, the run's opponent mix): the explained variance of each critic's value against the realised returns, logged beside the training batch's (0: none).",
    ),
  seed: z.int().default(1).describe('Seed of every random choice of the run.'),
  workers: nonNegativeInt().default(1).describe("Actor worker threads (0: the actor runs in the learner's thread)."),
  backend: z.enum(BACKEND_CHOICES).default('auto').describe('tfjs backend: auto tries node, then wasm, then cpu.'),
});

export type RunOptions = z.output<typeof runOptionsSchema>;
export type RunOptionsInput = z.input<typeof runOptionsSchema>;

/** What one `yaniv train` invocation does beside the run (not saved with it). */
export const trainSessionSchema = z.strictObject({
  progress: z.boolean().default(true).describe('Show a progress bar (else a line every 10 iterations).'),
  redis: redisUrlSchema()
    .optional()
    .describe('Learn over Redis: actors on any machine join with yaniv actor --redis URL --run ID (docs/training.md).'),
});

/** How the run's settings appear as flags of `yaniv train` where their names and schemas do not say it. */
export const RUN_FLAGS: FlagSpecs<typeof runOptionsSchema.shape> = {
  ...RULE_SELECTION_FLAGS,
  episode: { value: '<kind>' },
  out: { value: '<dir>', defaultText: 'runs/<time>' },
  resume: { switch: true },
  initFrom: { value: '<dir>' },
  opponents: { value: '<mix>' },
  evalEvery: { value: '<k>' },
  evalGames: { value: '<g>' },
  valueEvalGames: { value: '<g>' },
  seed: { value: '<s>' },
  workers: { value: '<w>' },
  backend: { value: '<name>' },
};
export const TRAIN_SESSION_FLAGS: FlagSpecs<typeof trainSessionSchema.shape> = {
  progress: { flag: '--no-progress', switch: true, description: 'No progress bar (a line every 10 iterations instead).' },
  redis: { value: '<url>', env: REDIS_ENV },
};

/** What `yaniv actor` takes: the run to join over Redis, and this machine's share of the work. */
export const actorOptionsSchema = z.strictObject({
  redis: redisUrlSchema().describe('Redis URL, with a password or ACL user if set (redis://user:pass@host:6379).'),
  run: z.string().min(1).optional().describe('The run ID that `yaniv train --redis` printed (default: the one active run).'),
  workers: runOptionsSchema.shape.workers.describe("Actor worker threads (0: one actor in this process's thread)."),
  backend: runOptionsSchema.shape.backend,
});
export const ACTOR_FLAGS: FlagSpecs<typeof actorOptionsSchema.shape> = {
  redis: { value: '<url>', env: REDIS_ENV },
  run: { value: '<id>' },
  workers: { value: '<w>' },
  backend: { value: '<name>' },
};

/** The flags of `yaniv train`, in the order of its --help. */
export const TRAIN_FLAGS = {
  run: schemaFlags(runOptionsSchema, RUN_FLAGS),
  session: schemaFlags(trainSessionSchema, TRAIN_SESSION_FLAGS),
  hyperParameters: schemaFlags(hyperParametersSchema),
};

/** The command-line flag of a setting: hiddenUnits → --hidden-units, preset → --rules. */
export function flagName(key: string): string {
  return flagOf(RUN_FLAGS, key);
}

/** The env settings every game of a run is played under (the table size and seed aside). */
/** A run's env settings (what its actors' VecEnvs, its saved metadata and its evaluation take). */
export const trainingEnvSchema = envOptionsSchema
  .pick({ preset: true, rules: true, episode: true, reward: true, rewardScale: true })
  .extend({ maxTurns: intFrom(1) });
export type TrainingEnv = z.output<typeof trainingEnvSchema>;

/**
 * A run's env settings as one object, built once from its options: the actors' VecEnvs, the
 * saved metadata and the evaluation all take this object as it is.
 */
export function trainingEnv(run: RunOptions, hp: HyperParameters): TrainingEnv {
  return {
    preset: run.preset,
    rules: run.rules,
    episode: run.episode,
    reward: hp.reward,
    rewardScale: hp.rewardScale,
    maxTurns: hp.maxTurns,
  };
}
