/**
 * The Redis transport (transport.ts's interfaces), for actors on any number of machines. One run's
 * keys, all under `yaniv:run:<id>:`:
 *
 *   config           JSON: what an actor needs to play for the run (network shape, rules, mix, part size, formats)
 *   header           JSON: the latest WeightsHeader (version, mode, league)
 *   weights:<v>      the flat Float32 weights of version v (the latest few and the league's snapshots)
 *   versions         pub/sub channel: the number of each new version (never the weights themselves)
 *   trajectories     stream of parts (one MessagePack field `part`), MAXLEN ~; consumer group `learners`
 *   actors           hash: actor host → JSON { workers, decisionsPerSecond, at } (for the progress line)
 *   alive            set by the learner with a TTL while it runs; `finished` once it is done
 *
 * and `yaniv:runs`, the set of run IDs. A part is XACKed (and deleted) after the update that used
 * it; parts a dead learner had taken and not acknowledged are claimed (XAUTOCLAIM) by the next
 * one. A part the learner cannot use (stale weights) or cannot read (truncated, foreign) is
 * counted, logged and acknowledged, never a crash. ioredis reconnects by itself; after a Redis
 * restart (which loses every key with `--save ''`) the learner writes its run's keys again and
 * recreates the group, and actors wait for the header to come back.
 */
import os from 'node:os';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { parseEquityData } from '../agents/equity/equity.js';
import { PolicyValueConfigSchema } from '../nn/networks.js';
import { trainingEnvSchema } from './config.js';
import type { Snapshot } from './league.js';
import type { RolloutSetup } from './rollout.js';
import { SUMMED_STATS, TRAJECTORY_WIRE_FORMAT, decodeTrajectoryBatch, encodeTrajectoryBatch, unpackWire, wirePackr } from './trajectory.js';
import { closeRedis } from '../support/redis.js';
import { settledWithin } from '../support/stopping.js';
import type { TakeRequest, TakenParts, Transport, TrajectoryBus, TrajectoryPart, WeightStore, WeightsHeader } from './transport.js';

const RUNS = 'yaniv:runs';
const GROUP = 'learners';
const PART_FORMAT = 'yaniv-part/1';
/** How long closing waits on Redis (marking the run finished) before it lets go. */
const CLOSE_MS = 2000;
/** How long the learner's `alive` key lives without a heartbeat. */
const ALIVE_MS = 15_000;

export function runKeys(run: string) {
  const base = `yaniv:run:${run}:`;
  return {
    config: `${base}config`,
    header: `${base}header`,
    weights: (version: number) => `${base}weights:${version}`,
    versions: `${base}versions`,
    stream: `${base}trajectories`,
    actors: `${base}actors`,
    alive: `${base}alive`,
  };
}
export type RunKeys = ReturnType<typeof runKeys>;

// ---- Parts on the wire ----

const modeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ppo') }),
  z.strictObject({ kind: z.literal('imitation'), teacherPlays: z.boolean() }),
]);
const statsSchema = z.strictObject({
  ...(Object.fromEntries(Object.keys(SUMMED_STATS).map((name) => [name, z.number()])) as Record<keyof typeof SUMMED_STATS, z.ZodNumber>),
  seconds: z.number(),
  outcomes: z.record(z.string(), z.strictObject({ games: z.int().min(0), wins: z.int().min(0) })),
});
/** The latest weights header (stored at `header`). */
const weightsHeaderSchema = z.strictObject({
  version: z.int().min(0),
  mode: modeSchema,
  league: z.array(z.int().min(0)),
}) satisfies z.ZodType<WeightsHeader>;

/** A transform's value, or its error as the issue. */
function parsedOr<T>(ctx: z.RefinementCtx, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
}

const partSchema = z.strictObject({
  format: z.literal(PART_FORMAT),
  actor: z.string().min(1),
  weightsVersion: z.int().min(0),
  mode: modeSchema,
  stats: statsSchema,
  trajectories: z.instanceof(Uint8Array),
});

export function encodePart(part: TrajectoryPart): Buffer {
  const { actor, weightsVersion, mode, stats, trajectories } = part;
  return wirePackr.pack({ format: PART_FORMAT, actor, weightsVersion, mode, stats, trajectories: encodeTrajectoryBatch(trajectories) });
}

