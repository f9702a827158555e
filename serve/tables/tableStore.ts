/**
 * Where a server keeps its tables beyond its own memory: the `TableStore` interface, and the
 * in-memory store (the default: one process, today's behaviour; several in-process servers may
 * share one for tests). serve/tables/redisTableStore.ts is the Redis one, shared by any number of
 * processes.
 *
 * What is kept of a table is what rebuilds it exactly: its settings (seats, token, seed, rules,
 * deadlines) and the action ids played. The game is a function of its seed and those ids, and a
 * bot's choice a function of the table seed, the counter and its view (`mixSeed(seed, counter)`,
 * the agent reset before each decision), so a table rebuilt elsewhere goes on with the same bot
 * moves and the same deals.
 *
 * Ownership: each process holds a claim on the tables it runs, a fencing counter that every write
 * names. Taking a table over (`claim`) bumps the counter, so the old owner's next write is
 * refused (`lost`) and it is told at once where the store can (`onLost`).
 */
import { EventEmitter } from 'node:events';
import type { TableSettings } from './tableRecord.js';

export interface TableSnapshot {
  readonly settings: TableSettings;
  /** The action ids played, in order (the table's counter is their number). */
  readonly moves: readonly number[];
  /** When the client seat to move runs out of time (ms since 1970), or null. */
  readonly deadlineAt: number | null;
  /** When the table expires unless a client touches it (ms since 1970). */
  readonly expireAt: number;
}

/** This process's hold on one table: every write names it. */
export interface Claim {
  readonly id: string;
  readonly fence: number;
}

/**
 * How a write went: `ok`; `lost` (another process took the table over: let it go);
 * `unavailable` (the store cannot be reached: go on from memory, write it whole once it is back);
 * `missing` (the store no longer has the table, e.g. it restarted empty: write it whole).
 */
export type WriteOutcome = 'ok' | 'lost' | 'unavailable' | 'missing';

/** A write's outcome now (memory) or later (a store over the network). */
export type Written = WriteOutcome | Promise<WriteOutcome>;

export type ClaimResult =
  | { readonly outcome: 'ok'; readonly claim: Claim; readonly snapshot: TableSnapshot }
  /** Someone claimed it between the load and the claim. */
  | { readonly outcome: 'conflict' }
  | { readonly outcome: 'gone' };

/** What a load shows before the claim: enough to check a token or an invite code. */
export interface StoredTable {
  readonly settings: TableSettings;
  readonly fence: number;
}

/** The store cannot be reached: a table it holds cannot be loaded now (the client may try again). */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

export interface TableStore {
  /** For logs and welcome: "memory" or "redis". */
  readonly kind: 'memory' | 'redis';
  /** Whether other processes share the store (a resume may find a table this process does not hold). */
  readonly shared: boolean;
  /** Whether the store can be reached now (false during an outage: `/health` answers degraded). */
  readonly available: boolean;
  /** Writes a table whole (a new table: fence 1; or again after the store was unreachable or lost it). */
  put(claim: Claim, snapshot: TableSnapshot): Written;
  /** Adds the ids played from counter `from` on. */
  append(claim: Claim, from: number, moves: readonly number[], deadlineAt: number | null, expireAt: number): Written;
  /** A client touched the table: it expires later. */
  touch(claim: Claim, expireAt: number): void;
  /** Deletes a table this process holds (left, dropped, expired). */
  remove(claim: Claim): void;
  /** Lets a table go (drain): the next claim anywhere takes it without a conflict. */
  release(claim: Claim): Promise<void>;
  /** The table's settings and fence, or null; throws StoreUnavailableError (TableRecordError for a damaged record). */
  load(id: string): Promise<StoredTable | null>;
  /** Takes a table over if its fence is still `fence` (atomic); throws StoreUnavailableError. */
  claim(id: string, fence: number): Promise<ClaimResult>;
  /** Called when another process claims a table (where the store can tell). */
  onLost(listener: (id: string, fence: number) => void): void;
  /** Called when the store is reachable again after an outage. */
  onBack(listener: () => void): void;
  close(): Promise<void>;
}

