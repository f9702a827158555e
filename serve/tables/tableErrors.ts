/** The refusals a table gives that carry more than a code: a table on the move, and an act on a stale state. */
import { ProtocolError } from '../protocol/errors.js';

/** A table this process is handing over (drain) or lost to another at the same moment. */
export function movingError(id: string): ProtocolError {
  return new ProtocolError(
    'table_moved',
    `${JSON.stringify(id.slice(0, 64))} is moving to another server process: reconnect and resume it with its token`,
    'table',
  );
}

/** `stale_state`, with the table's current counter for the reply. */
export class StaleStateError extends ProtocolError {
  constructor(
    given: number,
    readonly current: number,
  ) {
    super('stale_state', `the action was chosen at counter ${given} but the table is at ${current}: act on the latest state`, 'counter', {
      counter: current,
    });
  }
}
