/**
 * The Redis wiring of a run (redisTransport.ts): the learner's transport factory for
 * `yaniv train --redis URL`, and `yaniv actor --redis URL`, which finds the run, starts W actors
 * and hands them to the transport-neutral actor host (actorHost.ts) with the run's Redis link
 * (wake-ups on each version, the backlog, the end), reporting its rate in the run's actors hash.
 */
import { randomBytes, randomInt } from 'node:crypto';
import os from 'node:os';
import type { Redis } from 'ioredis';
import { ACTION_SPACE_VERSION } from '../env/gym/actionLayout.js';
import { OBSERVATION_VERSION } from '../env/gym/observation.js';
import type { BackendChoice } from '../nn/backendChoice.js';
import { closeActors, startActors } from './actor.js';
import { ActorHost, type ActorHostLink } from './actorHost.js';
import type { ActorChannel, ActorInit } from './messages.js';
import { TransportSetupError, closeRedis, connectRedis } from '../support/redis.js';
import { redactUrl } from '../support/secret.js';
import { StopRequested, settledWithin, unlessStopped } from '../support/stopping.js';
import { RedisTransport, activeRuns, currentFormats, parseJson, remoteRunSchema, runKeys, type RemoteRun } from './redisTransport.js';
import type { TransportFactory } from './transport.js';

/** How long stopping waits on Redis (signing off) before it lets go. */
const CLOSE_MS = 2000;

/** Parts per batch: a batch of `rolloutSamples` decisions is gathered from this many parts (by one actor or many). */
const PARTS_PER_BATCH = 4;

/** The learner's transport over Redis: a new run ID (or the run folder's, on --resume), printed for the actors to join. */
export function redisTransportFactory(url: string): TransportFactory {
  return async (plan) => {
    const run = plan.folder.redisRun() ?? randomBytes(4).toString('hex');
    const main = await connectRedis(url, `yaniv-learner-${run}`);
    const blocking = await connectRedis(url, `yaniv-learner-${run}-reader`);
    const transport = new RedisTransport(main, blocking, run, { log: (message) => plan.log(message) });
    const { seed: _seed, ...setup } = plan.inits[0].setup;
    await transport.startLearner({
      formats: currentFormats(OBSERVATION_VERSION, ACTION_SPACE_VERSION),
      network: { ...plan.inits[0].network },
      setup,
      teacher: plan.inits[0].teacher,
      partSamples: Math.ceil(plan.samples / PARTS_PER_BATCH),
      maxBacklog: 2 * PARTS_PER_BATCH,
    });
    plan.folder.saveRedisRun(run);
    plan.log(`run ID ${run} on ${redactUrl(url)}; join it with: yaniv actor --redis URL --run ${run}`);
    return transport;
  };
}

export interface RedisActorHostOptions {
  url: string;
  /** The run to join; null: the one active run. */
  run: string | null;
  /** Actor worker threads (0: one actor in this thread). */
  workers: number;
  backend: BackendChoice;
  log(message: string): void;
  stopRequested(): boolean;
  /** Aborted on a stop request: the parts being played are dropped at once (the learner misses nothing: it waits for others). */
  stopSignal?: AbortSignal;
  onStatus?(status: { run: string; parts: number; decisionsPerSecond: number; version: number }): void;
  workerUrl?: URL;
}

/** The run ID to join: the one given (which must exist) or the only active one. */
async function resolveRun(transportUrl: string, redis: RedisTransport['main'], run: string | null): Promise<string> {
  if (run !== null) {
    if ((await redis.exists(runKeys(run).config)) === 0)
      throw new TransportSetupError(`no run ${JSON.stringify(run)} in Redis at ${redactUrl(transportUrl)}`);
    return run;
  }
  const active = await activeRuns(redis);
  if (active.length === 1) return active[0];
  throw new TransportSetupError(
    active.length === 0
      ? `no active run in Redis at ${redactUrl(transportUrl)}: start one with yaniv train --redis URL, or name one with --run`
      : `${active.length} active runs in Redis (${active.join(', ')}): choose one with --run`,
  );
}

