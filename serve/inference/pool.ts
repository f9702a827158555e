/**
 * Inference for concurrent requests, batched and off the event loop. Requests queue here; a
 * batch (up to `batchMax` requests) leaves as soon as a worker thread has room, so that under
 * load the batches grow and the cost of each message to a worker is shared (throughput grows
 * with load), while a lone request waits for at most `batchWindowMs` (0: the rest of the
 * current event-loop turn). Each worker keeps at most two batches in flight. With `workers: 0`
 * the batches run on the main thread (for tests and tiny deployments).
 *
 * Fair and bounded: batches take the waiting requests' owners (client addresses) in turn; at
 * most `maxQueue` requests wait, a tenth of them of one address (more are answered `overloaded`),
 * and a worker that
 * holds a batch past `deadlineMs` is terminated by a watchdog and replaced, its requests answered
 * `timed_out`; `pressure()` tells `/health` of both.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { type DecideRequest, type DecideResult, type PlayedAgent, agentFor, decideBatch } from './decide.js';
import { decidesCheaply } from '../../agents/registry.js';
import { addressShare } from '../options.js';

export interface PoolOptions {
  /** Worker threads; 0 runs inference on the main thread. */
  readonly workers: number;
  readonly batchMax: number;
  readonly batchWindowMs: number;
  /** The compiled worker script; by default dist/serve/inference/inferenceWorker.js. */
  readonly workerUrl?: URL;
  /** A batch a worker has not answered within this is answered `timed_out` and the worker replaced (default: no deadline). */
  readonly deadlineMs?: number;
  /** Requests waiting for a worker; past it a request is answered `overloaded` (default: no limit). */
  readonly maxQueue?: number;
}

export type WorkerRequest = { batch: number; requests: DecideRequest[] } | { load: number; agent: PlayedAgent };
export type WorkerReply =
  { ready: true } | { fatal: string } | { batch: number; results: DecideResult[] } | { loaded: number; error?: string };
export interface WorkerSetup {
  preload: PlayedAgent[];
}

interface Pending {
  readonly request: DecideRequest;
  readonly resolve: (result: DecideResult) => void;
  /** Whose request it is (a client address; '' for the tables' bots): batches take owners in turn (`takeFair`). */
  readonly owner: string;
}

interface Slot {
  worker: Worker | null;
  ready: boolean;
  /** The batches sent and not answered, by number. */
  readonly inFlight: Map<number, Pending[]>;
  /** When each batch in flight was sent (`performance.now()`), by number: the watchdog reads it. */
  readonly sentAt: Map<number, number>;
  /** Agents being loaded (`load`), by request number. */
  readonly loads: Map<number, (error?: string) => void>;
  /** Terminated by the watchdog (`watch`): takes no more batches. */
  timedOut: boolean;
}

function newSlot(ready: boolean): Slot {
  return { worker: null, ready, inFlight: new Map(), sentAt: new Map(), loads: new Map(), timedOut: false };
}

const IN_FLIGHT_PER_WORKER = 2;
/**
 * The largest batch of cheap requests (see runsInline): a batch of them costs the worker little,
 * so a smaller one lets the main thread answer one batch while the worker decides the next
 * (64 at once left one of them idle at a time: 0.6× the requests/s of batches of 16).
 */
const CHEAP_BATCH_MAX = 16;

/**
 * Agents the registry declares cheap (well under a millisecond a decision, no inference): their
 * table moves and their advice without an outlook (`outlook: false`) decide on the main thread
 * while the pool is idle — a lone request then skips the worker round trip (two structured clones
 * and a thread hop), half its latency. A request is lone when the pool is idle and it is the
 * first of this event-loop turn (the sockets read in one turn deliver every request that arrived
 * together). The others queue like the rest: the main
 * thread then has every connection's messages to read, validate and answer, and the decisions on
 * a worker use the second core (measured at 64 clients: 1.5–1.9× the requests/s of deciding all
 * inline; docs/design.md). Trained models, the searching `rollout` and every explained advice
 * (agents/equity/moveOutlook.ts, milliseconds a request) always go to the workers.
 */
