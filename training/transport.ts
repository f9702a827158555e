/**
 * The actor ↔ learner boundary as two small interfaces, so that the algorithm code (trainer.ts,
 * learner.ts) does not know whether its actors are worker threads of its own process
 * (localTransport.ts with actor.ts, the default) or processes on other machines (Redis):
 *
 * - `TrajectoryBus`: actors `put` their parts of a batch; the learner `take`s at least a batch's
 *   worth of usable parts and `ack`s them after the update that used them (a part taken and not
 *   acknowledged — the learner died — is delivered again).
 * - `WeightStore`: the learner `publish`es each weights version with the mode to gather in and the
 *   league; actors read the `latest` header and `fetch` the weights of a version (the latest, or a
 *   past snapshot of the league, which is a past version).
 */
import type { Snapshot } from './league.js';
import type { ActorInit } from './messages.js';
import type { RunFolder } from './runFolder.js';
import type { CollectMode } from './rollout.js';
import { type RolloutStats, type TrajectoryBatch, mergeRolloutStats, mergeTrajectoryBatches } from './trajectory.js';

/** What comes with a weights version. */
export interface WeightsHeader {
  version: number;
  /** How the actors gather with these weights. */
  mode: CollectMode;
  /** The league's snapshots ("past" opponents): past versions, whose weights `fetch` returns too. */
  league: number[];
}

/** One actor's part of a batch. */
export interface TrajectoryPart {
  /** The actor that played it. */
  actor: string;
  /** The weights version it was played with (its header's mode is `mode`). */
  weightsVersion: number;
  mode: CollectMode;
  trajectories: TrajectoryBatch;
  stats: RolloutStats;
}

/** What a `take` returns: the parts to train on, in merge order, and what it dropped as unusable. */
export interface TakenParts {
  parts: TrajectoryPart[];
  /** Parts dropped (and acknowledged) because the learner could not use them, and their decisions. */
  stale: { parts: number; decisions: number };
  /** Entries dropped (and acknowledged) because they could not be read: truncated or foreign. */
  bad: number;
  /** The transport's handle for `ack`. */
  receipt: unknown;
}

export interface TakeRequest {
  /** Take parts until they hold at least this many learner decisions (a transport may give one round of parts instead). */
  samples: number;
  /** False for a part the learner cannot use (played with weights too old, or in a finished phase): dropped and counted. */
  usable(part: TrajectoryPart): boolean;
}

export interface TrajectoryBus {
  /** An actor hands over a part. */
  put(part: TrajectoryPart): Promise<void>;
  /** The learner waits (without spinning) for the next batch's parts; the parts of one take share one mode kind. */
  take(request: TakeRequest): Promise<TakenParts>;
  /** The update that used `taken` is done: its parts are never delivered again. */
  ack(taken: TakenParts): Promise<void>;
}

export interface WeightStore {
  /** Makes `weights` the latest version; `snapshots` are the league's weights (a store keeps those it has not seen). */
  publish(header: WeightsHeader, weights: Float32Array, snapshots: readonly Snapshot[]): Promise<void>;
  /** The latest header, null before the first publish. */
  latest(): Promise<WeightsHeader | null>;
  /** The weights of the latest version or of a league snapshot. */
  fetch(version: number): Promise<Float32Array>;
}

/** The learner's two ends and how to let go of them. */
export interface Transport {
  bus: TrajectoryBus;
  weights: WeightStore;
  /** Stops the actors this transport started (none for actors elsewhere) and closes connections. */
  close(): Promise<void>;
  /** The actors connected and their rate, for the progress line (when the transport knows them). */
  status?(): Promise<{ actors: number; decisionsPerSecond: number }>;
}

/** What the learner asks a transport to start or reach: the actors' settings and how many decisions a batch needs. */
export interface ActorPlan {
  /** What each in-process actor starts with (a remote transport hands the first one's, its seed aside, to actors elsewhere). */
  inits: ActorInit[];
  /** Batches in-process actors play ahead (actorLag). */
  lag: number;
  /** Learner decisions per batch (rolloutSamples). */
  samples: number;
  folder: RunFolder;
  log(message: string): void;
}

/** How `train` gets its transport (default: in-process actors, actor.ts). */
export type TransportFactory = (plan: ActorPlan) => Promise<Transport>;

/** One batch as the learner trains on it: the parts merged, with the mode and the weights version (the oldest) they were played with. */
export interface CollectedBatch {
  batch: TrajectoryBatch;
  stats: RolloutStats;
  mode: CollectMode;
  weightsVersion: number;
}

export function mergeParts(parts: readonly TrajectoryPart[]): CollectedBatch {
  if (parts.length === 0) throw new Error('a batch needs at least one part');
  return {
    batch: mergeTrajectoryBatches(parts.map((p) => p.trajectories)),
    stats: mergeRolloutStats(parts.map((p) => p.stats)),
    mode: parts[0].mode,
    weightsVersion: Math.min(...parts.map((p) => p.weightsVersion)),
  };
}
