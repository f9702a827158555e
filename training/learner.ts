/**
 * The learner of `yaniv train`: the network, its optimizer, the counters, the league and the random
 * state — what a checkpoint saves (trainer.json beside the network, runFolder.ts) — and the one
 * update of an iteration, imitation or PPO. trainer.ts drives it.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { mixSeed } from '../env/rules/random.js';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { MODEL_CONTRACT } from '../env/gym/modelContract.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import { type Rng, rngFromState, seededRng } from '../env/rules/random.js';
import { buildNetwork, getFlatWeights, setGateBias, withActionScoring, type Network, type PolicyValueConfig } from '../nn/networks.js';
import { ADVISER_FEATURE, actionFeatureWidth } from '../env/gym/actionFeatures.js';
import { loadNetwork } from '../nn/persistence.js';
import { existsSync } from 'node:fs';
import { createOptimizer, loadCheckpoint } from './checkpoint.js';
import { CRITIC_DIR, Critic, type CriticTargets, ROLLOUT_CRITIC, type ValueCritic } from './critic.js';
import { type HyperParameters, type RunOptions, type TrainingEnv, hyperParametersSchema, runOptionsSchema, trainingEnv } from './config.js';
import type { FastAdam } from './fastAdam.js';
import { imitationUpdate } from './imitation.js';
import { type Snapshot, SnapshotPool } from './league.js';
import { explainedVariance, ppoUpdate } from './ppo.js';
import type { CollectMode } from './rollout.js';
import type { RunFolder } from './runFolder.js';
import type { TrajectoryBatch } from './trajectory.js';
import type { TrajectoryPart, WeightStore } from './transport.js';

/** Everything a resume needs besides the network and the optimizer. */
export const trainerStateSchema = z.strictObject({
  format: z.literal('yaniv-train-state/1'),
  run: runOptionsSchema,
  hyperParameters: hyperParametersSchema,
  /** Updates done; also the learner's weights version. */
  iteration: z.int().min(0),
  episodes: z.int().min(0),
  decisions: z.number().min(0),
  samples: z.number().min(0),
  wallSeconds: z.number().min(0),
  phase: z.enum(['imitation', 'ppo']),
  rng: z.array(z.number()),
  league: z.array(z.strictObject({ id: z.int(), episodes: z.int() })),
  lastEvaluation: z.unknown().nullable(),
  best: z.strictObject({ matchup: z.string(), winRate: z.number(), iteration: z.int(), episodes: z.int() }).nullable(),
  /** The command line of the start and of each resume. */
  commandLines: z.array(z.array(z.string())),
});
export type TrainerState = z.output<typeof trainerStateSchema>;

/** A user error in the run's settings (bad mix, a folder that already holds a run, …): the CLI exits 2. */
export class TrainSetupError extends Error {
  override name = 'TrainSetupError';
}

/** The loss figures of one update, for the iteration's metrics line. */
export interface UpdateResult {
  loss: number;
  policyLoss?: number;
  valueLoss?: number;
  entropy?: number;
  approxKl?: number;
  clipFraction?: number;
  gradNorm?: number;
  explainedVariance?: number;
  /** --critic whole-deal or rollout: the seat value head's explained variance of the critic's targets; whole-deal: the critic's mean squared error. */
  seatExplainedVariance?: number;
  criticLoss?: number;
  epochs?: number;
  /** Passes over the batch (for the learner's samples/s). */
  passes: number;
}

export class Learner {
  /** The run's env settings, one object: the actors, the metadata and the evaluation take it as it is. */
  readonly env: TrainingEnv;

  private constructor(
    readonly run: RunOptions,
    readonly hp: HyperParameters,
    readonly network: Network<PolicyValueConfig>,
    private optimizer: FastAdam,
    readonly state: TrainerState,
    readonly pool: SnapshotPool,
    private readonly rng: Rng,
    /** The whole-deal critic (--critic whole-deal), once PPO has begun. */
    private criticNetwork: Critic | null = null,
  ) {
    this.env = trainingEnv(run, hp);
  }

  /** A fresh learner: a new network (or --init-from's), counters at zero. */
  static async fresh(run: RunOptions, hp: HyperParameters, commandLine: string[]): Promise<Learner> {
    const network = run.initFrom !== null ? await loadInitial(run.initFrom, hp) : policyValueNetwork(hp, run.seed);
    const phase = run.initFrom === null && hp.imitationEpisodes > 0 ? 'imitation' : 'ppo';
    const state: TrainerState = {
      format: 'yaniv-train-state/1',
      run,
      hyperParameters: hp,
      iteration: 0,
      episodes: 0,
      decisions: 0,
      samples: 0,
      wallSeconds: 0,
      phase,
      rng: seededRng(mixSeed(run.seed, 1)).getState() as number[],
      league: [],
      lastEvaluation: null,
      best: null,
      commandLines: [commandLine],
    };
    const learningRate = phase === 'imitation' ? hp.imitationLearningRate : hp.learningRate;
    const optimizer = createOptimizer({ kind: 'adam', learningRate, epsilon: hp.adamEpsilon }).optimizer;
    return Learner.assemble(network, optimizer, state, []);
  }

