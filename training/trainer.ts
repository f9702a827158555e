/**
 * `yaniv train`: the learner's loop around the two algorithms (imitation.ts, then ppo.ts), to be
 * read top to bottom: settings → learner → actors → loop (collect, update, league, evaluate,
 * checkpoint) → finish.
 *
 * Threads: W actor workers (actor.ts, rollout.ts) play the games and run batched inference; the
 * learner (this thread, learner.ts) turns their trajectory batches into updates, sends the new
 * weights back, keeps the league, writes metrics and checkpoints; an evaluation worker plays the
 * periodic tournaments. With `actorLag` 1 the actors gather batch k+1 with weights k while the
 * learner trains on batch k, so on two cores both are busy.
 *
 * The run folder (checkpoint/, best/, metrics.jsonl, curve.svg and how a checkpoint survives a
 * kill) belongs to runFolder.ts.
 */
import { mixSeed } from '../env/rules/random.js';
import { describeBackend, initBackend } from '../nn/backend.js';
import { saveNetwork } from '../nn/persistence.js';
import { startInProcessTransport } from './actor.js';
import { EvaluationWorker, type MatchupResult, evaluationMatchups, matchupKey } from './evaluation.js';
import { Learner, type TrainerState, type UpdateResult } from './learner.js';
import type { ActorInit } from './messages.js';
import { heldOutValue } from './heldOutValue.js';
import { rewardEquity } from './rewardEquity.js';
import { RunFolder } from './runFolder.js';
import { StopRequested, unlessStopped } from '../support/stopping.js';
import { type CollectedBatch, type Transport, type TransportFactory, mergeParts } from './transport.js';
import { type GivenSettings, type RunSettings, resolveSettings } from './runSettings.js';

export { type TrainerState, TrainSetupError } from './learner.js';

export interface TrainOptions extends GivenSettings {
  commandLine: string[];
  /** Where the actors are (default: in this process, --workers threads). */
  transport?: TransportFactory;
  /** Compiled worker scripts (default: beside this file, dist/training/). */
  actorWorkerUrl?: URL;
  evalWorkerUrl?: URL;
}

/** A metrics.jsonl line of an iteration: the counters, the rates, the update's losses (UpdateResult) and the games' health. */
export interface IterationMetrics extends Omit<UpdateResult, 'passes'> {
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
  /** Imitation: the share of decisions where the network's most probable action was the teacher's. */
  teacherAgreement?: number;
  meanReward: number;
  truncatedEpisodes: number;
  decisionsPerEpisode: number;
  trainingWinRates: Record<string, { games: number; wins: number }>;
  weightsVersion: number;
  actingVersion: number;
  league: number[];
  /** Parts (of one actor each) the batch was merged from. */
  parts: number;
  /** Parts dropped because the learner could not use them (weights too old), their decisions, and stream entries that could not be read. */
  staleParts: number;
  staleDecisions: number;
  badEntries: number;
  /** Actors connected. */
  actors: number;
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
  /**
   * Aborted on a stop request: a wait on the transport (the next batch from actors, a publish to a
   * Redis that is gone) is cut short, so that the run stops within seconds with its last checkpoint.
   */
  stopSignal?: AbortSignal;
}

export interface TrainResult {
  state: TrainerState;
  stopped: boolean;
  checkpoint: string;
}

