/**
 * An actor host, whatever the transport: actors (worker threads, or this thread; actor.ts) playing
 * for a learner they reach through a run's weight store and trajectory bus (transport.ts). Each
 * weights version is fetched once for all of them; each actor is brought to a version's weights
 * and league by the one league sync (`syncMessages`, which the in-process transport uses too);
 * the actors wait while the learner has as many parts waiting as it can use; the host counts its
 * parts and decisions for its status. training/redisRun.ts wires it to Redis.
 */
import type { ActorChannel, LearnerMessage } from './messages.js';
import type { TrajectoryBus, WeightStore, WeightsHeader } from './transport.js';

/** The weights version and league an actor plays with now. */
export interface ActorSync {
  version: number;
  league: Set<number>;
}

/** An actor that has no weights yet. */
export function unsynced(): ActorSync {
  return { version: -1, league: new Set() };
}

/** The versions an actor lacks to play with a header: the league's new snapshots, then the header's own. */
export function versionsNeeded(sync: ActorSync, header: WeightsHeader): number[] {
  if (header.version === sync.version) return [];
  return [...header.league.filter((id) => !sync.league.has(id)), header.version];
}

/**
 * The messages that bring an actor to a header's weights and league, only what changed: the
 * league's changes (if any), then the weights. `weightsOf` holds every version `versionsNeeded`
 * named. Notes the actor as synced.
 */
export function syncMessages(sync: ActorSync, header: WeightsHeader, weightsOf: (version: number) => Float32Array): LearnerMessage[] {
  if (header.version === sync.version) return [];
  const ids = new Set(header.league);
  const add = header.league.filter((id) => !sync.league.has(id)).map((id) => ({ id, weights: weightsOf(id) }));
  const remove = [...sync.league].filter((id) => !ids.has(id));
  const messages: LearnerMessage[] = add.length > 0 || remove.length > 0 ? [{ type: 'league', add, remove }] : [];
  messages.push({ type: 'weights', version: header.version, weights: weightsOf(header.version) });
  sync.version = header.version;
  sync.league = ids;
  return messages;
}

/** A version's weights from a map that must hold it. */
export function weightsIn(weights: ReadonlyMap<number, Float32Array>): (version: number) => Float32Array {
  return (version) => {
    const found = weights.get(version);
    if (found === undefined) throw new Error(`weights version ${version} was not fetched`);
    return found;
  };
}

/** The run an actor host plays for, as its transport reaches it. */
export interface ActorHostLink {
  readonly weights: Pick<WeightStore, 'latest' | 'fetch'>;
  readonly bus: Pick<TrajectoryBus, 'put'>;
  /** Decisions per part. */
  readonly partSamples: number;
  /** Whether the learner has as many parts waiting as it can use (the actors then wait for the next version). */
  backlogged(): Promise<boolean>;
  /** Whether the run is over. */
  finished(): Promise<boolean>;
  /** Resolves at the next weights version (or the run's end), or after `ms`. */
  nextVersion(ms: number): Promise<void>;
}

export interface ActorHostOptions {
  /** This host, as its parts name it (`name/index`). */
  readonly name: string;
  log(message: string): void;
  stopRequested(): boolean;
}

export class ActorHost {
  /** Parts sent, decisions in them, and the newest version they were played with. */
  parts = 0;
  decisions = 0;
  version = -1;
  private readonly started = performance.now();
  /** Each version's weights, fetched once for every actor of the host. */
  private readonly cache = new Map<number, Promise<Float32Array>>();

  constructor(
    private readonly channels: readonly ActorChannel[],
    private readonly link: ActorHostLink,
    private readonly options: ActorHostOptions,
  ) {}

  get decisionsPerSecond(): number {
    return this.decisions / Math.max(1e-3, (performance.now() - this.started) / 1000);
  }

  /** Plays until the run is over or a stop is requested. */
  async run(): Promise<void> {
    await Promise.all(this.channels.map((channel, index) => this.play(channel, index)));
  }

  private async done(): Promise<boolean> {
    return this.options.stopRequested() || (await this.link.finished());
  }

  private async play(channel: ActorChannel, index: number): Promise<void> {
    const sync = unsynced();
    let batch = 0;
    while (!(await this.done())) {
      const header = await this.link.weights.latest();
      if (header === null || (await this.link.backlogged())) {
        await this.link.nextVersion(1000);
        continue;
      }
      this.forgetBefore(header);
      try {
        await this.syncTo(channel, sync, header);
      } catch (error) {
        this.options.log(`weights ${header.version}: ${(error as Error).message}; trying again`);
        await this.link.nextVersion(500);
        continue;
      }
      channel.post({ type: 'collect', batch: batch++, samples: this.link.partSamples, mode: header.mode });
      const reply = await channel.next();
      if (reply.type !== 'trajectories') throw new Error(`actor ${index} sent ${reply.type} instead of trajectories`);
      const { weightsVersion, mode, trajectories, stats } = reply;
      await this.link.bus.put({ actor: `${this.options.name}/${index}`, weightsVersion, mode, trajectories, stats });
      this.decisions += stats.decisions;
      this.parts++;
      this.version = Math.max(this.version, weightsVersion);
    }
  }

  private async syncTo(channel: ActorChannel, sync: ActorSync, header: WeightsHeader): Promise<void> {
    const needed = versionsNeeded(sync, header);
    const fetched = new Map(await Promise.all(needed.map(async (version) => [version, await this.weightsOf(version)] as const)));
    for (const message of syncMessages(sync, header, weightsIn(fetched))) channel.post(message);
  }

  private weightsOf(version: number): Promise<Float32Array> {
    let entry = this.cache.get(version);
    if (entry === undefined) {
      entry = this.link.weights.fetch(version);
      entry.catch(() => this.cache.delete(version));
      this.cache.set(version, entry);
    }
    return entry;
  }

  /** Versions no actor will ask for again: older than the two before the header's, and out of its league. */
  private forgetBefore(header: WeightsHeader): void {
    for (const old of this.cache.keys()) if (old < header.version - 2 && !header.league.includes(old)) this.cache.delete(old);
  }
}