function runsInline(spec: string): boolean {
  let inline = inlineBySpec.get(spec);
  if (inline === undefined) inlineBySpec.set(spec, (inline = decidesCheaply(spec)));
  return inline;
}
/** The answer per served spec, so that a request does not parse its agent's spec again. */
const inlineBySpec = new Map<string, boolean>();

/** The worker script next to this module, or the compiled one when this runs from source (tests). */
export function defaultWorkerUrl(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../dist/serve/inference/inferenceWorker.js', import.meta.url)
    : new URL('./inferenceWorker.js', import.meta.url);
}

export class InferencePool {
  private queue: Pending[] = [];
  /** Requests waiting per owner (none kept at 0). */
  private readonly queuedBy = new Map<string, number>();
  private readonly slots: Slot[] = [];
  private flushTimer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private nextBatch = 1;
  /** Cheap requests seen in this event-loop turn (`lone`). */
  private cheapThisTurn = 0;
  private closed = false;
  /**
   * `inline`: cheap requests decided at once on the main thread (`lone`); `timedOut`: answered
   * past the deadline (`watch`); `overloaded`: refused with the queue full.
   */
  readonly stats = { requests: 0, inline: 0, batches: 0, largestBatch: 0, timedOut: 0, overloaded: 0 };
  /** Workers terminated and not yet replaced (`lost`). */
  private replacing = 0;
  private watchdog: NodeJS.Timeout | null = null;
  /** The agents every worker loads when it starts (the served ones, then each `load`ed one). */
  private readonly preload: PlayedAgent[];

  constructor(
    private readonly options: PoolOptions,
    preload: readonly PlayedAgent[],
    private readonly log: Logger,
  ) {
    this.preload = [...preload];
  }

  /**
   * Loads another agent in every worker (a model published while serving); rejects with the reason
   * when one cannot, and workers started later load it too once it is in.
   */
  async load(agent: PlayedAgent): Promise<void> {
    if (this.options.workers === 0) await agentFor(agent);
    else await Promise.all(this.slots.filter((slot) => slot.worker && slot.ready).map((slot) => this.loadIn(slot, agent)));
    this.preload.push(agent);
  }

  private loadIn(slot: Slot, agent: PlayedAgent): Promise<void> {
    const id = this.nextBatch++;
    return new Promise((resolve, reject) => {
      slot.loads.set(id, (error) => (error === undefined ? resolve() : reject(new Error(error))));
      slot.worker?.postMessage({ load: id, agent } satisfies WorkerRequest);
    });
  }

  /** Starts the workers, each loading the served agents; rejects if one cannot. */
  async start(): Promise<void> {
    if (this.options.workers === 0) {
      this.slots.push(newSlot(true));
      await Promise.all(this.preload.map((agent) => agentFor(agent)));
      return;
    }
    await Promise.all(Array.from({ length: this.options.workers }, () => this.spawn()));
    const deadline = this.options.deadlineMs;
    if (deadline !== undefined) this.watchdog = setInterval(() => this.watch(deadline), Math.min(1000, Math.max(25, deadline / 4))).unref();
  }

  private spawn(): Promise<void> {
    const slot = newSlot(false);
    this.slots.push(slot);
    return new Promise((resolve, reject) => {
      const setup: WorkerSetup = { preload: [...this.preload] };
      const worker = new Worker(this.options.workerUrl ?? defaultWorkerUrl(), { workerData: setup });
      slot.worker = worker;
      worker.on('message', (reply: WorkerReply) => {
        if ('ready' in reply) {
          slot.ready = true;
          return resolve();
        }
        if ('fatal' in reply) return reject(new Error(reply.fatal));
        if ('loaded' in reply) {
          slot.loads.get(reply.loaded)?.(reply.error);
          slot.loads.delete(reply.loaded);
          return;
        }
        this.complete(slot, reply.batch, reply.results);
      });
      worker.on('error', (error) => {
        this.log.error({ event: 'worker_error', err: error.message }, 'an inference worker failed');
        reject(error);
      });
      worker.on('exit', (code) => {
        if (!slot.ready) reject(new Error(`an inference worker stopped while starting (code ${code})`));
        this.lost(slot, code);
      });
    });
  }

