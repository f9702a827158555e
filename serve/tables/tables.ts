/**
 * Every table this process runs, by id: creation with a fresh id and token, lookup by token,
 * limits, idle expiry; and, with a shared table store, taking over a table another process ran
 * (load, check the token, claim, replay), letting go of one another process claimed, and handing
 * every table over when the process stops (drain).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { ProtocolError } from '../protocol/errors.js';
import { Table, type TableServices, inviteOpens, movingError, tokenRole } from './table.js';
import { TableRecordError, type TableSettings } from './tableRecord.js';
import { UnwrittenLog } from './unwrittenLog.js';
import { MemoryTableStore, StoreUnavailableError, type TableStore } from './tableStore.js';

export class TableRegistry {
  private readonly tables = new Map<string, Table>();
  /** Claims in progress, so that two resumes of one table on this process share one. */
  private readonly claiming = new Map<string, Promise<Table>>();
  private readonly services: TableServices;
  private readonly unwritten: UnwrittenLog;

  constructor(
    private readonly maxTables: number,
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

  private checkRoom(): void {
    if (this.tables.size + this.claiming.size >= this.maxTables)
      throw new ProtocolError(
        'table_full',
        `the server holds its maximum of ${this.maxTables} ${this.maxTables === 1 ? 'table' : 'tables'}; try again later`,
      );
  }

  /** A new table (not started); `seed` defaults to a random one. */
  create(settings: Omit<TableSettings, 'id' | 'token' | 'seed'> & { seed?: number }, inviteMs: number): Table {
    this.checkRoom();
    let id: string;
    do id = `t-${randomBytes(6).toString('base64url')}`;
    while (this.tables.has(id) || (this.ownsId !== null && !this.ownsId(id)));
    const guests = settings.seats.some((s) => s.player === 'guest');
    // The code names the table, so that nginx routes a joiner (`?table=ID`) to the process that holds it.
    const invite = { code: `${id}.${randomBytes(6).toString('base64url')}`, expiresAt: this.services.now() + inviteMs };
    const table = new Table(
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
    this.tables.set(id, table);
    return table;
  }

  /**
   * The table with this id and token, else unknown_table (whether the id or the token is wrong is
   * not told). With a shared store, a table this process does not hold is taken over from it.
   */
  claim(id: string, token: string): Table | Promise<Table> {
    return this.open(id, (settings) => tokenRole(settings, token) !== null, () => unknownTable(id));
  }

  /**
   * The table an invite code (`TABLE.SECRET`) is for, else unknown_table; with a shared store, a
   * table this process does not hold is taken over from it (a joiner routed here by its id).
   */
  invited(code: string): Table | Promise<Table> {
    const id = code.slice(0, Math.max(0, code.lastIndexOf('.')));
    const refused = () => new ProtocolError('unknown_table', `no table takes the invite ${JSON.stringify(code.slice(0, 64))}`, 'code');
    if (id === '') throw refused();
    return this.open(id, (settings) => inviteOpens(settings, code), refused);
  }

  /** The table `admits` lets in (here, or taken over from a shared store), else `refused()`. */
  private open(id: string, admits: (settings: TableSettings) => boolean, refused: () => ProtocolError): Table | Promise<Table> {
    const table = this.tables.get(id);
    if (table) {
      if (!admits(table.settings)) throw refused();
      return table;
    }
    if (!this.store.shared) throw refused();
    let claiming = this.claiming.get(id);
    if (!claiming) {
      this.checkRoom();
      claiming = this.takeOver(id, admits, refused).finally(() => this.claiming.delete(id));
      this.claiming.set(id, claiming);
    }
    return claiming;
  }

  private async takeOver(id: string, admits: (settings: TableSettings) => boolean, refused: () => ProtocolError): Promise<Table> {
    try {
      const stored = await this.store.load(id);
      if (!stored || !admits(stored.settings)) throw refused();
      const result = await this.store.claim(id, stored.fence);
      if (result.outcome === 'gone') throw refused();
      if (result.outcome === 'conflict') throw movingError(id);
      const table = Table.restore(result.snapshot, this.services);
      table.bind(this.store, result.claim, true);
      this.tables.set(id, table);
      this.services.log.info(
        { event: 'table_claimed', table: id, fence: result.claim.fence, counter: table.game.counter },
        'took a table over from the store',
      );
      return table;
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw new ProtocolError('store_unavailable', `${error.message}; resume again shortly`);
      if (error instanceof TableRecordError) throw new ProtocolError('unknown_table', error.message, 'table');
      throw error;
    }
  }

  /** Another process owns the table now: it is closed here, and its connection told. */
  private lose(table: Table, why: string): void {
    if (this.tables.get(table.id) !== table) return;
    this.tables.delete(table.id);
    const owners = table.owners();
    table.close();
    this.services.log.info({ event: 'table_lost', table: table.id, counter: table.game.counter }, `table let go: ${why}`);
    for (const owner of owners) owner.tableClosed(table, 'resumed_elsewhere');
  }

  remove(table: Table): void {
    table.close();
    const claim = table.claim;
    if (claim && this.tables.get(table.id) === table) this.store.remove(claim);
    this.tables.delete(table.id);
  }

  /** Closes the tables no client touched for `idleMs`; returns them. */
  expire(now: number, idleMs: number): Table[] {
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
