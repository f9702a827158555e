/**
 * The "slow advice" warning, rate-limited (serve/warningWindow.ts): the first slow request of a
 * quiet spell is logged at once, the ones after it within a window are counted and summarised in
 * one line at the end of the window (count, slowest, per agent); under sustained load that is one
 * line a window instead of one per request (a load test wrote ~39,000 lines in 50 minutes).
 */
import type { Logger } from 'pino';
import { WarningWindow } from '../warningWindow.js';

export const SLOW_LOG_WINDOW_MS = 10_000;

export class SlowLog extends WarningWindow {
  private slowestMs = 0;
  private byAgent: Record<string, number> = {};

  constructor(
    private readonly log: Logger,
    windowMs = SLOW_LOG_WINDOW_MS,
  ) {
    super(windowMs);
  }

  /** A request of `agent` that took `ms`, over the slow threshold. */
  record(agent: string, ms: number): void {
    const rounded = Math.round(ms);
    this.occurred(
      () => this.log.warn({ event: 'slow_request', type: 'advise', agent, ms: rounded }, 'slow advice'),
      () => {
        this.slowestMs = Math.max(this.slowestMs, rounded);
        this.byAgent[agent] = (this.byAgent[agent] ?? 0) + 1;
      },
    );
  }

  protected summarise(): void {
    this.log.warn(
      {
        event: 'slow_requests',
        type: 'advise',
        count: this.count,
        slowestMs: this.slowestMs,
        agents: this.byAgent,
        windowMs: this.windowMs,
      },
      `${this.count} more slow advice requests in ${this.windowMs / 1000} s (slowest ${this.slowestMs} ms)`,
    );
    this.slowestMs = 0;
    this.byAgent = {};
  }
}