  /** The learner of a checkpoint, with the settings of the resume. */
  static async resume(folder: RunFolder, dir: string, state: TrainerState): Promise<Learner> {
    const loaded = await loadCheckpoint(dir, MODEL_CONTRACT);
    const critic = state.hyperParameters.critic === 'whole-deal' && existsSync(path.join(dir, CRITIC_DIR)) ? await Critic.load(dir) : null;
    return Learner.assemble(loaded.network, loaded.optimizer, state, folder.readLeague(dir, state.league), critic);
  }

  private static assemble(
    network: Network<PolicyValueConfig>,
    optimizer: FastAdam,
    state: TrainerState,
    league: Snapshot[],
    critic: Critic | null = null,
  ): Learner {
    const hp = state.hyperParameters;
    const pool = new SnapshotPool(hp.leagueSize);
    for (const snapshot of league) pool.add(snapshot);
    const learner = new Learner(state.run, hp, network, optimizer, state, pool, rngFromState(state.rng), critic);
    // PPO plays "past" from the start: the network as it is joins an empty league.
    if (state.phase === 'ppo' && pool.snapshots.length === 0) learner.addSnapshot();
    return learner;
  }

  get iteration(): number {
    return this.state.iteration;
  }

  /** Episodes of the imitation warm start (none after --init-from). */
  get imitationTarget(): number {
    return this.run.initFrom === null ? this.hp.imitationEpisodes : 0;
  }

  /** What the actors gather next: imitation (teacher playing, then DAgger) until its episodes are played, then PPO. */
  collectMode(): CollectMode {
    const target = this.imitationTarget;
    if (this.state.episodes >= target) return { kind: 'ppo' };
    return { kind: 'imitation', teacherPlays: this.state.episodes < target * (1 - this.hp.imitationDaggerShare) };
  }

  weights(): Float32Array {
    return getFlatWeights(this.network.model);
  }

  /** Sends the weights out as the latest version, with the mode to gather in and the league. */
  publish(store: WeightStore): Promise<void> {
    const league = this.pool.snapshots;
    return store.publish({ version: this.iteration, mode: this.collectMode(), league: league.map((s) => s.id) }, this.weights(), league);
  }

  /**
   * Whether a part can go into the next update: played with weights at most `maxStaleness` (or
   * `actorLag`) versions old, and gathered in the mode the learner now asks for. Without the mode
   * check, an imitation part played just before the switch to PPO (the phase itself turns with the
   * first PPO update) opened a take that then refused every PPO part as "another mode" and waited for
   * ever for imitation parts no actor would send again.
   */
  canUse(part: TrajectoryPart): boolean {
    const oldest = this.iteration - Math.max(this.hp.actorLag, this.hp.maxStaleness);
    return part.weightsVersion >= oldest && part.mode.kind === this.collectMode().kind;
  }

  /** The network as it is joins the league (when there is one). */
  private addSnapshot(): void {
    if (this.hp.leagueSize > 0) this.pool.add({ id: this.state.iteration, episodes: this.state.episodes, weights: this.weights() });
  }

  /** One update on a batch gathered in `mode`; the iteration count (the weights version) goes up by one. */
  update(batch: TrajectoryBatch, mode: CollectMode, log: (message: string) => void): UpdateResult {
    const hp = this.hp;
    let result: UpdateResult;
    if (mode.kind === 'imitation') {
      result = { loss: imitationUpdate(this.network, this.optimizer, batch, hp, this.rng).loss, passes: hp.imitationEpochs };
    } else {
      if (this.state.phase === 'imitation') this.endImitation(log);
      const targets = this.critic()?.targets(batch, hp.gamma, hp.gaeLambda);
      const { epochs, minibatches, stoppedEarly: _s, ...rest } = ppoUpdate(this.network, this.optimizer, batch, hp, this.rng, targets);
      result = { ...rest, epochs, passes: (minibatches * hp.minibatchSize) / Math.max(1, batch.count) };
      if (targets) Object.assign(result, this.trainCritic(batch, targets));
    }
    this.state.iteration++;
    return result;
  }

  /** The run's critic (null: --critic seat); the whole-deal one started from the policy's value the first time PPO asks. */
  critic(): ValueCritic | null {
    if (this.hp.critic === 'rollout') return ROLLOUT_CRITIC;
    if (this.hp.critic !== 'whole-deal') return null;
    this.criticNetwork ??= Critic.fromPolicy(this.network, this.hp);
    return this.criticNetwork;
  }

  /** The critic's update on the batch (after the policy's, on the same targets; the rollout critic has none). */
  private trainCritic(batch: TrajectoryBatch, targets: CriticTargets): Pick<UpdateResult, 'seatExplainedVariance' | 'criticLoss'> {
    const seatExplainedVariance = explainedVariance(batch.values, targets.returns);
    const critic = this.critic();
    if (!(critic instanceof Critic)) return { seatExplainedVariance };
    return { seatExplainedVariance, criticLoss: critic.train(batch, targets.returns, this.hp, this.rng) };
  }

