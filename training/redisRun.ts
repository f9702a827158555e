/**
 * The two ends of a run over Redis (redisTransport.ts): the learner's transport factory for
 * `yaniv train --redis URL`, and the actor host of `yaniv actor --redis URL`, which plays for the
 * run with W actors (worker threads, actor.ts), fetches each weights version once for all of them,
 * pauses while the stream holds more parts than the learner can use, and reports its rate.
 */
import { randomBytes, randomInt } from 'node:crypto';
import os from 'node:os';
import { ACTION_SPACE_VERSION } from '../env/gym/actionLayout.js';
import { OBSERVATION_VERSION } from '../env/gym/observation.js';
import type { BackendChoice } from '../nn/backendChoice.js';
import type { PolicyValueConfig } from '../nn/networks.js';
import { type ActorChannel, startInlineActor, startWorkerActor } from './actor.js';
import type { ActorInit } from './messages.js';
import { TransportSetupError, connectRedis, redactUrl } from '../support/redis.js';
import { RedisTransport, activeRuns, currentFormats, remoteRunSchema, runKeys, type RemoteRun } from './redisTransport.js';
import type { RolloutSetup } from './rollout.js';
import type { TransportFactory, WeightsHeader } from './transport.js';

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

export interface ActorHostOptions {
  url: string;
  /** The run to join; null: the one active run. */
  run: string | null;
  /** Actor worker threads (0: one actor in this thread). */
  workers: number;
  backend: BackendChoice;
  log(message: string): void;
  stopRequested(): boolean;
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
  const parsed = remoteRunSchema.safeParse(text === null ? null : JSON.parse(text));
  if (!parsed.success) throw new TransportSetupError(`run ${run}: its config in Redis is unreadable`);
  const formats = currentFormats(OBSERVATION_VERSION, ACTION_SPACE_VERSION);
  if (JSON.stringify(parsed.data.formats) !== JSON.stringify(formats))
    throw new TransportSetupError(
      `run ${run} uses formats ${JSON.stringify(parsed.data.formats)}; this build has ${JSON.stringify(formats)}`,
    );
  return parsed.data;
}

/** Plays for a run until the learner finishes it or a stop is requested; returns the parts sent. */
export async function runActorHost(options: ActorHostOptions): Promise<{ run: string; parts: number; finished: boolean }> {
  const main = await connectRedis(options.url, 'yaniv-actor');
  const subscriber = await connectRedis(options.url, 'yaniv-actor-versions');
  const channels: ActorChannel[] = [];
  let heartbeat: NodeJS.Timeout | null = null;
  try {
    const run = await resolveRun(options.url, main, options.run);
    const config = await readRun(main, run);
    const transport = new RedisTransport(main, null, run, { log: (message) => options.log(message) });
    const keys = transport.keys;
    const host = `${os.hostname()}:${process.pid}`;

    // Wake-ups: each new version (or the run's end) wakes the waiting actors.
    let finished = false;
    let waiting: (() => void)[] = [];
    await subscriber.subscribe(keys.versions);
    subscriber.on('message', (_channel: string, message: string) => {
      if (message === 'finished') finished = true;
      for (const wake of waiting.splice(0)) wake();
    });
    const nextVersion = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });

    const count = Math.max(1, options.workers);
    const workerUrl = options.workerUrl ?? new URL('./actorWorker.js', import.meta.url);
    for (let actor = 0; actor < count; actor++) {
      const init: ActorInit = {
        actor,
        backend: options.backend,
        network: config.network as unknown as PolicyValueConfig,
        teacher: config.teacher,
        setup: { ...(config.setup as unknown as Omit<RolloutSetup, 'seed'>), seed: randomInt(2 ** 31) },
      };
      channels.push(options.workers === 0 ? await startInlineActor(init) : await startWorkerActor(init, workerUrl));
    }
    options.log(`actor host ${host}: ${count} actor(s) playing for run ${run}`);

    // Each version's weights are fetched once for every actor of this host.
    const cache = new Map<number, Promise<Float32Array>>();
    const weightsOf = (version: number) => {
      let entry = cache.get(version);
      if (entry === undefined) {
        entry = transport.fetch(version);
        entry.catch(() => cache.delete(version));
        cache.set(version, entry);
      }
      return entry;
    };
    const started = performance.now();
    let decisions = 0;
    let parts = 0;
    let version = -1;
    const rate = () => decisions / Math.max(1e-3, (performance.now() - started) / 1000);
    const report = () =>
      main
        .hset(keys.actors, host, JSON.stringify({ workers: count, decisionsPerSecond: rate(), at: Date.now() }))
        .then(() => options.onStatus?.({ run, parts, decisionsPerSecond: rate(), version }))
        .catch(() => undefined);
    heartbeat = setInterval(() => void report(), 2000);
    await report();

    const done = async () => finished || options.stopRequested() || (await main.get(keys.alive)) === 'finished';
    const play = async (channel: ActorChannel, index: number) => {
      const state = { version: -1, league: new Set<number>(), batch: 0 };
      while (!(await done())) {
        const header = await transport.latest();
        if (header === null || (await main.xlen(keys.stream)) >= config.maxBacklog) {
          await nextVersion(1000);
          continue;
        }
        for (const old of cache.keys()) if (old < header.version - 2 && !header.league.includes(old)) cache.delete(old);
        try {
          await sync(channel, state, header, weightsOf);
        } catch (error) {
          options.log(`weights ${header.version}: ${(error as Error).message}; trying again`);
          await nextVersion(500);
          continue;
        }
        channel.post({ type: 'collect', batch: state.batch++, samples: config.partSamples, mode: header.mode });
        const reply = await channel.next();
        if (reply.type !== 'trajectories') throw new Error(`actor ${index} sent ${reply.type} instead of trajectories`);
        const { weightsVersion, mode, trajectories, stats } = reply;
        await transport.put({ actor: `${host}/${index}`, weightsVersion, mode, trajectories, stats });
        decisions += stats.decisions;
        parts++;
        version = Math.max(version, weightsVersion);
      }
    };
    await Promise.all(channels.map((channel, index) => play(channel, index)));
    await main.hdel(keys.actors, host).catch(() => undefined);
    waiting = [];
    return { run, parts, finished: !options.stopRequested() };
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    await Promise.all(channels.map((channel) => channel.close().catch(() => undefined)));
    subscriber.disconnect();
    await main.quit().catch(() => undefined);
  }
}

/** Brings an actor to the header's weights and league (only what changed goes to it). */
async function sync(
  channel: ActorChannel,
  state: { version: number; league: Set<number> },
  header: WeightsHeader,
  weightsOf: (version: number) => Promise<Float32Array>,
): Promise<void> {
  if (header.version === state.version) return;
  const ids = new Set(header.league);
  const add = await Promise.all(
    header.league.filter((id) => !state.league.has(id)).map(async (id) => ({ id, weights: await weightsOf(id) })),
  );
  const weights = await weightsOf(header.version);
  const remove = [...state.league].filter((id) => !ids.has(id));
  if (add.length > 0 || remove.length > 0) channel.post({ type: 'league', add, remove });
  channel.post({ type: 'weights', version: header.version, weights });
  state.version = header.version;
  state.league = ids;
}