/** A stream entry's part; throws an Error naming the problem for anything else. */
export function decodePart(bytes: Uint8Array): TrajectoryPart {
  const parsed = partSchema.safeParse(unpackWire(bytes));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`not a ${PART_FORMAT} part: ${issue.path.join('.') || 'entry'}: ${issue.message}`);
  }
  const { actor, weightsVersion, mode, stats, trajectories } = parsed.data;
  return { actor, weightsVersion, mode, stats: stats, trajectories: decodeTrajectoryBatch(trajectories) };
}

/** A rollout's setup but its seed (each actor draws its own), as the run's config stores it. */
const remoteSetupSchema = z.strictObject({
  players: z.array(z.int().min(2)).min(1),
  games: z.int().min(1),
  env: trainingEnvSchema,
  returnHorizon: z.enum(['round', 'game']),
  opponents: z.array(z.strictObject({ spec: z.string(), weight: z.number() })),
  equity: z
    .array(z.unknown().transform((value, ctx) => parsedOr(ctx, () => parseEquityData(value, 'equity'))))
    .readonly()
    .nullable()
    .optional(),
  adviser: z.string().nullable().optional(),
  pfsp: z.number().min(0).max(8).optional(),
  wholeDeal: z.boolean().optional(),
  criticRollouts: z.int().min(0).optional(),
}) satisfies z.ZodType<Omit<RolloutSetup, 'seed'>>;

/** What an actor needs to play for a run (stored at `config`). */
export const remoteRunSchema = z.strictObject({
  formats: z.strictObject({ trajectories: z.string(), observation: z.string(), actionSpace: z.string() }),
  /** ActorInit's fields but the actor index and the backend (each actor's own). */
  network: PolicyValueConfigSchema,
  setup: remoteSetupSchema,
  teacher: z.string().nullable(),
  /** Learner decisions per part. */
  partSamples: z.int().min(1),
  /** Parts waiting in the stream beyond which actors pause until the next version. */
  maxBacklog: z.int().min(1),
});
export type RemoteRun = z.output<typeof remoteRunSchema>;

/** Parsed JSON, or undefined for text that is not JSON (a schema then refuses it). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function currentFormats(observation: string, actionSpace: string): RemoteRun['formats'] {
  return { trajectories: TRAJECTORY_WIRE_FORMAT, observation, actionSpace };
}

// ---- The transport ----

interface Published {
  header: WeightsHeader;
  weights: Float32Array;
  snapshots: readonly Snapshot[];
}

export interface RedisTransportOptions {
  log(message: string): void;
  /** Entries pending this long with another consumer are claimed (a learner that died). */
  claimIdleMs?: number;
  /** The stream's approximate length cap (XADD MAXLEN ~). */
  maxLength?: number;
}

/**
 * Both ends of one run over Redis: the learner uses take/ack/publish, actors put/latest/fetch.
 * `main` runs the commands; `blocking` only the learner's blocking XREADGROUP.
 */
export class RedisTransport implements Transport, TrajectoryBus, WeightStore {
  readonly keys: RunKeys;
  readonly bus = this;
  readonly weights = this;
  private readonly consumer = `learner-${os.hostname()}-${process.pid}`;
  private published: Published | null = null;
  /** Weights versions this learner has written (so snapshots are written once). */
  private readonly stored = new Set<number>();
  private heartbeat: NodeJS.Timeout | null = null;
  private lastWaitLog = 0;
  /** Entries claimed at the start, handed out first. */
  private reclaimed: [string, Buffer[]][] = [];
  private closed = false;

  constructor(
    readonly main: Redis,
    private readonly blocking: Redis | null,
    readonly run: string,
    private readonly options: RedisTransportOptions,
  ) {
    this.keys = runKeys(run);
  }

  /** The learner's side: registers the run (its config, the group) and keeps it alive; after a Redis restart it writes them again. */
  async startLearner(config: RemoteRun): Promise<void> {
    const write = async () => {
      await this.main.sadd(RUNS, this.run);
      await this.main.set(this.keys.config, JSON.stringify(config));
      await this.main.set(this.keys.alive, 'running', 'PX', ALIVE_MS);
      await this.createGroup();
    };
    await write();
    // This is the run's only learner: whatever a consumer before it took and did not acknowledge is its now.
    this.reclaimed = await this.claim(0);
    if (this.reclaimed.length > 0)
      this.options.log(`claimed ${this.reclaimed.length} trajectory part(s) a previous learner had not acknowledged`);
    this.heartbeat = setInterval(() => {
      this.main.set(this.keys.alive, 'running', 'PX', ALIVE_MS).catch(() => undefined);
    }, ALIVE_MS / 3);
    this.main.on('ready', () => {
      if (this.closed) return;
      this.options.log('Redis connection back: writing the run keys again');
      void write()
        .then(() => this.republish())
        .catch((error: Error) => this.options.log(`rewriting the run keys failed: ${error.message}`));
    });
  }

