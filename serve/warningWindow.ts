/**
 * A warning that repeats in bursts, rate-limited: the first occurrence of a quiet spell is logged
 * at once, the ones after it within a window are counted and summarised in one line at the end of
 * the window; a window with occurrences opens the next one. Under sustained trouble that is one
 * line a window instead of one per occurrence. serve/inference/slowLog.ts and serve/tables/unwrittenLog.ts say
 * what is counted and how the summary reads.
 */
export abstract class WarningWindow {
  protected count = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(protected readonly windowMs: number) {}

  /** One occurrence: `first` logs it when the window is quiet, else `tally` counts it. */
  protected occurred(first: () => void, tally: () => void): void {
    if (this.timer === null) {
      first();
      this.startWindow();
      return;
    }
    this.count++;
    tally();
  }

  /** The summary line of the window (called with count > 0), then the tallies cleared. */
  protected abstract summarise(): void;

  /** Writes the summary of the window, if any; a window with occurrences opens the next one. */
  flush(): void {
    this.stop();
    if (this.count === 0) return;
    this.summarise();
    this.count = 0;
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
