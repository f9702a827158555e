/**
 * Every table this process runs, by id: creation with a fresh id and token, lookup by token,
 * limits, idle expiry; and, with a shared table store, taking over a table another process ran
 * (load, check the token, claim, replay), letting go of one another process claimed, and handing
 * every table over when the process stops (drain).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { ProtocolError } from '../protocol/errors.js';
import { ServerTable, type TableServices } from './table.js';
import { movingError } from './tableErrors.js';
import { inviteOpens, tokenRole } from './tableGuests.js';
import { TableRecordError, type TableSettings } from './tableRecord.js';
import { UnwrittenLog } from './unwrittenLog.js';
import { MemoryTableStore, StoreUnavailableError, type StoredTable, type TableStore } from './tableStore.js';

/** How many tables a process holds, and when an abandoned one gives its place up. */
export interface TableLimits {
  /** Tables on the whole process (claims in progress included). */
  readonly maxTables: number;
  /** Tables held for one client address (`Table.address`), abandoned and finished ones included. */
  readonly maxPerAddress: number;
  /**
   * A table whose client left it (no owner) and touched it no later than this long ago is closed
   * to make room when a limit is reached, rather than keep its place until it expires.
   */
  readonly abandonedGraceMs: number;
}

export class TableRegistry {
  private readonly tables = new Map<string, ServerTable>();
  /** Loads in progress, so that the resumes of one table in flight on this process share one (each then checks its own token). */
  private readonly loading = new Map<string, Promise<StoredTable | null>>();
  /** Claims in progress, so that the resumes of one table with the right token share one. */
  private readonly claiming = new Map<string, Promise<ServerTable>>();
  private readonly services: TableServices;
  private readonly unwritten: UnwrittenLog;

  constructor(
    private readonly limits: TableLimits,
    services: Omit<TableServices, 'lost'>,
    readonly store: TableStore = new MemoryTableStore(),
    /** Behind nginx (serve/net/ring.ts): only ids its consistent hash routes to this process. */
    private readonly ownsId: ((id: string) => boolean) | null = null,
  ) {
    this.unwritten = services.unwritten ?? new UnwrittenLog(services.log);
    this.services = {
      ...services,
      unwritten: this.unwritten,
      lost: (table) => this.lose(table, 'a write found the table claimed elsewhere'),
    };
    store.onLost((id, fence) => {
      const table = this.tables.get(id);
      const claim = table?.claim;
      if (table && claim && claim.fence < fence) this.lose(table, 'another process claimed the table');
    });
    store.onBack(() => {
      for (const table of this.tables.values()) table.rewrite();
    });
  }

  /** Every table held here, finished or without a client included. */
  get size(): number {
    return this.tables.size;
  }

  /** The tables in play: a game not over, a client connected to it (not finished, not abandoned). */
  get live(): number {
    let live = 0;
    for (const table of this.tables.values()) if (!table.closed && !table.game.over && table.owners().length > 0) live++;
    return live;
  }

  /**
   * Room for one more table for `address`: with a limit reached, the abandoned tables past their
   * grace (of the address, or of anyone for the whole process) are closed first; table_full if
   * there is still none.
   */
  private checkRoom(address: string | null): void {
    const { maxTables, maxPerAddress } = this.limits;
    const full = () => this.tables.size + this.claiming.size >= maxTables;
    if (full()) this.closeAbandoned(null);
    if (full())
      throw new ProtocolError(
        'table_full',
        `the server holds its maximum of ${maxTables} ${maxTables === 1 ? 'table' : 'tables'}; try again later`,
      );
    if (address === null) return;
    const held = () => this.heldFor(address);
    if (held() >= maxPerAddress) this.closeAbandoned(address);
    if (held() >= maxPerAddress)
      throw new ProtocolError(
        'table_full',
        `your address holds ${maxPerAddress} tables, the most one address may (--max-tables-per-address); leave some, or wait until abandoned ones expire`,
      );
  }

  /** Tables held for a client address. */
  heldFor(address: string): number {
    let held = 0;
    for (const table of this.tables.values()) if (table.address === address) held++;
    return held;
  }

  /** Closes the tables no client holds that were last touched more than the grace ago (of one address, or any). */
  private closeAbandoned(address: string | null): void {
    const before = this.services.now() - this.limits.abandonedGraceMs;
    for (const table of [...this.tables.values()]) {
      if (table.owners().length > 0 || table.lastActivity > before || (address !== null && table.address !== address)) continue;
      this.remove(table);
      this.services.log.info({ event: 'table_expired', table: table.id, reason: 'room' }, 'abandoned table closed to make room');
    }
  }

  /** A new table (not started) held for `address`; `seed` defaults to a random one. */
  create(
    settings: Omit<TableSettings, 'id' | 'token' | 'seed'> & { seed?: number },
    address: string | null,
    inviteMs: number,
  ): ServerTable {
    this.checkRoom(address);
    let id: string;
    do id = `t-${randomBytes(6).toString('base64url')}`;
    while (this.tables.has(id) || (this.ownsId !== null && !this.ownsId(id)));
    const guests = settings.seats.some((s) => s.player === 'guest');
    // The code names the table, so that nginx routes a joiner (`?table=ID`) to the process that holds it.
    const invite = { code: `${id}.${randomBytes(6).toString('base64url')}`, expiresAt: this.services.now() + inviteMs };
    const table = new ServerTable(
      {
        ...settings,
        id,
        token: randomBytes(18).toString('base64url'),
        seed: settings.seed ?? randomInt(2 ** 31 - 1),
        ...(guests ? { invite, guests: [], lobby: true } : {}),
      },
      this.services,
    );
    if (this.store.shared) table.bind(this.store, { id, fence: 1 }, false);
    table.address = address;
    this.tables.set(id, table);
    return table;
  }