export async function train(options: TrainOptions, hooks: TrainHooks): Promise<TrainResult> {
  // Settings and the learner: fresh, from --init-from, or from the checkpoint.
  const folder = new RunFolder(options.run.out);
  const settings = resolveSettings(folder, options);
  const { run, hp } = settings;
  const backend = await initBackend(run.backend);
  folder.create();
  const learner = await openLearner(folder, settings, options.commandLine);
  const { state } = learner;
  if (state.episodes >= run.episodes) {
    hooks.log(`nothing to do: ${state.episodes} of ${run.episodes} episodes played (give a larger --episodes to go on)`);
    learner.dispose();
    return { state, stopped: false, checkpoint: settings.resume?.dir ?? folder.checkpointDir };
  }
  hooks.log(
    `${describeBackend(backend)}; network ${learner.network.config.hiddenUnits.join('-')} ${learner.network.config.activation}; ${run.workers} actor worker(s) × ${hp.gamesPerActor} games`,
  );

  const evaluation = new PeriodicEvaluation(folder, learner, hooks, options.evalWorkerUrl);
  let transport: Transport | null = null;
  let stopped = false;
  let checkpoint = folder.checkpointDir;
  try {
    // Actors, with the learner's weights.
    const inProcess: TransportFactory = (plan) =>
      startInProcessTransport(plan.inits, { inline: run.workers === 0, lag: plan.lag, workerUrl: options.actorWorkerUrl });
    transport = await (options.transport ?? inProcess)({
      inits: actorInits(settings, learner),
      lag: hp.actorLag,
      samples: hp.rolloutSamples,
      folder,
      log: (message) => hooks.log(message),
    });
    // Bounded by a stop request: with Redis gone the first weights may never be taken.
    const published = await unlessStopped(learner.publish(transport.weights), hooks.stopSignal).then(() => true, stoppedOr(false));
    hooks.onStart?.({
      out: folder.root,
      backend: describeBackend(backend),
      episodesDone: state.episodes,
      target: run.episodes,
      iteration: state.iteration,
      phase: state.phase,
    });

    const values = await ValueEvaluation.open(folder, learner, settings, hooks);
    const clock = { at: performance.now() };
    for (;;) {
      const metrics = published ? await iterate(learner, transport, settings, hooks, clock).catch(stoppedOr(null)) : null;
      if (metrics === null) {
        hooks.log(
          `stopped while waiting for the next batch: the run stops at iteration ${state.iteration} (nothing of the next was trained on)`,
        );
        stopped = true;
        break;
      }
      folder.appendMetrics(metrics);
      hooks.onIteration?.(metrics);
      if (state.episodes >= run.episodes || hooks.stopRequested()) {
        stopped = state.episodes < run.episodes;
        break;
      }

      // Checkpoint, evaluate, redraw the curve, each on its own period.
      if (state.iteration % hp.checkpointEvery === 0) checkpoint = await learner.saveCheckpoint(folder);
      if (run.evalEvery > 0 && state.iteration % run.evalEvery === 0) await evaluation.start().then(() => values.run());
      if (state.iteration % 5 === 0 && !evaluation.running) await folder.writeCurve();
    }

    // Finish: the actors stop; a checkpoint, the last evaluation (not after Ctrl-C), the curve.
    await transport.close();
    transport = null;
    checkpoint = await learner.saveCheckpoint(folder);
    if (!stopped) await values.run();
    if (!stopped && run.evalGames > 0) {
      await evaluation.final();
      checkpoint = await learner.saveCheckpoint(folder);
    }
    await folder.writeCurve();
  } finally {
    await transport?.close().catch(() => undefined);
    await evaluation.close();
    learner.dispose();
  }
  hooks.log(
    `${stopped ? 'stopped' : 'done'}: ${state.episodes} episodes, ${state.iteration} iterations; checkpoint ${checkpoint}; ${folder.curveFile}`,
  );
  return { state, stopped, checkpoint };
}

/**
 * One iteration: every actor's part of the next batch, the update, the new weights out (the league
 * may have grown), the batch acknowledged; returns its metrics line. `clock`: when the last batch arrived.
 */
async function iterate(learner: Learner, transport: Transport, settings: RunSettings, hooks: TrainHooks, clock: { at: number }) {
  const { run, hp } = settings;
  const { bus, weights } = transport;
  const taken = await unlessStopped(bus.take({ samples: hp.rolloutSamples, usable: (part) => learner.canUse(part) }), hooks.stopSignal);
  const collected = mergeParts(taken.parts);
  const arrived = performance.now();
  const iterationSeconds = (arrived - clock.at) / 1000;
  clock.at = arrived;
  const updateStarted = performance.now();
  const update = learner.update(collected.batch, collected.mode, (message) => hooks.log(message));
  const updateSeconds = (performance.now() - updateStarted) / 1000;
  countIteration(learner.state, collected, iterationSeconds);
  learner.growLeague();
  const sent = async () => {
    await learner.publish(weights);
    await bus.ack(taken);
  };
  if (!(await unlessStopped(sent(), hooks.stopSignal).then(() => true, stoppedOr(false))))
    hooks.log('stopped before the new weights were published and the batch acknowledged: its parts are delivered again on --resume');
  return {
    ...iterationMetrics(learner, collected, update, iterationSeconds, updateSeconds),
    parts: taken.parts.length,
    staleParts: taken.stale.parts,
    staleDecisions: taken.stale.decisions,
    badEntries: taken.bad,
    actors: (await transport.status?.())?.actors ?? Math.max(1, run.workers),
  };
}

