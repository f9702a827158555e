/**
 * An actor: a Rollout (rollout.ts) driven by learner messages (messages.ts). The same class runs in
 * a worker thread (actorWorker.ts) or, with --workers 0, in the learner's own thread; `ActorChannel`
 * hides which, and `startInProcessTransport` bridges them to the learner's transport (transport.ts).
 */
import { Worker } from 'node:worker_threads';
import { createAgentFor } from '../agents/resolve.js';
import { describeBackend, initBackend } from '../nn/backend.js';
import { buildNetwork, setFlatWeights, type Network, type PolicyValueConfig } from '../nn/networks.js';
import { unsynced, syncMessages, weightsIn } from './actorHost.js';
import { AsyncQueue } from './asyncQueue.js';
import { opponentAgents } from './league.js';
import { LocalTrajectoryBus, LocalWeightStore } from './localTransport.js';
import type { ActorChannel, ActorInit, ActorMessage, LearnerMessage } from './messages.js';
import type { Agent } from '../env/gym/agent.js';
import { Rollout, type RolloutSetup } from './rollout.js';
import { trajectoryBuffers } from './trajectory.js';
import type { Transport, WeightsHeader } from './transport.js';

/**
 * The agents an actor plays with, each resolved for the run's tables (agents/resolve.ts): the
 * opponents per table size, and the imitation teacher and the adviser, which play at every size —
 * resolved at the largest (a model trained there has played every smaller count of seats in play,
 * agents/models/catalog.ts). Seeded from the run's seed.
 */
export async function actorAgents(
  setup: RolloutSetup,
  teacherSpec: string | null,
): Promise<{ agents: Map<string, Agent>; teacher: Agent | null; adviser: Agent | null }> {
  const { env, players } = setup;
  const agents = await opponentAgents(setup.opponents, { preset: env.preset, rules: env.rules, sizes: players });
  const largest = { preset: env.preset, rules: env.rules, players: Math.max(...players) };
  const teacher = teacherSpec === null ? null : await createAgentFor(teacherSpec, largest);
  // The same agent asked about the same position answers once: a teacher that is also the adviser is one agent.
  const adviser = !setup.adviser ? null : setup.adviser === teacherSpec ? teacher : await createAgentFor(setup.adviser, largest);
  [...new Set([...agents.values(), teacher, adviser])]
    .flatMap((agent) => (agent ? [agent] : []))
    .forEach((agent, i) => agent.reset(setup.seed + 101 * i));
  return { agents, teacher, adviser };
}

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
    const { agents, teacher, adviser } = await actorAgents(init.setup, init.teacher);
    return { actor: new Actor(init, learner, new Rollout(init.setup, learner, agents, teacher, adviser)), backend };
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

/** An actor in its own worker thread (the compiled actorWorker.js). */
export async function startWorkerActor(init: ActorInit, workerUrl: URL): Promise<ActorChannel> {
  const inbox = new AsyncQueue<ActorMessage>();
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
  const inbox = new AsyncQueue<ActorMessage>();
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

export interface InProcessOptions {
  /** The actors run in the learner's thread (--workers 0) instead of worker threads. */
  inline: boolean;
  /** Batches the actors play ahead of the learner (actorLag). */
  lag: number;
  /** The compiled actorWorker.js (default: beside this file). */
  workerUrl?: URL;
}

/**
 * Starts the actors in this process and bridges them to a local bus and weight store
 * (localTransport.ts): each publish goes to every actor as its weights and the league's changes,
 * each demand of the bus as a collect request, each reply onto the bus. The messages to an actor
 * are handled in order, so a part is played with the weights published last before it was asked
 * for, and the same seed gives the same run.
 */
export async function startInProcessTransport(inits: readonly ActorInit[], options: InProcessOptions): Promise<Transport> {
  const channels = await startActors(inits, options);
  const broadcast = (message: LearnerMessage) => channels.forEach((channel) => channel.post(message));
  const weights = new LocalWeightStore();
  let latest: WeightsHeader | null = null;
  const sync = unsynced();
  let nextBatch = 0;
  weights.onPublish((header, flat, snapshots) => {
    const fetched = new Map([...snapshots.map(({ id, weights: w }) => [id, w] as const), [header.version, flat] as const]);
    for (const message of syncMessages(sync, header, weightsIn(fetched))) broadcast(message);
    if (latest === null) nextBatch = header.version;
    latest = header;
  });
  const bus = new LocalTrajectoryBus(
    inits.map((init) => String(init.actor)),
    options.lag,
    (samples) => {
      if (latest === null) throw new Error('a batch asked for before any weights were published');
      broadcast({ type: 'collect', batch: nextBatch++, samples, mode: latest.mode });
    },
  );
  let closing = false;
  const pump = async (channel: ActorChannel): Promise<void> => {
    for (;;) {
      const reply = await channel.next();
      if (reply.type !== 'trajectories') throw new Error(`an actor sent ${reply.type} instead of trajectories`);
      const { actor, weightsVersion, mode, trajectories, stats } = reply;
      await bus.put({ actor: String(actor), weightsVersion, mode, trajectories, stats });
    }
  };
  for (const channel of channels) {
    pump(channel).catch((error: Error) => {
      if (!closing) bus.fail(error);
    });
  }
  return {
    bus,
    weights,
    close: () => {
      closing = true;
      return closeActors(channels);
    },
  };
}

/** Starts an actor per init, in worker threads or (inline) in this thread; on a failure, those started are closed. */
export async function startActors(inits: readonly ActorInit[], options: { inline: boolean; workerUrl?: URL }): Promise<ActorChannel[]> {
  const channels: ActorChannel[] = [];
  try {
    const workerUrl = options.workerUrl ?? new URL('./actorWorker.js', import.meta.url);
    for (const init of inits) channels.push(options.inline ? await startInlineActor(init) : await startWorkerActor(init, workerUrl));
  } catch (error) {
    await closeActors(channels);
    throw error;
  }
  return channels;
}

export async function closeActors(channels: readonly ActorChannel[]): Promise<void> {
  await Promise.all(channels.map((channel) => channel.close().catch(() => undefined)));
}
