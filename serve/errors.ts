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
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What each code means, for the documentation and the JSON Schema. */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  bad_message:
    'The message is not valid: not JSON/MessagePack, not an object, a field missing or out of range, an inconsistent view or position (the message names the field).',
  unknown_type: "The message type is not one of the protocol's.",
  unsupported_version: 'The protocol version in hello is not one this server speaks.',
  not_your_turn: "The seat is not the client's, or not the one to move.",
  illegal_action: "The action is not legal now (the engine's reason is given) or the game is over.",
  stale_state: 'The action was chosen for an earlier state of the table (the counter moved on).',
  unknown_table: 'No such table on this connection (or a wrong table token on resume).',
  table_full: 'A table limit is reached: tables per connection or on the server.',
  rate_limited: 'Too many messages or pending requests on this connection; slow down.',
  unauthorized: 'A bearer token is required (HTTP 401 before the upgrade).',
  table_moved:
    'The table is moving between server processes (this one is handing it over, or another took it over at the same moment): reconnect if told to, and resume it with its token.',
  store_unavailable:
    'The table store (Redis) cannot be reached, so a table this process does not hold cannot be loaded now; nothing was changed: resume again shortly.',
  draining:
    'This server process is stopping and takes no new tables: reconnect (a load balancer sends you to another process) and try again.',
  internal: 'The server failed; the request was not applied. Logged on the server.',
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