  /** Imitation is over: a fresh optimizer for PPO, and the imitated network joins the league as its first snapshot. */
  private endImitation(log: (message: string) => void): void {
    this.state.phase = 'ppo';
    this.optimizer.dispose();
    this.optimizer = createOptimizer({ kind: 'adam', learningRate: this.hp.learningRate, epsilon: this.hp.adamEpsilon }).optimizer;
    this.addSnapshot();
    log(`imitation done after ${this.state.episodes} episodes; PPO from here`);
  }

  /** After an update: every `leagueEvery` iterations of PPO the network joins the league. */
  growLeague(): void {
    if (this.state.phase === 'ppo' && this.state.iteration % this.hp.leagueEvery === 0) this.addSnapshot();
  }

  /** What a saved network's metadata.json records of the run (checkpoints and evaluation snapshots alike). */
  trainingMetadata(): Record<string, unknown> {
    const { run, hp, state } = this;
    const { preset, rules, ...envSettings } = this.env;
    return {
      rules: { preset, rules },
      ...envSettings,
      players: run.players,
      returnHorizon: hp.returnHorizon,
      episodes: state.episodes,
      iteration: state.iteration,
      phase: state.phase,
      decisions: state.decisions,
      wallSeconds: state.wallSeconds,
      hyperParameters: hp,
      opponents: run.opponents,
      evaluation: state.lastEvaluation,
      commandLines: state.commandLines,
      machine: `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}`,
    };
  }

  saveOptions(): {
    observationVersion: string;
    actionSpaceVersion: string;
    actionFeaturesVersion: string;
    training: Record<string, unknown>;
  } {
    return { ...MODEL_CONTRACT, training: this.trainingMetadata() };
  }

  /** Writes a checkpoint of everything; returns its folder. */
  saveCheckpoint(folder: RunFolder): Promise<string> {
    this.state.rng = this.rng.getState() as number[];
    this.state.league = this.pool.snapshots.map(({ id, episodes }) => ({ id, episodes }));
    return folder.writeCheckpoint({
      checkpoint: { network: this.network, optimizer: this.optimizer, optimizerConfig: this.optimizer.config },
      metadata: this.saveOptions(),
      league: this.pool.snapshots,
      state: this.state,
      ...(this.criticNetwork ? { critic: this.criticNetwork } : {}),
    });
  }

  dispose(): void {
    this.criticNetwork?.dispose();
    this.optimizer.dispose();
    this.network.model.dispose();
  }
}

/** Action features per action of the hyper-parameters' network (0: no action-scoring head). */
function networkActionFeatures(hp: Pick<HyperParameters, 'actionScoring' | 'adviser'>): number {
  return hp.actionScoring || hp.adviser !== null ? actionFeatureWidth(hp.adviser !== null) : 0;
}

/** The head's starting biases: the adviser's choice a few logits up, as --adviser-bias says. */
function adviserGateBias(hp: Pick<HyperParameters, 'adviser' | 'adviserBias'>): Map<number, number> {
  return new Map<number, number>(hp.adviser !== null ? [[ADVISER_FEATURE.index, hp.adviserBias]] : []);
}

/** A fresh policy-value network of the hyper-parameters' shape. */
export function policyValueNetwork(
  hp: Pick<HyperParameters, 'hiddenUnits' | 'activation' | 'actionScoring' | 'adviser' | 'adviserBias'>,
  seed: number,
): Network<PolicyValueConfig> {
  const network = buildNetwork({
    kind: 'policy-value',
    observationSize: OBSERVATION_SIZE,
    actionCount: ACTION_COUNT,
    hiddenUnits: hp.hiddenUnits,
    actionFeatures: networkActionFeatures(hp),
    activation: hp.activation,
    seed,
  });
  const bias = adviserGateBias(hp);
  if (bias.size > 0) setGateBias(network, bias);
  return network;
}

/** --init-from's network; with action scoring (or an adviser) and a model without the head, the head added at zero (the adviser's bias aside). */
async function loadInitial(dir: string, hp: HyperParameters): Promise<Network<PolicyValueConfig>> {
  const loaded = await loadNetwork(path.resolve(dir), MODEL_CONTRACT).catch((error: Error) => {
    throw new TrainSetupError(`--init-from: ${error.message}`);
  });
  const network = loaded.network;
  const features = networkActionFeatures(hp);
  if (features === network.config.actionFeatures) return network;
  if (network.config.actionFeatures > 0)
    throw new TrainSetupError(
      `--init-from: the model scores actions from ${network.config.actionFeatures} features, this run's network from ${features} (--action-scoring, --adviser)`,
    );
  const scored = withActionScoring(network, features, adviserGateBias(hp));
  network.model.dispose();
  return scored;
}