async function readRun(redis: RedisTransport['main'], run: string): Promise<RemoteRun> {
  const text = await redis.get(runKeys(run).config);
  const parsed = remoteRunSchema.safeParse(text === null ? null : parseJson(text));
  if (!parsed.success) throw new TransportSetupError(`run ${run}: its config in Redis is unreadable`);
  const formats = currentFormats(OBSERVATION_VERSION, ACTION_SPACE_VERSION);
  if (JSON.stringify(parsed.data.formats) !== JSON.stringify(formats))
    throw new TransportSetupError(
      `run ${run} uses formats ${JSON.stringify(parsed.data.formats)}; this build has ${JSON.stringify(formats)}`,
    );
  return parsed.data;
}

/** Plays for a run until the learner finishes it or a stop is requested; returns the parts sent. */
export async function runActorHost(options: RedisActorHostOptions): Promise<{ run: string; parts: number; finished: boolean }> {
  const main = await connectRedis(options.url, 'yaniv-actor');
  const subscriber = await connectRedis(options.url, 'yaniv-actor-versions');
  let channels: ActorChannel[] = [];
  let heartbeat: NodeJS.Timeout | null = null;
  try {
    const run = await resolveRun(options.url, main, options.run);
    const config = await readRun(main, run);
    const transport = new RedisTransport(main, null, run, { log: (message) => options.log(message) });
    const link = await redisLink(transport, subscriber, config);
    const count = Math.max(1, options.workers);
    const inits = Array.from({ length: count }, (_, actor): ActorInit => {
      const { network, teacher, setup } = config;
      return { actor, backend: options.backend, network, teacher, setup: { ...setup, seed: randomInt(2 ** 31) } };
    });
    channels = await startActors(inits, { inline: options.workers === 0, workerUrl: options.workerUrl });
    const name = `${os.hostname()}:${process.pid}`;
    const host = new ActorHost(channels, link, {
      name,
      log: (message) => options.log(message),
      stopRequested: () => options.stopRequested(),
    });
    options.log(`actor host ${name}: ${count} actor(s) playing for run ${run}`);
    const report = () =>
      main
        .hset(transport.keys.actors, name, JSON.stringify({ workers: count, decisionsPerSecond: host.decisionsPerSecond, at: Date.now() }))
        .then(() => options.onStatus?.({ run, parts: host.parts, decisionsPerSecond: host.decisionsPerSecond, version: host.version }))
        .catch(() => undefined);
    heartbeat = setInterval(() => void report(), 2000);
    const played = async () => {
      await report();
      await host.run();
    };
    await unlessStopped(played(), options.stopSignal).catch((error: unknown) => {
      if (!(error instanceof StopRequested)) throw error;
      options.log(`stopping: the part(s) being played by ${count} actor(s) are dropped (the learner uses others')`);
    });
    if (main.status !== 'ready' || !(await settledWithin(main.hdel(transport.keys.actors, name), CLOSE_MS)))
      options.log('could not sign off in Redis (unreachable): the learner stops counting this host 10 s after its last report');
    return { run, parts: host.parts, finished: !options.stopRequested() };
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    await closeActors(channels);
    subscriber.disconnect();
    await closeRedis(main, CLOSE_MS);
  }
}

/** The run as an actor host reaches it over Redis: wake-ups on each new version (or the run's end) from the versions channel. */
async function redisLink(transport: RedisTransport, subscriber: Redis, config: RemoteRun): Promise<ActorHostLink> {
  const { keys, main } = transport;
  let finished = false;
  const waiting: (() => void)[] = [];
  await subscriber.subscribe(keys.versions);
  subscriber.on('message', (_channel: string, message: string) => {
    if (message === 'finished') finished = true;
    for (const wake of waiting.splice(0)) wake();
  });
  return {
    weights: transport,
    bus: transport,
    partSamples: config.partSamples,
    backlogged: async () => (await main.xlen(keys.stream)) >= config.maxBacklog,
    finished: async () => finished || (await main.get(keys.alive)) === 'finished',
    nextVersion: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
