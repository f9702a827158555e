/**
 * An actor: a Rollout (rollout.ts) driven by learner messages (messages.ts). The same class runs in
 * a worker thread (actorWorker.ts) or, with --workers 0, in the learner's own thread; `ActorChannel`
 * hides which.
 */
import { Worker } from 'node:worker_threads';
import { createAgent } from '../agents/registry.js';
import type { Agent } from '../env/gym/agent.js';
import { describeBackend, initBackend } from '../nn/backend.js';
import { buildNetwork, setFlatWeights, type Network, type PolicyValueConfig } from '../nn/networks.js';
import { PAST, SELF } from './league.js';
import type { ActorInit, ActorMessage, LearnerMessage } from './messages.js';
import { Rollout } from './rollout.js';
import { trajectoryBuffers } from './trajectory.js';

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
export interface ActorChannel {
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
export async function startWorkerActor(init: ActorInit, workerUrl: URL): Promise<ActorChannel> {
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
export async function startInlineActor(init: ActorInit): Promise<ActorChannel> {
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
