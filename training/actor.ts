/**
 * An actor: a Rollout (rollout.ts) driven by learner messages (messages.ts). The same class runs in
 * a worker thread (actorWorker.ts) or, with --workers 0, in the learner's own thread; `ActorChannel`
 * hides which, and `InProcessActors` is the learner's side of all of them.
 */
import { Worker } from 'node:worker_threads';
import { createAgent } from '../agents/registry.js';
import type { Agent } from '../env/gym/agent.js';
import { describeBackend, initBackend } from '../nn/backend.js';
import { buildNetwork, setFlatWeights, type Network, type PolicyValueConfig } from '../nn/networks.js';
import { PAST, SELF, type Snapshot } from './league.js';
import type { ActorInit, ActorMessage, LearnerMessage } from './messages.js';
import { type CollectMode, Rollout } from './rollout.js';
import { type RolloutStats, type TrajectoryBatch, mergeRolloutStats, mergeTrajectoryBatches, trajectoryBuffers } from './trajectory.js';

export class Actor {
  private version = -1;

  private constructor(
    readonly init: ActorInit,
    private readonly learner: Network<PolicyValueConfig>,
    private readonly rollout: Rollout,
  ) {}

  /** Builds the networks and agents (loading tfjs's backend when `initialiseBackend`). */
  static async create(init: ActorInit, initialiseBackend: boolean): Promise<{ actor: Actor; backend: string }> {
    const backend = initialiseBackend ? describeBackend(await initBackend(init.backend)) : 'shared with the learner';
    const learner = buildNetwork(init.network);
    const agents = new Map<string, Agent>();
    for (const { spec } of init.setup.opponents) {
      if (spec !== SELF && spec !== PAST) agents.set(spec, await createAgent(spec));
    }
    const teacher = init.teacher === null ? null : await createAgent(init.teacher);
    [...agents.values(), ...(teacher ? [teacher] : [])].forEach((agent, i) => agent.reset(init.setup.seed + 101 * i));
    return { actor: new Actor(init, learner, new Rollout(init.setup, learner, agents, teacher)), backend };
  }

  /** Handles one message; returns the replies and the buffers they may transfer. */
  handle(message: LearnerMessage): { replies: ActorMessage[]; transfer: ArrayBuffer[] } {
    switch (message.type) {
      case 'weights':
        setFlatWeights(this.learner.model, message.weights);
        this.version = message.version;
        return { replies: [], transfer: [] };
      case 'league':
        for (const id of message.remove) this.rollout.removeSnapshot(id)?.model.dispose();
        for (const { id, weights } of message.add) {
          const network = buildNetwork(this.init.network);
          setFlatWeights(network.model, weights);
          this.rollout.addSnapshot(id, network);
        }
        return { replies: [], transfer: [] };
      case 'collect': {
        if (this.version < 0) throw new Error('collect before any weights');
        const { trajectories, stats } = this.rollout.collect(message.samples, message.mode);
        const reply: ActorMessage = {
          type: 'trajectories',
          actor: this.init.actor,
          batch: message.batch,
          weightsVersion: this.version,
          mode: message.mode,
          trajectories,
          stats,
        };
        return { replies: [reply], transfer: trajectoryBuffers(trajectories) };
      }
      case 'stop':
        this.learner.model.dispose();
        return { replies: [], transfer: [] };
    }
  }
}

/** The learner's end of one actor: post messages, await replies in order. */
interface ActorChannel {
  post(message: LearnerMessage): void;
  next(): Promise<ActorMessage>;
  close(): Promise<void>;
}

/** A queue of replies with waiting readers. */
class Inbox {
  private readonly messages: ActorMessage[] = [];
  private readonly waiting: { resolve: (m: ActorMessage) => void; reject: (e: Error) => void }[] = [];
  private failure: Error | null = null;

  push(message: ActorMessage): void {
    const reader = this.waiting.shift();
    if (reader) reader.resolve(message);
    else this.messages.push(message);
  }

  fail(error: Error): void {
    this.failure ??= error;
    for (const reader of this.waiting.splice(0)) reader.reject(error);
  }

  next(): Promise<ActorMessage> {
    const message = this.messages.shift();
    if (message) return Promise.resolve(message);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }
}