  /** A worker stopped: its batches fail with `internal`, and a new worker takes its place. */
  private lost(slot: Slot, code: number): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    this.failInFlight(slot, { ok: false, code: 'internal', message: 'the inference worker stopped' });
    for (const [, done] of slot.loads) done('the inference worker stopped');
    slot.loads.clear();
    if (this.closed || !slot.ready) return;
    this.log.error({ event: 'worker_exit', code }, 'an inference worker stopped; starting another');
    this.replacing++;
    this.spawn()
      .then(
        () => this.flush(),
        (error: Error) => this.log.error({ event: 'worker_error', err: error.message }, 'could not restart an inference worker'),
      )
      .finally(() => this.replacing--);
  }

  private failInFlight(slot: Slot, result: DecideResult): void {
    for (const [, batch] of slot.inFlight) for (const p of batch) p.resolve(result);
    slot.inFlight.clear();
    slot.sentAt.clear();
  }

  /**
   * The watchdog: a worker holding a batch past the deadline is stuck (a request whose work has
   * no end in sight): its batches are answered `timed_out` and it is terminated; `lost` starts
   * another in its place.
   */
  private watch(deadlineMs: number): void {
    const now = performance.now();
    for (const slot of this.slots) {
      const worker = slot.worker;
      if (!worker || slot.timedOut) continue;
      const oldest = Math.min(...slot.sentAt.values());
      if (now - oldest < deadlineMs) continue;
      slot.timedOut = true;
      const requests = [...slot.inFlight.values()].reduce((n, batch) => n + batch.length, 0);
      this.log.error(
        { event: 'worker_stuck', requests, ms: Math.round(now - oldest) },
        `an inference worker held a batch past the ${deadlineMs} ms deadline: terminating it and starting another`,
      );
      this.stats.timedOut += requests;
      this.failInFlight(slot, {
        ok: false,
        code: 'timed_out',
        message: `not decided within the server's deadline of ${deadlineMs} ms: stopped, nothing applied`,
      });
      void worker.terminate();
    }
  }

  /** What `/health` reads: workers stuck or being replaced, and requests waiting against the queue's limit. */
  pressure(): { stuckWorkers: number; queued: number; queueFull: boolean } {
    const stuck = this.slots.filter((slot) => slot.timedOut).length + this.replacing;
    const max = this.options.maxQueue;
    return { stuckWorkers: stuck, queued: this.queue.length, queueFull: max !== undefined && this.queue.length >= max };
  }

  /**
   * Decides a request of `owner` (a client address; '' for the tables' bots). Past --max-queue
   * waiting requests, or past an address's share of them (a tenth), it is answered `overloaded`.
   */
  decide(request: DecideRequest, owner = ''): Promise<DecideResult> {
    if (this.closed) return Promise.resolve({ ok: false, code: 'internal', message: 'the server is shutting down' });
    const refused = this.overloaded(owner);
    if (refused !== null) {
      this.stats.overloaded++;
      return Promise.resolve({ ok: false, code: 'overloaded', message: refused });
    }
    this.stats.requests++;
    if ((!request.explain || request.outlook === false) && runsInline(request.agent.spec) && this.lone()) {
      this.stats.inline++;
      return decideBatch([request]).then(([result]) => result);
    }
    return new Promise((resolve) => {
      this.queue.push({ request, resolve, owner });
      this.queuedBy.set(owner, (this.queuedBy.get(owner) ?? 0) + 1);
      if (this.queue.length >= this.options.batchMax) this.flush();
      else this.scheduleFlush();
    });
  }

  /** Why a request of `owner` is refused now (the queue, or the owner's share of it, full), or null. */
  private overloaded(owner: string): string | null {
    const max = this.options.maxQueue;
    if (max === undefined) return null;
    if (this.queue.length >= max) return `${max} inference requests are waiting, the most this server takes; try again shortly`;
    const share = addressShare(null, max);
    if (owner !== '' && (this.queuedBy.get(owner) ?? 0) >= share)
      return `${share} inference requests of your address are waiting, the most one address may have (a tenth of --max-queue); wait for answers`;
    return null;
  }

  /**
   * The next batch of up to `size` requests, owners in turn: the first waiting request of each
   * owner, then the second of each, and so on (in order of arrival within a turn), so that one
   * address with many requests waiting delays another's by one batch at most.
   */
  private takeFair(size: number): Pending[] {
    let batch: Pending[];
    if (this.queue.length <= size || this.queuedBy.size <= 1) batch = this.queue.splice(0, size);
    else {
      const turn = new Map<string, number>();
      const ranked = this.queue.map((pending, at) => {
        const rank = turn.get(pending.owner) ?? 0;
        turn.set(pending.owner, rank + 1);
        return { pending, at, rank };
      });
      ranked.sort((a, b) => a.rank - b.rank || a.at - b.at);
      const taken = new Set(ranked.slice(0, size).map((r) => r.at));
      batch = ranked.slice(0, size).map((r) => r.pending);
      this.queue = this.queue.filter((_, at) => !taken.has(at));
    }
    for (const { owner } of batch) {
      const left = (this.queuedBy.get(owner) ?? 1) - 1;
      if (left > 0) this.queuedBy.set(owner, left);
      else this.queuedBy.delete(owner);
    }
    return batch;
  }

  /** Counts a cheap request of this event-loop turn: whether it is the first, with nothing queued or in flight. */
  private lone(): boolean {
    if (this.cheapThisTurn++ === 0) setImmediate(() => (this.cheapThisTurn = 0));
    return this.cheapThisTurn === 1 && this.queue.length === 0 && this.slots.every((slot) => slot.inFlight.size === 0);
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    const run = () => {
      this.flushTimer = null;
      this.flush();
    };
    this.flushTimer = this.options.batchWindowMs > 0 ? setTimeout(run, this.options.batchWindowMs) : setImmediate(run);
  }

  /** Sends batches while a worker has room. */
  private flush(): void {
    while (this.queue.length > 0) {
      const slot = this.roomiest();
      if (!slot) return;
      const cheap = runsInline(this.queue[0].request.agent.spec);
      const batch = this.takeFair(cheap ? Math.min(this.options.batchMax, CHEAP_BATCH_MAX) : this.options.batchMax);
      this.dispatch(slot, batch);
    }
  }

  private roomiest(): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.slots) {
      if (!slot.ready || slot.timedOut || slot.inFlight.size >= (slot.worker ? IN_FLIGHT_PER_WORKER : 1)) continue;
      if (!best || slot.inFlight.size < best.inFlight.size) best = slot;
    }
    return best;
  }

  private dispatch(slot: Slot, batch: Pending[]): void {
    const id = this.nextBatch++;
    slot.inFlight.set(id, batch);
    slot.sentAt.set(id, performance.now());
    this.stats.batches++;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    const requests = batch.map((p) => p.request);
    if (slot.worker) {
      slot.worker.postMessage({ batch: id, requests } satisfies WorkerRequest);
      return;
    }
    setImmediate(() => {
      decideBatch(requests).then(
        (results) => this.complete(slot, id, results),
        (error: Error) =>
          this.complete(
            slot,
            id,
            requests.map(() => ({ ok: false, code: 'internal', message: error.message })),
          ),
      );
    });
  }

  private complete(slot: Slot, id: number, results: DecideResult[]): void {
    const batch = slot.inFlight.get(id);
    if (!batch) return;
    slot.inFlight.delete(id);
    slot.sentAt.delete(id);
    batch.forEach((p, i) => p.resolve(results[i] ?? { ok: false, code: 'internal', message: 'no result' }));
    this.flush();
  }

  /** Fails what is queued and stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    if (this.flushTimer) {
      clearTimeout(this.flushTimer as NodeJS.Timeout);
      clearImmediate(this.flushTimer as NodeJS.Immediate);
    }
    for (const p of this.queue.splice(0)) p.resolve({ ok: false, code: 'internal', message: 'the server is shutting down' });
    this.queuedBy.clear();
    await Promise.all(this.slots.flatMap((slot) => (slot.worker ? [slot.worker.terminate()] : [])));
  }
}
