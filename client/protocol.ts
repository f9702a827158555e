/**
 * A client's side of the public protocol (serve/PROTOCOL.md), for the page and for
 * `yaniv-arena/client`: the message types come from the server's own zod schemas as types only
 * (erased when compiled, so a browser loads none of the server's code), and the few constants a
 * client sends are typed as the server's literals, so the compiler keeps them equal.
 */
import type { MAX_PLAYERS as ENGINE_MAX_PLAYERS, MIN_PLAYERS as ENGINE_MIN_PLAYERS } from '../env/rules/rules.js';
import type { ClientMessageType, Msg, PROTOCOL_VERSION, ReplyTo, Request, SUBPROTOCOLS } from '../serve/protocol/protocol.js';

export type {
  ClientMessage,
  ClientMessageType,
  LegalAction,
  Msg,
  RankedAction,
  ReplyTo,
  Request,
  RequestId,
  ServerMessage,
} from '../serve/protocol/protocol.js';
export type { ViewJson } from '../serve/protocol/viewJson.js';

/** A request as a client writes it (of one type, or any): the client gives it its id. */
export type Outgoing<T extends ClientMessageType = ClientMessageType> = T extends ClientMessageType ? Omit<Request<T>, 'id'> : never;

/** A request's fields besides its type and id (what a client's method for that type takes). */
export type Fields<T extends ClientMessageType> = Omit<Request<T>, 'id' | 'type'>;

/** What a request of type T resolves with: its success reply, or the server's refusal. */
export type Answer<T extends ClientMessageType> = ReplyTo<T> | Msg<'error'>;

export const VERSION: typeof PROTOCOL_VERSION = 1;
export const JSON_SUBPROTOCOL: (typeof SUBPROTOCOLS)['json'] = 'yaniv.v1.json';

/** Table sizes create_table accepts (welcome does not list them). */
export const MIN_PLAYERS: typeof ENGINE_MIN_PLAYERS = 2;
export const MAX_PLAYERS: typeof ENGINE_MAX_PLAYERS = 8;
