/**
 * The messages between the learner's thread and an in-process actor (a worker thread, or the
 * learner's own thread with --workers 0; actor.ts). Plain, structured-clonable data only (numbers,
 * strings, typed arrays). The algorithms do not see these: they talk to transport.ts's interfaces,
 * which actor.ts implements on top of them.
 *
 * Learner → actor: versioned weights, league changes, and requests for a batch of trajectories.
 * Actor → learner: trajectory batches with the weights version that played them, and errors.
 */
import type { BackendChoice } from '../nn/backendChoice.js';
import type { PolicyValueConfig } from '../nn/networks.js';
import type { CollectMode, RolloutSetup } from './rollout.js';
import type { RolloutStats, TrajectoryBatch } from './trajectory.js';

/** What an actor is started with. */
export interface ActorInit {
  actor: number;
  backend: BackendChoice;
  network: PolicyValueConfig;
  setup: RolloutSetup;
  /** Agent spec of the imitation teacher, or null. */
  teacher: string | null;
}

export type LearnerMessage =
  /** The learner's weights (getFlatWeights order) from now on. */
  | { type: 'weights'; version: number; weights: Float32Array }
  /** Snapshots joining and leaving the league's "past" pool. */
  | { type: 'league'; add: { id: number; weights: Float32Array }[]; remove: number[] }
  /** Gather at least `samples` learner decisions with the latest weights received, and send them as batch `batch`. */
  | { type: 'collect'; batch: number; samples: number; mode: CollectMode }
  | { type: 'stop' };

export type ActorMessage =
  | { type: 'ready'; actor: number; backend: string }
  | {
      type: 'trajectories';
      actor: number;
      batch: number;
      weightsVersion: number;
      mode: CollectMode;
      trajectories: TrajectoryBatch;
      stats: RolloutStats;
    }
  | { type: 'error'; actor: number; message: string };

/** The learner's end of one actor: post messages, await replies in order. */
export interface ActorChannel {
  post(message: LearnerMessage): void;
  next(): Promise<ActorMessage>;
  close(): Promise<void>;
}