/** A rejection handler: `value` for a wait cut short by a stop request, any other error rethrown. */
function stoppedOr<T>(value: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof StopRequested) return value;
    throw error;
  };
}

/** The learner of a fresh run (with an empty metrics.jsonl), or of the checkpoint (its metrics cut back to it). */
async function openLearner(folder: RunFolder, settings: RunSettings, commandLine: string[]): Promise<Learner> {
  const { run, hp, resume } = settings;
  if (resume === null) {
    const learner = await Learner.fresh(run, hp, commandLine);
    folder.startMetrics();
    return learner;
  }
  const { dir, saved } = resume;
  const state = { ...saved, run, hyperParameters: hp, commandLines: [...saved.commandLines, commandLine] };
  const learner = await Learner.resume(folder, dir, state);
  folder.truncateMetrics(state.iteration);
  return learner;
}

/** What each actor starts with: the rules, the network's shape, the opponent mix, its own seed. */
function actorInits(settings: RunSettings, learner: Learner): ActorInit[] {
  const { run, hp, mix } = settings;
  const { state } = learner;
  const teacher = state.episodes < learner.imitationTarget ? hp.imitationTeacher : null;
  const equity = rewardEquity(hp, run);
  return Array.from({ length: Math.max(1, run.workers) }, (_, actor) => ({
    actor,
    backend: run.backend,
    network: learner.network.config,
    teacher,
    setup: {
      players: run.players,
      games: hp.gamesPerActor,
      env: learner.env,
      returnHorizon: hp.returnHorizon,
      opponents: mix,
      seed: mixSeed(run.seed, 2, state.iteration, actor),
      equity,
      adviser: hp.adviser ?? null,
      ...(hp.pfsp > 0 ? { pfsp: hp.pfsp } : {}),
      ...(hp.critic === 'whole-deal' ? { wholeDeal: true } : {}),
      ...(hp.critic === 'rollout' ? { criticRollouts: hp.criticRollouts } : {}),
    },
  }));
}

/** The counters of the run after an iteration on `collected` (the update itself counted the iteration). */
function countIteration(state: TrainerState, collected: CollectedBatch, seconds: number): void {
  state.episodes += collected.stats.episodes;
  state.decisions += collected.stats.decisions;
  state.samples += collected.batch.count;
  state.wallSeconds += seconds;
}

/** The metrics.jsonl line of an iteration. */
function iterationMetrics(
  learner: Learner,
  { batch, stats, mode, weightsVersion }: CollectedBatch,
  update: UpdateResult,
  iterationSeconds: number,
  updateSeconds: number,
): Omit<IterationMetrics, 'parts' | 'staleParts' | 'staleDecisions' | 'badEntries' | 'actors'> {
  const { state } = learner;
  const { passes, ...losses } = update;
  const teacherAgreement = stats.learnerDecisions > 0 ? stats.teacherAgreement / stats.learnerDecisions : 0;
  return {
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
    ...(mode.kind === 'imitation' ? { ...losses, teacherAgreement } : losses),
    meanReward: batch.count > 0 ? stats.rewardSum / batch.count : 0,
    truncatedEpisodes: stats.truncated,
    decisionsPerEpisode: stats.episodes > 0 ? stats.decisions / stats.episodes : Number.NaN,
    trainingWinRates: stats.outcomes,
    weightsVersion: state.iteration,
    actingVersion: weightsVersion,
    league: learner.pool.snapshots.map((s) => s.id),
  };
}

/** The held-out value evaluations (heldOutValue.ts, --value-eval-games), in the learner's thread, at most one per iteration. */
class ValueEvaluation {
  private last = -1;

