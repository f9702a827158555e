/**
 * The "slow advice" warning, rate-limited: the first slow request of a quiet spell is logged
 * at once, the ones after it within a window are counted and summarised in one line at the end
 * of the window (count, slowest, per agent); under sustained load that is one line a window
 * instead of one per request (a load test wrote ~39,000 lines in 50 minutes).
 */
import type { Logger } from 'pino';

export const SLOW_LOG_WINDOW_MS = 10_000;

export class SlowLog {
  private count = 0;
  private slowestMs = 0;
  private byAgent: Record<string, number> = {};
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: Logger,
    private readonly windowMs = SLOW_LOG_WINDOW_MS,
  ) {}

  /** A request of `agent` that took `ms`, over the slow threshold. */
  record(agent: string, ms: number): void {
    const rounded = Math.round(ms);
    if (this.timer === null) {
      this.log.warn({ event: 'slow_request', type: 'advise', agent, ms: rounded }, 'slow advice');
      this.startWindow();
      return;
    }
    this.count++;
    this.slowestMs = Math.max(this.slowestMs, rounded);
    this.byAgent[agent] = (this.byAgent[agent] ?? 0) + 1;
  }

  /** Writes the summary of the window, if any; a window with slow requests opens the next one. */
  flush(): void {
    this.stop();
    if (this.count === 0) return;
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
    this.count = 0;
    this.slowestMs = 0;
    this.byAgent = {};
    this.startWindow();
  }

  /** Shutdown: the last summary, and no timer left. */
  close(): void {
    this.flush();
    this.stop();
  }

  private startWindow(): void {
    this.timer = setTimeout(() => this.flush(), this.windowMs);
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
