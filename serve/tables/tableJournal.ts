/**
 * A table's write-behind journal to a shared store: every step is written (one write per burst
 * of steps, pipelined), and whatever shows a step (a message, a reply) waits in an outbox until
 * the step is written. A process that rebuilds the table after this one dies then starts from a
 * state no client has seen passed (a bot's step told with its write in flight would be played
 * again there, and the client shown an older state first). The game itself does not wait for the
 * writes; only what is told does. Unbound (no shared store), everything goes out at once.
 */
import type { Logger } from 'pino';
import type { Claim, TableSnapshot, TableStore, WriteOutcome, Written } from './tableStore.js';
import { UnwrittenLog } from './unwrittenLog.js';

/** What the journal reads of its table. */
export interface JournaledTable {
  readonly id: string;
  readonly closed: boolean;
  /** The steps played so far (their number is the counter). */
  readonly game: { readonly counter: number; readonly moves: readonly number[] };
  readonly deadlineAt: number | null;
  readonly expireAt: number;
  snapshot(): TableSnapshot;
}

export interface JournalHooks {
  readonly log: Logger;
  /** Where a write the store did not take is logged (one summary per window); absent: a line each. */
  readonly unwritten?: UnwrittenLog;
  /** The store refused a write: another process took the table over. */
  lost(): void;
}

/** Something to do once the writes before it are done: deliver a message, or reply to a request. */
interface AfterWrite {
  readonly run: () => void;
  /** The table was lost or closed first. */
  readonly dropped?: () => void;
}

export class TableJournal {
  private binding: { readonly store: TableStore; readonly claim: Claim } | null = null;
  /** Whether the store holds the table (up to `persisted`); else the next write writes it whole. */
  private stored = false;
  private persisted = 0;
  private outbox: AfterWrite[] = [];
  private tail: Promise<void> | null = null;
  private commitQueued = false;
  private ownUnwritten: UnwrittenLog | null = null;

  constructor(
    private readonly table: JournaledTable,
    private readonly hooks: JournalHooks,
  ) {}

  /** The server's summary of refused writes, else one of this table's own. */
  private unwrittenLog(): UnwrittenLog {
    return (this.ownUnwritten ??= this.hooks.unwritten ?? new UnwrittenLog(this.hooks.log));
  }

  /** This process's claim on the table in a shared store, or null. */
  get claim(): Claim | null {
    return this.binding?.claim ?? null;
  }

  get bound(): boolean {
    return this.binding !== null;
  }

  /** Whether the store holds every step played (false while it is unreachable, until written whole). */
  get written(): boolean {
    return this.binding === null || (this.stored && this.persisted === this.table.game.counter);
  }

  /**
   * Writes the table to a shared store from now on (`stored`: the store already holds it as it is,
   * e.g. just claimed); what is told then waits until what it shows is written.
   */
  bind(store: TableStore, claim: Claim, stored: boolean): void {
    this.binding = { store, claim };
    this.stored = stored;
    this.persisted = stored ? this.table.game.counter : 0;
    if (!stored) this.changed();
  }

  /** Runs `run` once everything played so far is written (at once unbound); `dropped` if the table is lost or closed first. */
  afterWrites(run: () => void, dropped?: () => void): void {
    if (!this.binding) return run();
    this.outbox.push({ run, dropped });
    this.changed();
  }

  /** Writes again (the store is back, or lost the table). */
  rewrite(): void {
    if (!this.written) this.changed();
  }

  /** The table's settings changed (a guest joined, the table started): the next write writes it whole. */
  resettle(): void {
    if (!this.binding) return;
    this.stored = false;
    this.changed();
  }

  /** A client touched the table: the store keeps it longer. */
  touch(): void {
    if (this.binding) this.binding.store.touch(this.binding.claim, this.table.expireAt);
  }

  /** Resolves once everything played so far is written and what waited for it told. */
  async settled(): Promise<void> {
    this.changed();
    await Promise.resolve();
    while (this.tail) await this.tail;
  }

  /** The table closed: what waits is dropped. */
  close(): void {
    for (const pending of this.outbox.splice(0)) pending.dropped?.();
  }

  /** Something was played: a write is queued for the end of this turn of the event loop. */
  changed(): void {
    if (!this.binding || this.commitQueued) return;
    this.commitQueued = true;
    queueMicrotask(() => this.commit());
  }

  /** Writes what was played since the last write, then lets out what waited for it (in order). */
  private commit(): void {
    this.commitQueued = false;
    if (!this.binding || this.table.closed) return;
    const pending = this.outbox.splice(0);
    const gate = this.write(this.binding.store, this.binding.claim);
    const settle = (outcome: WriteOutcome | null) => {
      const go = this.noted(outcome);
      for (const p of pending) (go ? p.run : p.dropped)?.();
    };
    if (this.tail === null && (gate === null || typeof gate === 'string')) return settle(gate);
    const tail = (this.tail ?? Promise.resolve()).then(() => gate).then(settle);
    this.tail = tail;
    void tail.then(() => {
      if (this.tail === tail) this.tail = null;
    });
  }

  private write(store: TableStore, claim: Claim): Written | null {
    const counter = this.table.game.counter;
    if (!this.stored) {
      this.stored = true;
      this.persisted = counter;
      return store.put(claim, this.table.snapshot());
    }
    if (this.persisted === counter) return null;
    const from = this.persisted;
    this.persisted = counter;
    return store.append(claim, from, this.table.game.moves.slice(from, counter), this.table.deadlineAt, this.table.expireAt);
  }

  /** Acts on a write's outcome; returns whether what waited for it may go out. */
  private noted(outcome: WriteOutcome | null): boolean {
    if (outcome === 'lost') {
      if (!this.table.closed) this.hooks.lost();
      return false;
    }
    if (outcome === 'missing' || outcome === 'unavailable') {
      if (this.stored) this.unwrittenLog().record(this.table.id, this.table.game.counter, outcome);
      this.stored = false;
      if (outcome === 'missing') this.changed();
    }
    return !this.table.closed;
  }
}
