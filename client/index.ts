// `yaniv-arena/client`: a typed client of `yaniv serve` (client.ts) and the protocol's types,
// derived from the server's zod schemas (protocol.ts). Runs in browsers and in Node.
export { type ClientOptions, type ConnectOptions, RefusedError, type SocketClass, type SocketLike, YanivClient } from './client.js';
export * from './protocol.js';
