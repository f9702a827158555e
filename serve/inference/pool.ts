/**
 * Inference for concurrent requests, batched and off the event loop. Requests queue here; a
 * batch (up to `batchMax` requests) leaves as soon as a worker thread has room, so that under
 * load the batches grow and the cost of each message to a worker is shared (throughput grows
 * with load), while a lone request waits for at most `batchWindowMs` (0: the rest of the
 * current event-loop turn). Each worker keeps at most two batches in flight. With `workers: 0`
 * the batches run on the main thread (for tests and tiny deployments).
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { type DecideRequest, type DecideResult, type PlayedAgent, agentFor, decideBatch } from './decide.js';
import { decidesCheaply } from '../../agents/registry.js';
import { OUTLOOK_DEFAULTS } from '../../agents/equity/moveOutlook.js';
import { worldsUnderLoad } from './adviceBudget.js';

export interface PoolOptions {
  /** Worker threads; 0 runs inference on the main thread. */
  readonly workers: number;
  readonly batchMax: number;
  readonly batchWindowMs: number;
  /** The compiled worker script; by default dist/serve/inference/inferenceWorker.js. */
  readonly workerUrl?: URL;
  /** The fewest worlds advice is played out in while requests queue (`worldsUnderLoad`); the default budget or more: never fewer. */
  readonly adviceMinWorlds?: number;
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
}

interface Slot {
  worker: Worker | null;
  ready: boolean;
  readonly inFlight: Map<number, Pending[]>;
  /** Agents being loaded (`load`), by request number. */
  readonly loads: Map<number, (error?: string) => void>;
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
  private readonly queue: Pending[] = [];
  private readonly slots: Slot[] = [];
  private flushTimer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private nextBatch = 1;
  /** Cheap requests seen in this event-loop turn (`lone`). */
  private cheapThisTurn = 0;
  private closed = false;
  /** `inline`: cheap requests decided at once on the main thread (`lone`); `reducedBudget`: advice requests played out in fewer worlds than the default (`adviceWorlds`). */
  readonly stats = { requests: 0, inline: 0, batches: 0, largestBatch: 0, reducedBudget: 0 };
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
      this.slots.push({ worker: null, ready: true, inFlight: new Map(), loads: new Map() });
      await Promise.all(this.preload.map((agent) => agentFor(agent)));
      return;
    }
    await Promise.all(Array.from({ length: this.options.workers }, () => this.spawn()));
  }

  private spawn(): Promise<void> {
    const slot: Slot = { worker: null, ready: false, inFlight: new Map(), loads: new Map() };
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
    for (const [, batch] of slot.inFlight)
      for (const p of batch) p.resolve({ ok: false, code: 'internal', message: 'the inference worker stopped' });
    slot.inFlight.clear();
    for (const [, done] of slot.loads) done('the inference worker stopped');
    slot.loads.clear();
    if (this.closed || !slot.ready) return;
    this.log.error({ event: 'worker_exit', code }, 'an inference worker stopped; starting another');
    this.spawn().then(
      () => this.flush(),
      (error: Error) => this.log.error({ event: 'worker_error', err: error.message }, 'could not restart an inference worker'),
    );
  }

  decide(request: DecideRequest): Promise<DecideResult> {
    if (this.closed) return Promise.resolve({ ok: false, code: 'internal', message: 'the server is shutting down' });
    this.stats.requests++;
    if ((!request.explain || request.outlook === false) && runsInline(request.agent.spec) && this.lone()) {
      this.stats.inline++;
      return decideBatch([request]).then(([result]) => result);
    }
    return new Promise((resolve) => {
      this.queue.push({ request, resolve });
      if (this.queue.length >= this.options.batchMax) this.flush();
      else this.scheduleFlush();
    });
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
      const worlds = this.adviceWorlds();
      const cheap = runsInline(this.queue[0].request.agent.spec);
      const batch = this.queue.splice(0, cheap ? Math.min(this.options.batchMax, CHEAP_BATCH_MAX) : this.options.batchMax);
      this.dispatch(slot, batch, worlds);
    }
  }

  /** The advice budget now (`worldsUnderLoad`), or undefined for the whole one; the backlog counts what is queued and in flight. */
  private adviceWorlds(): number | undefined {
    const min = this.options.adviceMinWorlds;
    if (min === undefined) return undefined;
    let backlog = this.queue.length;
    for (const slot of this.slots) for (const batch of slot.inFlight.values()) backlog += batch.length;
    const worlds = worldsUnderLoad(backlog / Math.max(1, this.slots.length), OUTLOOK_DEFAULTS.worlds, min);
    return worlds < OUTLOOK_DEFAULTS.worlds ? worlds : undefined;
  }

  private roomiest(): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.slots) {
      if (!slot.ready || slot.inFlight.size >= (slot.worker ? IN_FLIGHT_PER_WORKER : 1)) continue;
      if (!best || slot.inFlight.size < best.inFlight.size) best = slot;
    }
    return best;
  }

  private dispatch(slot: Slot, batch: Pending[], worlds: number | undefined): void {
    const id = this.nextBatch++;
    slot.inFlight.set(id, batch);
    this.stats.batches++;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    const requests = batch.map((p) => (worlds !== undefined && p.request.explain ? { ...p.request, worlds } : p.request));
    if (worlds !== undefined) this.stats.reducedBudget += requests.filter((r) => r.worlds !== undefined).length;
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
    batch.forEach((p, i) => p.resolve(results[i] ?? { ok: false, code: 'internal', message: 'no result' }));
    this.flush();
  }

  /** Fails what is queued and stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.flushTimer) {
      clearTimeout(this.flushTimer as NodeJS.Timeout);
      clearImmediate(this.flushTimer as NodeJS.Immediate);
    }
    for (const p of this.queue.splice(0)) p.resolve({ ok: false, code: 'internal', message: 'the server is shutting down' });
    await Promise.all(this.slots.flatMap((slot) => (slot.worker ? [slot.worker.terminate()] : [])));
  }
}
