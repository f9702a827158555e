/** Every table of the server by id: creation with a fresh id and token, lookup by token, limits, idle expiry. */
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { ProtocolError } from './errors.js';
import { Table, type TableServices, type TableSettings } from './table.js';

export class TableRegistry {
  private readonly tables = new Map<string, Table>();

  constructor(
    private readonly maxTables: number,
    private readonly services: TableServices,
    /** Behind nginx (serve/ring.ts): only ids its consistent hash routes to this process. */
    private readonly ownsId: ((id: string) => boolean) | null = null,
  ) {}

  get size(): number {
    return this.tables.size;
  }

  /** A new table (not started); `seed` defaults to a random one. */
  create(settings: Omit<TableSettings, 'id' | 'token' | 'seed'> & { seed?: number }): Table {
    if (this.tables.size >= this.maxTables)
      throw new ProtocolError('table_full', `the server holds its maximum of ${this.maxTables} tables; try again later`);
    let id: string;
    do id = `t-${randomBytes(6).toString('base64url')}`;
    while (this.tables.has(id) || (this.ownsId !== null && !this.ownsId(id)));
    const table = new Table(
      { ...settings, id, token: randomBytes(18).toString('base64url'), seed: settings.seed ?? randomInt(2 ** 31 - 1) },
      this.services,
    );
    this.tables.set(id, table);
    return table;
  }

  /** The table with this id and token, else unknown_table (whether the id or the token is wrong is not told). */
  claim(id: string, token: string): Table {
    const table = this.tables.get(id);
    const expected = Buffer.from(table?.settings.token ?? '');
    const given = Buffer.from(token);
    if (!table || expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new ProtocolError('unknown_table', `no table ${JSON.stringify(id)} with that token (it may have expired)`, 'table');
    }
    return table;
  }

  remove(table: Table): void {
    table.close();
    this.tables.delete(table.id);
  }

  /** Closes the tables no client touched for `idleMs`; returns them. */
  expire(now: number, idleMs: number): Table[] {
    const expired = [...this.tables.values()].filter((t) => now - t.lastActivity >= idleMs);
    for (const table of expired) {
      const owner = table.owner;
      this.remove(table);
      owner?.tableClosed(table, 'idle');
    }
    return expired;
  }

  /** Closes every table (shutdown). */
  closeAll(): void {
    for (const table of this.tables.values()) this.remove(table);
  }
}
