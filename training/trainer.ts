/**
 * `yaniv train`: the learner's loop around the two algorithms (imitation.ts, then ppo.ts).
 *
 * Threads: W actor workers (rollout.ts behind messages.ts) play the games and run batched
 * inference; the learner (this thread) turns their trajectory batches into updates, sends the new
 * weights back, keeps the league, writes metrics and checkpoints; an evaluation worker plays the
 * periodic tournaments. With `actorLag` 1 the actors gather batch k+1 with weights k while the
 * learner trains on batch k, so on two cores both are busy.
 *
 * The run folder (checkpoint/, best/, metrics.jsonl, curve.svg and how a checkpoint survives a
 * kill) belongs to runFolder.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { mixSeed } from '../agents/tournament/seeds.js';
import { ACTION_COUNT, ACTION_SPACE_VERSION } from '../env/gym/actionLayout.js';
import { OBSERVATION_SIZE, OBSERVATION_VERSION } from '../env/gym/observation.js';
import { type Rng, rngFromState, seededRng } from '../env/rules/random.js';
import { resolveRules } from '../env/rules/rules.js';
import { describeBackend, initBackend } from '../nn/backend.js';
import { buildNetwork, getFlatWeights, type Network, type PolicyValueConfig } from '../nn/networks.js';
import { loadNetwork, saveNetwork } from '../nn/persistence.js';
import { type ActorChannel, startInlineActor, startWorkerActor } from './actor.js';
import { createOptimizer, loadCheckpoint } from './checkpoint.js';
import { type HyperParameters, type RunOptions, flagName, hyperParametersSchema, runOptionsSchema } from './config.js';
import { EvaluationWorker, type MatchupResult, evaluationMatchups, matchupKey } from './evaluation.js';
import type { FastAdam } from './fastAdam.js';
import { imitationUpdate } from './imitation.js';
import { SnapshotPool, parseOpponentMix } from './league.js';
import type { ActorMessage } from './messages.js';
import { ppoUpdate } from './ppo.js';
import { rewardEquity } from './rewardEquity.js';
import { RunFolder } from './runFolder.js';
import type { CollectMode } from './rollout.js';
import { mergeRolloutStats, mergeTrajectoryBatches } from './trajectory.js';

/** Everything a resume needs besides the network and the optimizer. */
const trainerStateSchema = z.strictObject({
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

export interface TrainOptions {
  run: RunOptions;
  hyperParameters: HyperParameters;
  /** Which run options and hyper-parameters were given explicitly (a resume keeps the saved ones otherwise). */
  explicit: ReadonlySet<string>;
  commandLine: string[];
  /** Compiled worker scripts (default: beside this file, dist/training/). */
  actorWorkerUrl?: URL;
  evalWorkerUrl?: URL;
}

export interface IterationMetrics {
  type: 'iteration';
  iteration: number;
  phase: 'imitation' | 'ppo';
  episodes: number;
  decisions: number;
  samples: number;
  wallSeconds: number;
  /** This iteration: batch size, timings and rates. */
  batchSamples: number;
  iterationSeconds: number;
  updateSeconds: number;
  episodesPerSecond: number;
  decisionsPerSecond: number;
  learnerSamplesPerSecond: number;
  loss: number;
  policyLoss?: number;
  valueLoss?: number;
  entropy?: number;
  approxKl?: number;
  clipFraction?: number;
  gradNorm?: number;
  explainedVariance?: number;
  epochs?: number;
  teacherAgreement?: number;
  meanReward: number;
  truncatedEpisodes: number;
  decisionsPerEpisode: number;
  trainingWinRates: Record<string, { games: number; wins: number }>;
  weightsVersion: number;
  actingVersion: number;
  league: number[];
}

export interface EvaluationMetrics {
  type: 'evaluation';
  iteration: number;
  episodes: number;
  results: (MatchupResult & { key: string })[];
}

export interface TrainHooks {
  log(message: string): void;
  onStart?(info: { out: string; backend: string; episodesDone: number; target: number; iteration: number; phase: string }): void;
  onIteration?(metrics: IterationMetrics): void;
  onEvaluation?(metrics: EvaluationMetrics): void;
  /** Checked between iterations; true ends the run with a checkpoint. */
  stopRequested(): boolean;
}

export interface TrainResult {
  state: TrainerState;
  stopped: boolean;
  checkpoint: string;
}

/** Run options that a resume may change (the others are the run's identity). */
const RESUMABLE_RUN_OPTIONS: readonly (keyof RunOptions)[] = [
  'episodes',
  'out',
  'resume',
  'opponents',
  'evalEvery',
  'evalGames',
  'workers',
  'backend',
];

/** Reads a saved run and applies what a resume may change; refuses changes to the run's identity. */
function resumeSettings(saved: TrainerState, options: TrainOptions): { run: RunOptions; hyperParameters: HyperParameters } {
  const run = { ...saved.run };
  for (const key of Object.keys(options.run) as (keyof RunOptions)[]) {
    if (!options.explicit.has(key)) continue;
    if (RESUMABLE_RUN_OPTIONS.includes(key)) (run as Record<string, unknown>)[key] = options.run[key];
    else if (JSON.stringify(options.run[key]) !== JSON.stringify(saved.run[key])) {
      throw new TrainSetupError(
        `${key === 'preset' ? '--rules' : flagName(key)} cannot change on --resume (the run has ${JSON.stringify(saved.run[key])}, given ${JSON.stringify(options.run[key])})`,
      );
    }
  }
  const hyperParameters = { ...saved.hyperParameters };
  for (const key of Object.keys(options.hyperParameters) as (keyof HyperParameters)[]) {
    if (!options.explicit.has(key)) continue;
    if (key === 'hiddenUnits' || key === 'activation') {
      if (JSON.stringify(options.hyperParameters[key]) !== JSON.stringify(saved.hyperParameters[key]))
        throw new TrainSetupError(`${flagName(key)} cannot change on --resume: the network exists`);
      continue;
    }
    (hyperParameters as Record<string, unknown>)[key] = options.hyperParameters[key];
  }
  return { run, hyperParameters };
}

export async function train(options: TrainOptions, hooks: TrainHooks): Promise<TrainResult> {
  const folder = new RunFolder(options.run.out);
  const out = folder.root;
  const existing = folder.findCheckpoint();
  if (!options.run.resume && existing !== null)
    throw new TrainSetupError(`${out} already holds a run (${path.basename(existing)}/): pass --resume to continue it, or another --out`);
  if (options.run.resume && existing === null) throw new TrainSetupError(`--resume: no checkpoint in ${out}`);
  if (options.run.resume && options.run.initFrom !== null && options.explicit.has('initFrom'))
    throw new TrainSetupError('--init-from and --resume exclude each other');
  const saved = existing !== null ? folder.readTrainerState(existing, trainerStateSchema) : null;
  const { run, hyperParameters: hp } = saved
    ? resumeSettings(saved, options)
    : { run: options.run, hyperParameters: options.hyperParameters };
  let mix;
  try {
    mix = parseOpponentMix(run.opponents);
    for (const players of run.players) resolveRules({ preset: run.preset, players });
  } catch (error) {
    throw new TrainSetupError((error as Error).message);
  }

  const backend = await initBackend(run.backend);
  folder.create();

  // The network, the optimizer and the counters: fresh, from --init-from, or from the checkpoint.
  let network: Network<PolicyValueConfig>;
  let optimizer: FastAdam;
  let state: TrainerState;
  const pool = new SnapshotPool(hp.leagueSize);
  const versions = { observationVersion: OBSERVATION_VERSION, actionSpaceVersion: ACTION_SPACE_VERSION };
  if (saved && existing) {
    const loaded = await loadCheckpoint(existing, { ...versions, kind: 'policy-value' });
    network = loaded.network as Network<PolicyValueConfig>;
    optimizer = loaded.optimizer;
    state = { ...saved, run, hyperParameters: hp, commandLines: [...saved.commandLines, options.commandLine] };
    for (const snapshot of folder.readLeague(existing, saved.league)) pool.add(snapshot);
    folder.truncateMetrics(state.iteration);
  } else {
    if (run.initFrom !== null) {
      const loaded = await loadNetwork(path.resolve(run.initFrom), { ...versions, kind: 'policy-value' }).catch((error: Error) => {
        throw new TrainSetupError(`--init-from: ${error.message}`);
      });
      network = loaded.network as Network<PolicyValueConfig>;
    } else {
      network = buildNetwork({
        kind: 'policy-value',
        observationSize: OBSERVATION_SIZE,
        actionCount: ACTION_COUNT,
        hiddenUnits: hp.hiddenUnits,
        activation: hp.activation,
        seed: run.seed,
      });
    }
    const phase = run.initFrom === null && hp.imitationEpisodes > 0 ? 'imitation' : 'ppo';
    optimizer = createOptimizer({
      kind: 'adam',
      learningRate: phase === 'imitation' ? hp.imitationLearningRate : hp.learningRate,
      epsilon: hp.adamEpsilon,
    }).optimizer;
    state = {
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
      commandLines: [options.commandLine],
    };
    folder.startMetrics();
  }
  const rng: Rng = rngFromState(state.rng);
  const imitationTarget = run.initFrom === null ? hp.imitationEpisodes : 0;
  if (state.phase === 'ppo' && pool.snapshots.length === 0 && hp.leagueSize > 0) {
    pool.add({ id: state.iteration, episodes: state.episodes, weights: getFlatWeights(network.model) });
  }

  if (state.episodes >= run.episodes) {
    hooks.log(`nothing to do: ${state.episodes} of ${run.episodes} episodes played (give a larger --episodes to go on)`);
    optimizer.dispose();
    network.model.dispose();
    return { state, stopped: false, checkpoint: existing ?? folder.checkpointDir };
  }
  hooks.log(
    `${describeBackend(backend)}; network ${network.config.hiddenUnits.join('-')} ${network.config.activation}; ${run.workers} actor worker(s) × ${hp.gamesPerActor} games`,
  );

  // Actors.
  const actorCount = Math.max(1, run.workers);
  const actors: ActorChannel[] = [];
  const evaluator = new EvaluationWorker(options.evalWorkerUrl ?? new URL('./evalWorker.js', import.meta.url));
  let pendingEvaluation: Promise<void> | null = null;
  // A function, not a test of the variable: the callbacks that set it are invisible to narrowing.
  const evaluationDone = () => pendingEvaluation ?? Promise.resolve();
  let stopped = false;
  let checkpointDir = folder.checkpointDir;
  try {
    for (let a = 0; a < actorCount; a++) {
      const init = {
        actor: a,
        backend: run.backend,
        network: network.config,
        teacher: imitationTarget > 0 && state.episodes < imitationTarget ? hp.imitationTeacher : null,
        setup: {
          players: run.players,
          games: hp.gamesPerActor,
          preset: run.preset,
          episode: run.episode,
          reward: hp.reward,
          rewardScale: hp.rewardScale,
          maxTurns: hp.maxTurns,
          returnHorizon: hp.returnHorizon,
          opponents: mix,
          seed: mixSeed(run.seed, 2, state.iteration, a),
          equity: rewardEquity(hp, run),
        },
      };
      actors.push(
        run.workers === 0
          ? await startInlineActor(init)
          : await startWorkerActor(init, options.actorWorkerUrl ?? new URL('./actorWorker.js', import.meta.url)),
      );
    }
    const broadcast = (message: Parameters<ActorChannel['post']>[0]) => actors.forEach((actor) => actor.post(message));
    broadcast({ type: 'league', add: pool.snapshots.map(({ id, weights }) => ({ id, weights })), remove: [] });
    broadcast({ type: 'weights', version: state.iteration, weights: getFlatWeights(network.model) });

    const collectMode = (): CollectMode => {
      if (state.episodes >= imitationTarget) return { kind: 'ppo' };
      return { kind: 'imitation', teacherPlays: state.episodes < imitationTarget * (1 - hp.imitationDaggerShare) };
    };
    let nextBatch = state.iteration;
    const request = () => {
      const mode = collectMode();
      broadcast({ type: 'collect', batch: nextBatch++, samples: Math.ceil(hp.rolloutSamples / actorCount), mode });
    };
    for (let d = 0; d <= hp.actorLag; d++) request();

    hooks.onStart?.({
      out,
      backend: describeBackend(backend),
      episodesDone: state.episodes,
      target: run.episodes,
      iteration: state.iteration,
      phase: state.phase,
    });

    /** What a saved network's metadata.json records of the run (checkpoints and evaluation snapshots alike). */
    const trainingMetadata = (): Record<string, unknown> => ({
      rules: { preset: run.preset },
      players: run.players,
      episode: run.episode,
      reward: hp.reward,
      rewardScale: hp.rewardScale,
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
    });

    const saveAll = async (): Promise<void> => {
      state.rng = rng.getState() as number[];
      state.league = pool.snapshots.map(({ id, episodes }) => ({ id, episodes }));
      checkpointDir = await folder.writeCheckpoint({
        checkpoint: { network, optimizer, optimizerConfig: optimizer.config },
        metadata: { ...versions, training: trainingMetadata() },
        league: pool.snapshots,
        state,
      });
    };

    const startEvaluation = async (): Promise<void> => {
      if (run.evalGames === 0 || evaluator.running) return;
      const iteration = state.iteration;
      const episodes = state.episodes;
      const snapshot = folder.evaluationSnapshotDir(iteration);
      await saveNetwork(network, snapshot, { ...versions, training: trainingMetadata() });
      const matchups = evaluationMatchups(run.players);
      pendingEvaluation = evaluator
        .run({
          model: snapshot,
          matchups,
          games: run.evalGames,
          seed: run.seed,
          preset: run.preset,
          episode: run.episode,
          backend: run.backend,
        })
        .then(
          async (results) => {
            const line: EvaluationMetrics = {
              type: 'evaluation',
              iteration,
              episodes,
              results: results.map((r) => ({ ...r, key: matchupKey(r) })),
            };
            folder.appendMetrics(line);
            state.lastEvaluation = line;
            // The best network by its win rate against strong at the first table size.
            const target = line.results.find((r) => r.opponent === 'strong' && r.players === run.players[0]) ?? line.results[0];
            const best = target !== undefined && (state.best === null || target.winRate > state.best.winRate);
            if (best) state.best = { matchup: target.key, winRate: target.winRate, iteration, episodes };
            folder.finishEvaluation(snapshot, best);
            hooks.onEvaluation?.(line);
            await folder.writeCurve();
          },
          (error: Error) => hooks.log(`evaluation failed: ${error.message}`),
        )
        .finally(() => {
          pendingEvaluation = null;
        });
    };

    let lastArrival = performance.now();
    while (true) {
      // One batch: every actor's part, in order.
      const replies: ActorMessage[] = [];
      for (const actor of actors) replies.push(await actor.next());
      const parts = replies.map((reply) => {
        if (reply.type !== 'trajectories') throw new Error(`an actor sent ${reply.type} instead of trajectories`);
        return reply;
      });
      const arrived = performance.now();
      const iterationSeconds = (arrived - lastArrival) / 1000;
      lastArrival = arrived;
      const batch = mergeTrajectoryBatches(parts.map((p) => p.trajectories));
      const stats = mergeRolloutStats(parts.map((p) => p.stats));
      const mode = parts[0].mode;

      // The update.
      const updateStarted = performance.now();
      let lossFields: Partial<IterationMetrics> & { loss: number };
      let passes: number;
      if (mode.kind === 'imitation') {
        const result = imitationUpdate(network, optimizer, batch, hp, rng);
        lossFields = {
          loss: result.loss,
          teacherAgreement: stats.learnerDecisions > 0 ? stats.teacherAgreement / stats.learnerDecisions : 0,
        };
        passes = hp.imitationEpochs;
      } else {
        if (state.phase === 'imitation') {
          // Imitation is over: a fresh optimizer for PPO, and the imitated network joins the league as its first snapshot.
          state.phase = 'ppo';
          optimizer.dispose();
          optimizer = createOptimizer({ kind: 'adam', learningRate: hp.learningRate, epsilon: hp.adamEpsilon }).optimizer;
          if (hp.leagueSize > 0) {
            const snapshot = { id: state.iteration, episodes: state.episodes, weights: getFlatWeights(network.model) };
            broadcast({ type: 'league', add: [{ id: snapshot.id, weights: snapshot.weights }], remove: pool.add(snapshot) });
          }
          hooks.log(`imitation done after ${state.episodes} episodes; PPO from here`);
        }
        const result = ppoUpdate(network, optimizer, batch, hp, rng);
        const { epochs, minibatches: _m, stoppedEarly: _s, ...rest } = result;
        lossFields = { ...rest, epochs };
        passes = (result.minibatches * hp.minibatchSize) / Math.max(1, batch.count);
      }
      const updateSeconds = (performance.now() - updateStarted) / 1000;
      state.iteration++;
      state.episodes += stats.episodes;
      state.decisions += stats.decisions;
      state.samples += batch.count;
      state.wallSeconds += iterationSeconds;

      // New weights out; the next batch asked for (it will be played with them, or with these ones when actorLag is 1).
      broadcast({ type: 'weights', version: state.iteration, weights: getFlatWeights(network.model) });
      if (state.phase === 'ppo' && hp.leagueSize > 0 && state.iteration % hp.leagueEvery === 0) {
        const snapshot = { id: state.iteration, episodes: state.episodes, weights: getFlatWeights(network.model) };
        broadcast({ type: 'league', add: [{ id: snapshot.id, weights: snapshot.weights }], remove: pool.add(snapshot) });
      }
      const done = state.episodes >= run.episodes || hooks.stopRequested();
      if (!done) request();

      const metrics: IterationMetrics = {
        type: 'iteration',
        iteration: state.iteration,
        phase: mode.kind,
        episodes: state.episodes,
        decisions: state.decisions,
        samples: state.samples,
        wallSeconds: state.wallSeconds,
        batchSamples: batch.count,
        iterationSeconds,
        updateSeconds,
        episodesPerSecond: stats.episodes / iterationSeconds,
        decisionsPerSecond: stats.decisions / iterationSeconds,
        learnerSamplesPerSecond: (batch.count * passes) / updateSeconds,
        ...lossFields,
        meanReward: batch.count > 0 ? stats.rewardSum / batch.count : 0,
        truncatedEpisodes: stats.truncated,
        decisionsPerEpisode: stats.episodes > 0 ? stats.decisions / stats.episodes : Number.NaN,
        trainingWinRates: stats.outcomes,
        weightsVersion: state.iteration,
        actingVersion: parts[0].weightsVersion,
        league: pool.snapshots.map((s) => s.id),
      };
      folder.appendMetrics(metrics);
      hooks.onIteration?.(metrics);

      if (done) {
        stopped = state.episodes < run.episodes;
        break;
      }
      if (state.iteration % hp.checkpointEvery === 0) await saveAll();
      if (run.evalEvery > 0 && state.iteration % run.evalEvery === 0) await startEvaluation();
      if (state.iteration % 5 === 0 && !evaluator.running) await folder.writeCurve();
    }

    // The end: a checkpoint, the last evaluation (not after Ctrl-C), the curve.
    await saveAll();
    if (!stopped && run.evalGames > 0) {
      await evaluationDone();
      if (state.lastEvaluation === null || (state.lastEvaluation as EvaluationMetrics).iteration !== state.iteration) {
        hooks.log(`final evaluation: ${run.evalGames} games per match-up…`);
        await startEvaluation();
        await evaluationDone();
      }
      await saveAll();
    }
    await folder.writeCurve();
  } finally {
    await Promise.all(actors.map((actor) => actor.close().catch(() => undefined)));
    await evaluator.close();
    optimizer.dispose();
    network.model.dispose();
  }
  hooks.log(
    `${stopped ? 'stopped' : 'done'}: ${state.episodes} episodes, ${state.iteration} iterations; checkpoint ${checkpointDir}; ${folder.curveFile}`,
  );
  return { state, stopped, checkpoint: checkpointDir };
}
