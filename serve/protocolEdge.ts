/**
 * The protocol's edge: a decoded client message validated against the protocol's schemas
 * (serve/protocol.ts), or refused with a ProtocolError naming the field, in words, with what was
 * given; and the request id of a message refused, for its error reply.
 */
import { ProtocolError } from './errors.js';
import { CLIENT_MESSAGE_TYPES, type ClientMessage, type RequestId, clientMessageSchema } from './protocol.js';
import { requestIdSchema } from './protocolParts.js';
import { fieldPath, given, inWords } from '../support/zod.js';

/** The id of a message that failed validation, if it has a usable one (for the error reply). */
export function requestIdOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const parsed = requestIdSchema.safeParse(value.id);
  return parsed.success ? parsed.data : null;
}

/** Validates a decoded message; throws ProtocolError (bad_message or unknown_type) naming the field. */
export function parseClientMessage(value: unknown): ClientMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProtocolError(
      'bad_message',
      `a message is an object with a "type" (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})`,
    );
  }
  const type: unknown = (value as { type?: unknown }).type;
  if (typeof type !== 'string')
    throw new ProtocolError('bad_message', `must be one of the message types: ${CLIENT_MESSAGE_TYPES.join(', ')}`, 'type');
  if (!(CLIENT_MESSAGE_TYPES as string[]).includes(type)) {
    throw new ProtocolError(
      'unknown_type',
      `unknown message type ${JSON.stringify(type.slice(0, 40))}; the types are ${CLIENT_MESSAGE_TYPES.join(', ')}`,
      'type',
    );
  }
  const parsed = clientMessageSchema.safeParse(value, { error: inWords });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = fieldPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    throw new ProtocolError(
      'bad_message',
      `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')} in ${type}`,
      field || undefined,
    );
  }
  const suffix = issue.code === 'custom' ? '' : given(value, issue.path);
  throw new ProtocolError('bad_message', `${issue.message}${suffix}`, field || undefined);
}
