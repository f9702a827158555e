/**
 * Protocol errors are data: a stable code, a message for people that names the field or the
 * move, and the field when there is one. Nothing else (no stack trace) ever reaches a client.
 */
export const ERROR_CODES = [
  'bad_message',
  'unknown_type',
  'unsupported_version',
  'not_your_turn',
  'illegal_action',
  'stale_state',
  'unknown_table',
  'table_full',
  'rate_limited',
  'unauthorized',
  'table_moved',
  'store_unavailable',
  'draining',
  'timed_out',
  'overloaded',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What each code means, for people: the JSON Schema and PROTOCOL.md's error table are generated
 * from it (npm run docs).
 */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  bad_message:
    'The message is not valid: not JSON/MessagePack, not an object, a missing or out-of-range field, nesting deeper than 16, keys such as `__proto__`, a binary frame on a JSON connection (or text on MessagePack), an inconsistent view or position (`field` names it: `view.deckSize`), an unknown agent, bad rules, anything before `hello`.',
  unknown_type: "`type` is not one of the protocol's messages.",
  unsupported_version: '`hello.version` is not one this server speaks (1).',
  not_your_turn: "The seat is not the client's (a bot's), or not the one to move (also for advice).",
  illegal_action:
    "The action is not legal now, with the engine's reason: `action 1352 (draw from the deck) is illegal: a card can be drawn only after laying a group`; a discard id is read against the mover's hand, so an id whose cards are no group says why (`action 7 (discard 4D 6H) is illegal: 4D 6H is not a legal group: two cards of different ranks are not a set, and a run needs three`); a discard by `cards` likewise (`discard JK is illegal: JK is not in seat 0's hand`) — or the game is over. The reply's `reason` holds the engine's reason alone, without the action (`4D 6H is not a legal group: …`, `the game is over`), for showing to a player.",
  stale_state:
    'The action was chosen for an earlier state of the table: `counter` is not the current one (the reply carries `counter`: act on the latest state).',
  unknown_table:
    'No such table on this connection, a wrong token on `resume`, or an invite code on `join_table` that is wrong, expired, or whose table has no guest seat left.',
  table_full: 'A table limit is reached: tables in play on the connection (finished games do not count) or on the server (`--max-tables`).',
  rate_limited:
    'Too many messages a second on the connection or from its address (either closes it, 1008), or too many advice requests in progress (`welcome.limits`): slow down.',
  unauthorized: 'A bearer token is required (HTTP 401 before the upgrade).',
  table_moved:
    'The table is moving between server processes: this one is handing it over (drain), or another process claimed it at the same moment (two resumes with one token at once) — reconnect if told to, and `resume` it with its token.',
  store_unavailable:
    'The table store (Redis) cannot be reached, so a table this process does not hold cannot be loaded now; nothing changed — `resume` again shortly.',
  draining:
    '`create_table` on a server process that is stopping: reconnect (a load balancer sends you to another process) and create it there.',
  timed_out:
    "The request was not decided within the server's deadline (`--request-deadline-ms`): the work was stopped and its worker replaced; nothing was applied.",
  overloaded:
    'The server has more inference requests waiting than it takes (`--max-queue`), or your address has its share of them waiting (a tenth); nothing was applied — try again shortly (`/health` says degraded while the queue is full).',
  internal: 'The server failed; the request was not applied (details only in the server log).',
};

/** What some errors carry besides the message: `illegal_action` the engine's reason, `stale_state` the table's counter. */
export interface ErrorDetails {
  readonly reason?: string;
  readonly counter?: number;
}

export class ProtocolError extends Error {
  override name = 'ProtocolError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly details: ErrorDetails = {},
  ) {
    super(field && !message.startsWith(field) ? `${field}: ${message}` : message);
  }
}
