/**
 * Ctrl-C / SIGTERM for a long command: the first asks it to stop cleanly (saying how) and aborts
 * `signal`, so that whatever it waits on (actors, jobs, a Redis that is gone) is cut short; the
 * second quits at once.
 */
export interface StopRequest {
  requested: boolean;
  /** Aborted by the first signal. */
  readonly signal: AbortSignal;
  /** Stops listening for the signals (once the command is done). */
  release(): void;
}

/**
 * A stopped command whose event loop is still held by something it could not close (a connection
 * to a Redis that is gone) exits anyway this long after its clean-up is done.
 */
const EXIT_MARGIN_MS = 2000;

export function stopOnSignal(message: string): StopRequest {
  const controller = new AbortController();
  const onSignal = () => {
    if (stop.requested) process.exit(130);
    stop.requested = true;
    process.stderr.write(`\n${message}\n`);
    controller.abort();
  };
  const stop: StopRequest = {
    requested: false,
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (stop.requested) setTimeout(() => process.exit(process.exitCode ?? 0), EXIT_MARGIN_MS).unref();
    },
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return stop;
}