/** An actor in its own worker thread (the compiled actorWorker.js). */
async function startWorkerActor(init: ActorInit, workerUrl: URL): Promise<ActorChannel> {
  const inbox = new Inbox();
  const worker = new Worker(workerUrl, { workerData: init });
  let stopping = false;
  worker.on('message', (message: ActorMessage) => {
    if (message.type === 'error') inbox.fail(new Error(`actor ${message.actor}: ${message.message}`));
    else inbox.push(message);
  });
  worker.on('error', (error) => inbox.fail(error));
  worker.on('exit', (code) => {
    if (!stopping) inbox.fail(new Error(`actor ${init.actor} stopped with code ${code}`));
  });
  const channel: ActorChannel = {
    post: (message) => worker.postMessage(message),
    next: () => inbox.next(),
    close: async () => {
      stopping = true;
      await worker.terminate();
    },
  };
  const ready = await channel.next();
  if (ready.type !== 'ready') throw new Error(`actor ${init.actor} sent ${ready.type} before ready`);
  return channel;
}

/** An actor in this thread: each message is handled when posted (--workers 0). */
async function startInlineActor(init: ActorInit): Promise<ActorChannel> {
  const inbox = new Inbox();
  const { actor } = await Actor.create(init, false);
  return {
    post: (message) => {
      try {
        for (const reply of actor.handle(message).replies) inbox.push(reply);
      } catch (error) {
        inbox.fail(error instanceof Error ? error : new Error(String(error)));
      }
    },
    next: () => inbox.next(),
    close: () => {
      actor.handle({ type: 'stop' });
      return Promise.resolve();
    },
  };
}

/** One batch as the learner gets it: the actors' parts merged, with the mode and the weights version they were played in. */
export interface CollectedBatch {
  batch: TrajectoryBatch;
  stats: RolloutStats;
  mode: CollectMode;
  weightsVersion: number;
}

/**
 * The learner's side of its in-process actors. Each `take` asks every actor for its part of one
 * more batch (the first asks for 1 + `lag`, so that with lag 1 the actors play batch k+1 while the
 * learner trains on batch k) and returns the next batch, the parts in actor order. The messages to an
 * actor are handled in order, so batch k is played with the weights published last before it was
 * asked for: the same seed gives the same run.
 */
export class InProcessActors {
  private asked = false;
  private nextBatch = 0;
  private mode: CollectMode = { kind: 'ppo' };
  /** League snapshots the actors hold. */
  private league = new Set<number>();

  private constructor(
    private readonly actors: ActorChannel[],
    private readonly lag: number,
  ) {}

  static async start(inits: readonly ActorInit[], inline: boolean, lag: number, workerUrl?: URL): Promise<InProcessActors> {
    const actors: ActorChannel[] = [];
    try {
      for (const init of inits)
        actors.push(
          inline ? await startInlineActor(init) : await startWorkerActor(init, workerUrl ?? new URL('./actorWorker.js', import.meta.url)),
        );
    } catch (error) {
      await Promise.all(actors.map((actor) => actor.close().catch(() => undefined)));
      throw error;
    }
    return new InProcessActors(actors, lag);
  }

  private broadcast(message: LearnerMessage): void {
    for (const actor of this.actors) actor.post(message);
  }

  /** The learner's weights `version` from now on, the mode to gather in, and the league (only its changes go out). */
  publish(version: number, weights: Float32Array, mode: CollectMode, league: readonly Snapshot[]): void {
    const ids = new Set(league.map((s) => s.id));
    const add = league.filter((s) => !this.league.has(s.id)).map(({ id, weights }) => ({ id, weights }));
    const remove = [...this.league].filter((id) => !ids.has(id));
    if (add.length > 0 || remove.length > 0) this.broadcast({ type: 'league', add, remove });
    this.broadcast({ type: 'weights', version, weights });
    this.league = ids;
    this.mode = mode;
    if (!this.asked) this.nextBatch = version;
  }

  /** The next batch of at least `samples` learner decisions (split evenly over the actors). */
  async take(samples: number): Promise<CollectedBatch> {
    const share = Math.ceil(samples / this.actors.length);
    for (let k = this.asked ? 0 : this.lag; k >= 0; k--)
      this.broadcast({ type: 'collect', batch: this.nextBatch++, samples: share, mode: this.mode });
    this.asked = true;
    const parts = [];
    for (const actor of this.actors) {
      const reply = await actor.next();
      if (reply.type !== 'trajectories') throw new Error(`an actor sent ${reply.type} instead of trajectories`);
      parts.push(reply);
    }
    return {
      batch: mergeTrajectoryBatches(parts.map((p) => p.trajectories)),
      stats: mergeRolloutStats(parts.map((p) => p.stats)),
      mode: parts[0].mode,
      weightsVersion: parts[0].weightsVersion,
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.actors.map((actor) => actor.close().catch(() => undefined)));
  }
}