  private constructor(
    private readonly folder: RunFolder,
    private readonly learner: Learner,
    private readonly settings: RunSettings,
    private readonly hooks: TrainHooks,
  ) {}

  /** The evaluations of a run; a fresh run's first one, of the network it starts from, before any update. */
  static async open(folder: RunFolder, learner: Learner, settings: RunSettings, hooks: TrainHooks): Promise<ValueEvaluation> {
    const values = new ValueEvaluation(folder, learner, settings, hooks);
    if (learner.iteration === 0) await values.run();
    return values;
  }

  async run(): Promise<void> {
    const games = this.settings.run.valueEvalGames;
    if (games === 0 || this.last === this.learner.iteration) return;
    this.last = this.learner.iteration;
    const line = await heldOutValue(this.learner, this.settings.mix, games);
    this.folder.appendMetrics(line);
    const figure = (x: number, [low, high]: [number, number]) => `${x.toFixed(3)} (${low.toFixed(3)}–${high.toFixed(3)})`;
    const critic = this.learner.hp.critic;
    const whole = line.wholeDeal === null ? '' : `, ${critic} critic ${figure(line.wholeDeal, line.wholeDealInterval ?? [NaN, NaN])}`;
    this.hooks.log(
      `held-out explained variance at iteration ${line.iteration} (${line.heldOutEpisodes} games, ${line.decisions} decisions): seat value ${figure(line.seat, line.seatInterval)}${whole}`,
    );
  }
}

/**
 * The periodic tournaments, one at a time in the evaluation worker while training goes on: each
 * saves the network, plays it, logs the results, and keeps it as best/ when it beats the best so far
 * (its win rate against strong at the first table size).
 */
class PeriodicEvaluation {
  private readonly worker: EvaluationWorker;
  private pending: Promise<void> | null = null;

  constructor(
    private readonly folder: RunFolder,
    private readonly learner: Learner,
    private readonly hooks: TrainHooks,
    workerUrl = new URL('./evalWorker.js', import.meta.url),
  ) {
    this.worker = new EvaluationWorker(workerUrl);
  }

  get running(): boolean {
    return this.worker.running;
  }

  /** Starts an evaluation of the network as it is now, unless one is running. */
  async start(): Promise<void> {
    const { run, state } = this.learner;
    if (run.evalGames === 0 || this.worker.running) return;
    const { iteration, episodes } = state;
    const snapshot = this.folder.evaluationSnapshotDir(iteration);
    await saveNetwork(this.learner.network, snapshot, this.learner.saveOptions());
    this.pending = this.worker
      .run({
        model: snapshot,
        matchups: evaluationMatchups(run.players),
        games: run.evalGames,
        seed: run.seed,
        env: this.learner.env,
        backend: run.backend,
      })
      .then(
        (results) =>
          this.record(snapshot, { type: 'evaluation', iteration, episodes, results: results.map((r) => ({ ...r, key: matchupKey(r) })) }),
        (error: Error) => this.hooks.log(`evaluation failed: ${error.message}`),
      )
      .finally(() => {
        this.pending = null;
      });
  }

  private async record(snapshot: string, line: EvaluationMetrics): Promise<void> {
    const { run, state } = this.learner;
    this.folder.appendMetrics(line);
    state.lastEvaluation = line;
    const target = line.results.find((r) => r.opponent === 'strong' && r.players === run.players[0]) ?? line.results[0];
    const best = target !== undefined && (state.best === null || target.winRate > state.best.winRate);
    if (best) state.best = { matchup: target.key, winRate: target.winRate, iteration: line.iteration, episodes: line.episodes };
    this.folder.finishEvaluation(snapshot, best);
    this.hooks.onEvaluation?.(line);
    await this.folder.writeCurve();
  }

  /** Waits for the running evaluation, then evaluates the final network unless that one just did. */
  async final(): Promise<void> {
    await this.done();
    const last = this.learner.state.lastEvaluation as EvaluationMetrics | null;
    if (last === null || last.iteration !== this.learner.iteration) {
      this.hooks.log(`final evaluation: ${this.learner.run.evalGames} games per match-up…`);
      await this.start();
      await this.done();
    }
  }

  private done(): Promise<void> {
    return this.pending ?? Promise.resolve();
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
