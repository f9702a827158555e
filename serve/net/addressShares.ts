/**
 * What one client address (`clientAddress`: a trusted proxy's forwarded address is the client's)
 * holds at once among the server's WebSockets: how many connections, and one message budget its
 * connections share (issue 39: a hundred connections each under its own rate were 98,000 messages a
 * second). An address is held while it has a connection (counted from its upgrade); once its last
 * one closes, its budget rests until it is full again (at most a second), so that closing every
 * connection and coming back does not buy a fresh burst; at most RESTING_ADDRESSES of them (an
 * LRU: past it the one left longest ago goes). So the two hold at most as many addresses as
 * connections are open and in upgrade, plus RESTING_ADDRESSES.
 */
import { LRUCache } from 'lru-cache';

/** Addresses whose last connection closed, with their budget still filling, kept at most (the oldest go first). */
export const RESTING_ADDRESSES = 4096;

/** A token bucket: `rate` messages a second, bursts up to one second's worth (so a bucket left a second is full). */
export class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    private readonly rate: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = rate;
    this.last = now();
  }

  /** Takes one token; false when none is left. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }

  /** When, by `now()`'s clock, it is full again, as a new bucket would be. */
  fullAt(): number {
    this.refill();
    return this.last + ((this.rate - this.tokens) * 1000) / this.rate;
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.rate, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
  }
}

/** One connection of an address, counted: the address's shared message budget, and its release (once, on close). */
export interface AddressSeat {
  readonly messages: TokenBucket;
  readonly release: () => void;
}

export class AddressShares {
  private readonly held = new Map<string, { connections: number; readonly messages: TokenBucket }>();
  /** Budgets of addresses with no connection, each until it is full again (one found full by then is not used). */
  private readonly resting = new LRUCache<string, { readonly messages: TokenBucket; readonly until: number }>({ max: RESTING_ADDRESSES });

  /** `messagesPerSecond`: the budget all connections of one address share. */
  constructor(
    private readonly messagesPerSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Connections `address` holds now. */
  connections(address: string): number {
    return this.held.get(address)?.connections ?? 0;
  }

  /** Counts one more connection of `address` (its budget the one it left resting, if not full yet, else a new one). */
  add(address: string): AddressSeat {
    const entry = this.held.get(address) ?? { connections: 0, messages: this.budgetOf(address) };
    entry.connections++;
    this.held.set(address, entry);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      if (--entry.connections > 0) return;
      this.held.delete(address);
      this.rest(address, entry.messages);
    };
    return { messages: entry.messages, release };
  }

  private budgetOf(address: string): TokenBucket {
    const left = this.resting.get(address);
    this.resting.delete(address);
    return left !== undefined && left.until > this.now() ? left.messages : new TokenBucket(this.messagesPerSecond, this.now);
  }

  /** Keeps a budget that is not full yet (past the cap, the one left longest ago goes). */
  private rest(address: string, messages: TokenBucket): void {
    const until = messages.fullAt();
    if (until > this.now()) this.resting.set(address, { messages, until });
  }
}
