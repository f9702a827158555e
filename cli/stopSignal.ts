/** Ctrl-C / SIGTERM for a long command: the first asks it to stop cleanly (saying how), the second quits at once. */
export interface StopRequest {
  requested: boolean;
  /** Stops listening for the signals (once the command is done). */
  release(): void;
}

export function stopOnSignal(message: string): StopRequest {
  const onSignal = () => {
    if (stop.requested) process.exit(130);
    stop.requested = true;
    process.stderr.write(`\n${message}\n`);
  };
  const stop: StopRequest = {
    requested: false,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return stop;
}
