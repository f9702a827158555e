/** The public surface of the bot server: start it, its options, and the protocol's schemas and types. */
export { type RunningServer, type StartOptions, startServer } from './server.js';
export { serverVersion } from './welcome.js';
export {
  DEFAULT_AGENTS,
  LOG_LEVELS,
  SERVE_FLAGS,
  type ServerOptions,
  type ServerOptionsInput,
  parseServerOptions,
  serveProcessSchema,
  serverOptionsSchema,
} from './options.js';
export {
  CLIENT_MESSAGE_TYPES,
  type ClientMessage,
  type Encoding,
  type LegalAction,
  type Msg,
  PROTOCOL_VERSION,
  REPLY_TYPES,
  type RankedAction,
  type ReplyTo,
  type Request,
  SUBPROTOCOLS,
  type ServerMessage,
  clientMessageSchema,
  protocolJsonSchema,
  serverMessageSchema,
} from './protocol/protocol.js';
export { parseClientMessage } from './protocol/protocolEdge.js';
export { ERROR_CODES, type ErrorCode, ProtocolError } from './protocol/errors.js';
export { VIEW_FORMAT, type ViewJson, viewFromJson, viewJsonSchema, viewToJson } from './protocol/viewJson.js';
export { CODECS, type Codec } from './protocol/codec.js';
