/**
 * The "table unwritten" warning, rate-limited as the slow-advice line is (serve/warningWindow.ts):
 * while the table store is unreachable every step of every table fails to be written, and logging
 * each one wrote 845 lines in 3 s for 20 tables. The first refused write of a quiet spell is
 * logged at once; the ones after it within a window are summarised in one line at the end of the
 * window (writes, distinct tables, per outcome).
 */
import type { Logger } from 'pino';
import type { WriteOutcome } from './tableStore.js';
import { WarningWindow } from '../warningWindow.js';

export const UNWRITTEN_LOG_WINDOW_MS = 10_000;

const MESSAGE = 'the table store did not take a write: the table goes on from memory and is written whole once the store is back';

export class UnwrittenLog extends WarningWindow {
  private readonly tables = new Set<string>();
  private byOutcome: Record<string, number> = {};

  constructor(
    private readonly log: Logger,
    windowMs = UNWRITTEN_LOG_WINDOW_MS,
  ) {
    super(windowMs);
  }

  /** The store did not take a write of `table` at `counter`. */
  record(table: string, counter: number, outcome: Extract<WriteOutcome, 'missing' | 'unavailable'>): void {
    this.occurred(
      () => this.log.warn({ event: 'table_unwritten', table, counter, outcome }, MESSAGE),
      () => {
        this.tables.add(table);
        this.byOutcome[outcome] = (this.byOutcome[outcome] ?? 0) + 1;
      },
    );
  }

  protected summarise(): void {
    this.log.warn(
      { event: 'tables_unwritten', count: this.count, tables: this.tables.size, outcomes: this.byOutcome, windowMs: this.windowMs },
      `${this.count} more table writes the store did not take in ${this.windowMs / 1000} s (${this.tables.size} tables): they go on from memory`,
    );
    this.tables.clear();
    this.byOutcome = {};
  }
}
