/**
 * What one client address (`clientAddress`: a trusted proxy's forwarded address is the client's)
 * holds at once among the server's WebSockets: how many connections, and one message budget its
 * connections share (issue 39: a hundred connections each under its own rate were 98,000 messages a
 * second). An address is kept only while it has a connection (counted from its upgrade), so the
 * map holds at most as many addresses as connections are open and in upgrade.
 */

/** A token bucket: `rate` messages a second, bursts up to one second's worth. */
export class TokenBucket {
  private tokens: number;
  private last = Date.now();
  constructor(private readonly rate: number) {
    this.tokens = rate;
  }

  /** Takes one token; false when none is left. */
  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.rate, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

/** One connection of an address, counted: the address's shared message budget, and its release (once, on close). */
export interface AddressSeat {
  readonly messages: TokenBucket;
  readonly release: () => void;
}

export class AddressShares {
  private readonly held = new Map<string, { connections: number; readonly messages: TokenBucket }>();

  /** `messagesPerSecond`: the budget all connections of one address share. */
  constructor(private readonly messagesPerSecond: number) {}

  /** Connections `address` holds now. */
  connections(address: string): number {
    return this.held.get(address)?.connections ?? 0;
  }

  /** Counts one more connection of `address` (its bucket made with its first, dropped with its last). */
  add(address: string): AddressSeat {
    const entry = this.held.get(address) ?? { connections: 0, messages: new TokenBucket(this.messagesPerSecond) };
    entry.connections++;
    this.held.set(address, entry);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      if (--entry.connections === 0) this.held.delete(address);
    };
    return { messages: entry.messages, release };
  }
}
