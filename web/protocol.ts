/**
 * The page's side of the public protocol (serve/PROTOCOL.md): the message types come from the
 * server's own schemas as types only (erased when compiled, so the browser loads none of the
 * server's code), and the few constants the page sends are typed as the server's literals, so
 * the compiler keeps them equal.
 */
import type { MAX_PLAYERS as ENGINE_MAX_PLAYERS, MIN_PLAYERS as ENGINE_MIN_PLAYERS } from '../env/rules/rules.js';
import type { PROTOCOL_VERSION, SUBPROTOCOLS } from '../serve/protocol/protocol.js';

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

export const VERSION: typeof PROTOCOL_VERSION = 1;
export const JSON_SUBPROTOCOL: (typeof SUBPROTOCOLS)['json'] = 'yaniv.v1.json';

/** Table sizes create_table accepts (welcome does not list them). */
export const MIN_PLAYERS: typeof ENGINE_MIN_PLAYERS = 2;
export const MAX_PLAYERS: typeof ENGINE_MAX_PLAYERS = 8;
