// Waits that a stop request cuts short, for the long-running commands (train, actor, worker): one
// SIGTERM must end them within seconds whatever they wait on — actors, jobs, or a Redis that is gone
// (ioredis then queues commands until it is back, so an await on one never ends by itself).

/** What a wait cut short by a stop request rejects with. */
export class StopRequested extends Error {
  override name = 'StopRequested';
  constructor() {
    super('stop requested');
  }
}

/**
 * `work`'s result, or a rejection with StopRequested as soon as `signal` aborts. The work itself is
 * not cancelled (its owner ends it, by closing what it waits on); its later failure is ignored.
 */
export function unlessStopped<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new StopRequested());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      reject(new StopRequested());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Whether `work` settled (either way) within `ms`: a bounded wait for a clean-up that may never end (a Redis that is gone). */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