  private async createGroup(): Promise<void> {
    try {
      await this.main.xgroup('CREATE', this.keys.stream, GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!/BUSYGROUP/.test((error as Error).message)) throw error;
    }
  }

  private async republish(): Promise<void> {
    if (this.published === null) return;
    this.stored.clear();
    const { header, weights, snapshots } = this.published;
    await this.publish(header, weights, snapshots);
  }

  // ---- WeightStore ----

  async publish(header: WeightsHeader, weights: Float32Array, snapshots: readonly Snapshot[]): Promise<void> {
    this.published = { header, weights, snapshots };
    const pipeline = this.main.multi();
    pipeline.set(this.keys.weights(header.version), Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength));
    this.stored.add(header.version);
    for (const { id, weights: w } of snapshots) {
      if (this.stored.has(id)) continue;
      pipeline.set(this.keys.weights(id), Buffer.from(w.buffer, w.byteOffset, w.byteLength));
      this.stored.add(id);
    }
    pipeline.set(this.keys.header, JSON.stringify(header));
    // The two versions before stay a while for actors that read the header just before this one.
    const keep = new Set([header.version, header.version - 1, header.version - 2, ...header.league]);
    for (const version of [...this.stored]) {
      if (keep.has(version)) continue;
      pipeline.del(this.keys.weights(version));
      this.stored.delete(version);
    }
    pipeline.publish(this.keys.versions, String(header.version));
    await pipeline.exec();
  }

  async latest(): Promise<WeightsHeader | null> {
    const text = await this.main.get(this.keys.header);
    if (text === null) return null;
    const parsed = weightsHeaderSchema.safeParse(parseJson(text));
    if (!parsed.success) throw new Error(`the run's weights header in Redis is unreadable: ${parsed.error.issues[0].message}`);
    return parsed.data;
  }

  async fetch(version: number): Promise<Float32Array> {
    const bytes = await this.main.getBuffer(this.keys.weights(version));
    if (bytes === null) throw new Error(`weights version ${version} is not in Redis (no longer kept, or not written yet)`);
    const out = new Float32Array(bytes.byteLength / 4);
    new Uint8Array(out.buffer).set(bytes);
    return out;
  }

  // ---- TrajectoryBus ----

  async put(part: TrajectoryPart): Promise<void> {
    await this.main.xadd(this.keys.stream, 'MAXLEN', '~', this.options.maxLength ?? 1000, '*', 'part', encodePart(part));
  }

  async take(request: TakeRequest): Promise<TakenParts> {
    const taken: TakenParts = { parts: [], stale: { parts: 0, decisions: 0 }, bad: 0, receipt: [] as string[] };
    let decisions = 0;
    // A slow collection leaves this take's own entries idle long enough for XAUTOCLAIM to hand them back.
    const held = new Set<string>();
    while (decisions < request.samples) {
      // Entries not used are acknowledged and deleted at once: left in the stream while the take
      // waits, they would count towards the actors' backlog and hold the actors back.
      const unused: string[] = [];
      for (const [id, fields] of await this.nextEntries()) {
        if (held.has(id)) continue;
        held.add(id);
        let part: TrajectoryPart;
        try {
          part = decodePart(fieldValue(fields, 'part'));
        } catch (error) {
          taken.bad++;
          unused.push(id);
          this.options.log(`skipped stream entry ${id}: ${(error as Error).message}`);
          continue;
        }
        if (request.usable(part) && (taken.parts.length === 0 || taken.parts[0].mode.kind === part.mode.kind)) {
          taken.parts.push(part);
          (taken.receipt as string[]).push(id);
          decisions += part.trajectories.count;
        } else {
          taken.stale.parts++;
          taken.stale.decisions += part.trajectories.count;
          unused.push(id);
        }
      }
      if (unused.length > 0) await this.settle(unused);
    }
    return taken;
  }

  /** Claimed entries of a dead consumer first, else the next new ones (blocking: no spinning while none come). */
  private async nextEntries(): Promise<[string, Buffer[]][]> {
    if (this.reclaimed.length > 0) return this.reclaimed.splice(0);
    try {
      const claimed = await this.claim(this.options.claimIdleMs ?? 30_000);
      if (claimed.length > 0) return claimed;
      const reply = await (this.blocking ?? this.main).xreadgroupBuffer(
        'GROUP',
        GROUP,
        this.consumer,
        'COUNT',
        16,
        'BLOCK',
        2000,
        'STREAMS',
        this.keys.stream,
        '>',
      );
      if (reply === null) {
        await this.sayWaiting();
        return [];
      }
      const [, items] = (reply as [Buffer, [Buffer, Buffer[] | null][]][])[0];
      return items.filter(([, fields]) => fields !== null).map(([id, fields]) => [id.toString(), fields as Buffer[]]);
    } catch (error) {
      // Redis restarted (its keys gone): the group again, and the next read.
      if (!/NOGROUP/.test((error as Error).message)) throw error;
      await this.createGroup();
      return [];
    }
  }

  /** Entries pending for at least `idleMs` with any consumer, now this one's (XAUTOCLAIM); their ids and fields. */
  private async claim(idleMs: number): Promise<[string, Buffer[]][]> {
    const [, entries] = (await this.main.callBuffer('XAUTOCLAIM', this.keys.stream, GROUP, this.consumer, idleMs, '0-0', 'COUNT', 64)) as [
      Buffer,
      [Buffer, Buffer[] | null][],
    ];
    return entries.filter(([, fields]) => fields !== null).map(([id, fields]) => [id.toString(), fields as Buffer[]]);
  }

  private async sayWaiting(): Promise<void> {
    if (Date.now() - this.lastWaitLog < 10_000) return;
    this.lastWaitLog = Date.now();
    const actors = await this.connectedActors();
    this.options.log(
      actors === 0
        ? `waiting for actors: none connected (start one with: yaniv actor --redis URL --run ${this.run})`
        : `waiting for trajectories from ${actors} actor host(s)`,
    );
  }

  /** Acknowledges and deletes stream entries. */
  private async settle(ids: string[]): Promise<void> {
    await this.main
      .multi()
      .xack(this.keys.stream, GROUP, ...ids)
      .xdel(this.keys.stream, ...ids)
      .exec();
  }

  async ack(taken: TakenParts): Promise<void> {
    const ids = taken.receipt as string[];
    if (ids.length > 0) await this.settle(ids);
  }

  // ---- Actors ----

  /** Actor hosts that reported in the last 10 s, with their rates. */
  async actorHosts(): Promise<{ host: string; workers: number; decisionsPerSecond: number }[]> {
    const all = await this.main.hgetall(this.keys.actors);
    const now = Date.now();
    return Object.entries(all)
      .map(([host, text]) => ({ host, ...(JSON.parse(text) as { workers: number; decisionsPerSecond: number; at: number }) }))
      .filter((a) => now - a.at < 10_000);
  }

  async connectedActors(): Promise<number> {
    return (await this.actorHosts()).length;
  }

  async status(): Promise<{ actors: number; decisionsPerSecond: number }> {
    const hosts = await this.actorHosts();
    return { actors: hosts.reduce((n, h) => n + h.workers, 0), decisionsPerSecond: hosts.reduce((n, h) => n + h.decisionsPerSecond, 0) };
  }

  /** Marks the run finished (the actors stop) and disconnects; bounded: with Redis gone it says so and lets go. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.published !== null) {
      const finished = async () => {
        await this.main.set(this.keys.alive, 'finished', 'PX', 24 * 3600 * 1000);
        await this.main.publish(this.keys.versions, 'finished');
      };
      if (this.main.status !== 'ready' || !(await settledWithin(finished(), CLOSE_MS)))
        this.options.log(
          `could not mark run ${this.run} finished (Redis unreachable): its actors wait for it until they are stopped or the run goes on (yaniv train --resume)`,
        );
    }
    this.blocking?.disconnect();
    await closeRedis(this.main, CLOSE_MS);
  }
}

function fieldValue(fields: Buffer[], name: string): Buffer {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i].toString() === name) return fields[i + 1];
  throw new Error(`no field "${name}" (fields: ${fields.filter((_, i) => i % 2 === 0).join(', ') || 'none'})`);
}

/** The run IDs Redis holds with a learner alive. */
export async function activeRuns(redis: Redis): Promise<string[]> {
  const runs = await redis.smembers(RUNS);
  const alive = await Promise.all(runs.map(async (run) => ((await redis.get(runKeys(run).alive)) === 'running' ? run : null)));
  return alive.filter((run): run is string => run !== null);
}
