/**
 * The in-process transport (transport.ts): a weight store and a trajectory bus in the learner's
 * memory, for actors in worker threads of the same process (actor.ts bridges them) and for tests.
 *
 * The bus works in rounds, which keeps a run reproducible: a batch is one part from each actor,
 * taken in actor order, and each `take` first asks (`onDemand`) every actor for one more part — the
 * first take for 1 + `lag`, so that with lag 1 the actors play batch k+1 while the learner trains on
 * batch k.
 */
import { AsyncQueue } from './asyncQueue.js';
import type { Snapshot } from './league.js';
import type { TakeRequest, TakenParts, TrajectoryBus, TrajectoryPart, WeightStore, WeightsHeader } from './transport.js';

/** Weights versions in memory: the latest and the league's; every publish is also handed to the listeners. */
export class LocalWeightStore implements WeightStore {
  private header: WeightsHeader | null = null;
  private readonly versions = new Map<number, Float32Array>();
  private readonly listeners: ((header: WeightsHeader, weights: Float32Array, snapshots: readonly Snapshot[]) => void)[] = [];

  onPublish(listener: (header: WeightsHeader, weights: Float32Array, snapshots: readonly Snapshot[]) => void): void {
    this.listeners.push(listener);
  }

  publish(header: WeightsHeader, weights: Float32Array, snapshots: readonly Snapshot[]): Promise<void> {
    for (const { id, weights: w } of snapshots) if (!this.versions.has(id)) this.versions.set(id, w);
    this.versions.set(header.version, weights);
    const keep = new Set([header.version, ...header.league]);
    for (const version of this.versions.keys()) if (!keep.has(version)) this.versions.delete(version);
    this.header = header;
    for (const listener of this.listeners) listener(header, weights, snapshots);
    return Promise.resolve();
  }

  latest(): Promise<WeightsHeader | null> {
    return Promise.resolve(this.header);
  }

  fetch(version: number): Promise<Float32Array> {
    const weights = this.versions.get(version);
    if (weights === undefined) return Promise.reject(new Error(`weights version ${version} is neither the latest nor in the league`));
    return Promise.resolve(weights);
  }
}

export class LocalTrajectoryBus implements TrajectoryBus {
  private readonly queues = new Map<string, AsyncQueue<TrajectoryPart>>();
  private asked = false;
  private outstanding = 0;

  /**
   * `actors`: their ids, the order of a round; `onDemand(samples)`: ask each actor for one more part of
   * at least `samples` decisions.
   */
  constructor(
    private readonly actors: readonly string[],
    private readonly lag: number,
    private readonly onDemand: (samples: number) => void,
  ) {
    for (const actor of actors) this.queues.set(actor, new AsyncQueue<TrajectoryPart>());
  }

  private queue(actor: string): AsyncQueue<TrajectoryPart> {
    const queue = this.queues.get(actor);
    if (queue === undefined) throw new Error(`no actor ${JSON.stringify(actor)} on this bus`);
    return queue;
  }

  put(part: TrajectoryPart): Promise<void> {
    this.queue(part.actor).push(part);
    return Promise.resolve();
  }

  /** An actor failed: the learner's take rejects with its error. */
  fail(error: Error): void {
    for (const queue of this.queues.values()) queue.fail(error);
  }

  async take(request: TakeRequest): Promise<TakenParts> {
    const share = Math.ceil(request.samples / this.actors.length);
    const taken: TakenParts = { parts: [], stale: { parts: 0, decisions: 0 }, bad: 0, receipt: null };
    while (taken.parts.length === 0) {
      for (let k = this.asked ? 0 : this.lag; k >= 0; k--) this.onDemand(share);
      this.asked = true;
      for (const actor of this.actors) {
        const part = await this.queue(actor).next();
        if (request.usable(part) && (taken.parts.length === 0 || taken.parts[0].mode.kind === part.mode.kind)) taken.parts.push(part);
        else {
          taken.stale.parts++;
          taken.stale.decisions += part.trajectories.count;
        }
      }
    }
    this.outstanding++;
    return taken;
  }

  ack(_taken: TakenParts): Promise<void> {
    if (this.outstanding === 0) return Promise.reject(new Error('ack without a take'));
    this.outstanding--;
    return Promise.resolve();
  }
}