interface MemoryEntry {
  snapshot: TableSnapshot & { moves: number[] };
  owner: MemoryTableStore;
  fence: number;
}

/** The tables of the in-memory stores that share it (one per process by default). */
export class MemoryTables {
  readonly entries = new Map<string, MemoryEntry>();
  readonly claims = new EventEmitter();
}

/**
 * The in-memory store. Alone (the default) it is private to its process: a resume finds only the
 * tables this process holds, as before there were stores. Shared by several in-process servers it
 * behaves as the Redis store does, for tests without Redis.
 */
export class MemoryTableStore implements TableStore {
  readonly kind = 'memory';
  readonly shared: boolean;
  readonly available = true;
  private readonly tables: MemoryTables;
  private readonly lostListeners: ((id: string, fence: number) => void)[] = [];
  private readonly onClaim = (id: string, fence: number, by: MemoryTableStore) => {
    if (by !== this) for (const listener of this.lostListeners) listener(id, fence);
  };

  constructor(shared?: MemoryTables) {
    this.shared = shared !== undefined;
    this.tables = shared ?? new MemoryTables();
    this.tables.claims.on('claim', this.onClaim);
  }

  private mine(claim: Claim): MemoryEntry | 'lost' | 'missing' {
    const entry = this.tables.entries.get(claim.id);
    if (!entry) return 'missing';
    return entry.owner === this && entry.fence === claim.fence ? entry : 'lost';
  }

  put(claim: Claim, snapshot: TableSnapshot): WriteOutcome {
    const entry = this.mine(claim);
    if (entry === 'lost') return 'lost';
    this.tables.entries.set(claim.id, { snapshot: { ...snapshot, moves: [...snapshot.moves] }, owner: this, fence: claim.fence });
    return 'ok';
  }

  append(claim: Claim, from: number, moves: readonly number[], deadlineAt: number | null, expireAt: number): WriteOutcome {
    const entry = this.mine(claim);
    if (typeof entry === 'string') return entry;
    if (entry.snapshot.moves.length !== from) return 'missing';
    entry.snapshot.moves.push(...moves);
    entry.snapshot = { ...entry.snapshot, deadlineAt, expireAt };
    return 'ok';
  }

  touch(claim: Claim, expireAt: number): void {
    const entry = this.mine(claim);
    if (typeof entry !== 'string') entry.snapshot = { ...entry.snapshot, expireAt };
  }

  remove(claim: Claim): void {
    if (typeof this.mine(claim) !== 'string') this.tables.entries.delete(claim.id);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  load(id: string): Promise<StoredTable | null> {
    const entry = this.live(id);
    return Promise.resolve(entry ? { settings: entry.snapshot.settings, fence: entry.fence } : null);
  }

  claim(id: string, fence: number): Promise<ClaimResult> {
    const entry = this.live(id);
    if (!entry) return Promise.resolve({ outcome: 'gone' });
    if (entry.fence !== fence) return Promise.resolve({ outcome: 'conflict' });
    entry.fence++;
    entry.owner = this;
    this.tables.claims.emit('claim', id, entry.fence, this);
    const snapshot = { ...entry.snapshot, moves: [...entry.snapshot.moves] };
    return Promise.resolve({ outcome: 'ok', claim: { id, fence: entry.fence }, snapshot });
  }

  /** The entry unless it expired (a shared store's tables outlive the process that created them). */
  private live(id: string): MemoryEntry | undefined {
    const entry = this.tables.entries.get(id);
    if (entry && entry.snapshot.expireAt <= Date.now()) {
      this.tables.entries.delete(id);
      return undefined;
    }
    return entry;
  }

  onLost(listener: (id: string, fence: number) => void): void {
    this.lostListeners.push(listener);
  }

  onBack(): void {}

  close(): Promise<void> {
    this.tables.claims.off('claim', this.onClaim);
    return Promise.resolve();
  }
}