  /**
   * The table with this id and token, else unknown_table (whether the id or the token is wrong is
   * not told). With a shared store, a table this process does not hold is taken over from it, held
   * for `address` from then on.
   */
  claim(id: string, token: string, address: string | null = null): ServerTable | Promise<ServerTable> {
    return this.open(
      id,
      (settings) => tokenRole(settings, token) !== null,
      () => unknownTable(id),
      address,
    );
  }

  /**
   * The table an invite code (`TABLE.SECRET`) is for, else unknown_table; with a shared store, a
   * table this process does not hold is taken over from it (a joiner routed here by its id).
   */
  invited(code: string, address: string | null = null): ServerTable | Promise<ServerTable> {
    const id = code.slice(0, Math.max(0, code.lastIndexOf('.')));
    const refused = () => new ProtocolError('unknown_table', `no table takes the invite ${JSON.stringify(code.slice(0, 64))}`, 'code');
    if (id === '') throw refused();
    return this.open(id, (settings) => inviteOpens(settings, code), refused, address);
  }

  /** The table `admits` lets in (here, or taken over from a shared store), else `refused()`. */
  private open(
    id: string,
    admits: (settings: TableSettings) => boolean,
    refused: () => ProtocolError,
    address: string | null,
  ): ServerTable | Promise<ServerTable> {
    const table = this.tables.get(id);
    if (table) {
      if (!admits(table.settings)) throw refused();
      return table;
    }
    if (!this.store.shared) throw refused();
    return this.takeOver(id, admits, refused, address).catch((error: unknown) => {
      if (error instanceof StoreUnavailableError) throw new ProtocolError('store_unavailable', `${error.message}; resume again shortly`);
      if (error instanceof TableRecordError) throw new ProtocolError('unknown_table', error.message, 'table');
      throw error;
    });
  }

  /**
   * Takes a table over for one caller: the load is shared by the resumes in flight for the id, then
   * each caller's own token is checked against what was loaded, and only then is the claim made —
   * one claim, shared by every caller whose token is right. A wrong token neither gets the table
   * nor makes it move, whatever else is in flight.
   */
  private async takeOver(
    id: string,
    admits: (settings: TableSettings) => boolean,
    refused: () => ProtocolError,
    address: string | null,
  ): Promise<ServerTable> {
    const stored = await this.sharedLoad(id);
    if (!stored || !admits(stored.settings)) throw refused();
    const held = this.tables.get(id);
    if (held) return held;
    let claiming = this.claiming.get(id);
    if (!claiming) {
      this.checkRoom(address);
      claiming = this.claimStored(id, stored.fence, address).finally(() => this.claiming.delete(id));
      this.claiming.set(id, claiming);
    }
    return claiming;
  }

  private sharedLoad(id: string): Promise<StoredTable | null> {
    let loading = this.loading.get(id);
    if (!loading) {
      loading = this.store.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  private async claimStored(id: string, fence: number, address: string | null): Promise<ServerTable> {
    const result = await this.store.claim(id, fence);
    if (result.outcome === 'gone') throw unknownTable(id);
    if (result.outcome === 'conflict') throw movingError(id);
    const table = ServerTable.restore(result.snapshot, this.services);
    table.bind(this.store, result.claim, true);
    table.address = address;
    this.tables.set(id, table);
    this.services.log.info(
      { event: 'table_claimed', table: id, fence: result.claim.fence, counter: table.game.counter },
      'took a table over from the store',
    );
    return table;
  }

  /** Another process owns the table now: it is closed here, and its connection told. */
  private lose(table: ServerTable, why: string): void {
    if (this.tables.get(table.id) !== table) return;
    this.tables.delete(table.id);
    const owners = table.owners();
    table.close();
    this.services.log.info({ event: 'table_lost', table: table.id, counter: table.game.counter }, `table let go: ${why}`);
    for (const owner of owners) owner.tableClosed(table, 'resumed_elsewhere');
  }

  remove(table: ServerTable): void {
    table.close();
    const claim = table.claim;
    if (claim && this.tables.get(table.id) === table) this.store.remove(claim);
    this.tables.delete(table.id);
  }

  /** Closes the tables no client touched for `idleMs`; returns them. */
  expire(now: number, idleMs: number): ServerTable[] {
    const expired = [...this.tables.values()].filter((t) => now - t.lastActivity >= idleMs);
    for (const table of expired) {
      const owners = table.owners();
      this.remove(table);
      for (const owner of owners) owner.tableClosed(table, 'idle');
    }
    return expired;
  }

  /**
   * Hands every table over (drain): each stops playing, what it played is written and told, and
   * its claim is released, so that a resume on any other process takes it at once. Resolves with
   * how many tables could not be handed over (the store unreachable: a step unwritten, or the claim
   * held until it expires).
   */
  async drain(): Promise<number> {
    let kept = 0;
    await Promise.all(
      [...this.tables.values()].map(async (table) => {
        await table.halt();
        const claim = table.claim;
        if (claim && table.written && this.store.available) await this.store.release(claim);
        if (claim && !(table.written && this.store.available)) kept++;
      }),
    );
    return kept;
  }

  /** Closes every table here (shutdown); a shared store keeps them for another process. */
  closeAll(): void {
    for (const table of this.tables.values()) table.close();
    this.tables.clear();
    this.unwritten.close();
  }
}

function unknownTable(id: string): ProtocolError {
  return new ProtocolError('unknown_table', `no table ${JSON.stringify(id.slice(0, 64))} with that token (it may have expired)`, 'table');
}
