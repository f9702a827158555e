/**
 * The protocol's edge: a decoded client message validated against the protocol's schemas
 * (serve/protocol/protocol.ts), or refused with a ProtocolError naming the field, in words, with what was
 * given; and the request id of a message refused, for its error reply. The server checks an
 * advise's view in two steps (`parseClientMessageAtEdge`, then `parseViewJson` where it is
 * decided), with the same words as the whole message checked at once (`parseClientMessage`).
 */
import type { z } from 'zod';
import { ProtocolError } from './errors.js';
import {
  CLIENT_MESSAGE_TYPES,
  type ClientMessage,
  type ClientMessageAtEdge,
  type RequestId,
  adviseAtEdgeFieldsSchema,
  adviseSourceIssues,
  clientMessageAtEdgeSchema,
  clientMessageSchema,
} from './protocol.js';
import { requestIdSchema } from './protocolParts.js';
import { type ViewJson, viewJsonSchema } from './viewJson.js';
import { fieldPath, given, inWords } from '../../support/zod.js';
import { type CompiledCheck, compiledCheck, parseFast } from '../../support/compiledSchema.js';

/** The id of a message that failed validation, if it has a usable one (for the error reply). */
export function requestIdOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const parsed = requestIdSchema.safeParse(value.id);
  return parsed.success ? parsed.data : null;
}

/** Validates a decoded message; throws ProtocolError (bad_message or unknown_type) naming the field. */
export function parseClientMessage(value: unknown): ClientMessage {
  return parseWith(clientMessageSchema, value);
}

/** The compiled check of an advise at the edge, the message that arrives most, with the schema's refinement. */
const adviseAtEdgeCheck = compiledCheck(adviseAtEdgeFieldsSchema, (message) => adviseSourceIssues(message).length === 0);
const isAdviseAtEdge = (value: unknown): value is ClientMessageAtEdge =>
  (value as { type?: unknown }).type === 'advise' && adviseAtEdgeCheck(value);

/**
 * `parseClientMessage` but for an advise's view, of which only the head is checked: the rest by
 * `parseViewJson`. An advise goes through its compiled check first (defaults are filled into
 * `value` itself); the rest of the messages, and any refusal, through zod.
 */
export function parseClientMessageAtEdge(value: unknown): ClientMessageAtEdge {
  return parseWith(clientMessageAtEdgeSchema, value, isAdviseAtEdge);
}

/** The view schema's compiled check: most views are valid, and zod took a quarter of a worker's time deciding so. */
export const viewJsonCheck = compiledCheck(viewJsonSchema);

/**
 * An advise's view (`view`), with the words `parseClientMessage` would have refused it in;
 * throws ProtocolError. Defaults are filled into `view` itself: pass a decoded message's own.
 */
export function parseViewJson(view: unknown): ViewJson {
  const parsed = parseFast(viewJsonSchema, viewJsonCheck, view, inWords);
  if (parsed.success) return parsed.data;
  throw refusal(parsed.error.issues[0], view, 'advise', ['view']);
}

/** A message by `schema` (through `fast` first when given: a compiled check of the messages it covers), or its refusal. */
function parseWith<S extends z.ZodType>(schema: S, value: unknown, fast?: CompiledCheck<S>): z.output<S> {
  const type = messageType(value);
  const parsed = fast ? parseFast(schema, fast, value, inWords) : schema.safeParse(value, { error: inWords });
  if (parsed.success) return parsed.data;
  throw refusal(parsed.error.issues[0], value, type, []);
}

/** The message's type, checked before its schema so that a wrong one is named as such. */
function messageType(value: unknown): string {
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
  return type;
}

/** The first issue of a message of `type` (or of its part at `at`) in words, naming the field. */
function refusal(issue: z.core.$ZodIssue, value: unknown, type: string, at: readonly PropertyKey[]): ProtocolError {
  const field = fieldPath([...at, ...issue.path]);
  if (issue.code === 'unrecognized_keys') {
    return new ProtocolError(
      'bad_message',
      `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')} in ${type}`,
      field || undefined,
    );
  }
  const suffix = issue.code === 'custom' ? '' : given(value, issue.path);
  return new ProtocolError('bad_message', `${issue.message}${suffix}`, field || undefined);
}
