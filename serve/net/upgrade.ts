/**
 * The checks before a WebSocket upgrade, each refused with an HTTP status and a protocol error
 * code before any frame: the server stopping or full, or the client's address at its share of
 * connections (503), the path (404), the bearer token (401), the Host and Origin (403: a page of
 * another site, or a DNS name rebound to this server) and the subprotocol (400).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { sameSecret } from '../../support/secret.js';
import { type ServerOptions, addressShare } from '../options.js';
import { SUBPROTOCOLS } from '../protocol/protocol.js';
import { BASE_HEADER_LINES } from './static.js';

export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** Ours among the offered subprotocols (JSON first), or undefined. */
export function chooseSubprotocol(offered: ReadonlySet<string>): string | undefined {
  if (offered.has(SUBPROTOCOLS.json)) return SUBPROTOCOLS.json;
  if (offered.has(SUBPROTOCOLS.msgpack)) return SUBPROTOCOLS.msgpack;
  return undefined;
}

/** Why this upgrade is refused, or null: the server's state first, then the request's path, token, origin and subprotocol. */
export function upgradeRefusal(
  req: IncomingMessage,
  options: ServerOptions,
  server: { readonly shuttingDown: boolean; readonly connections: number; readonly fromAddress: number },
): Refusal | null {
  if (server.shuttingDown) return { status: 503, code: 'internal', message: 'the server is shutting down' };
  if (server.connections >= options.maxConnections)
    return { status: 503, code: 'rate_limited', message: `the server has its maximum of ${options.maxConnections} connections` };
  const share = addressShare(options.maxConnectionsPerAddress, options.maxConnections);
  if (server.fromAddress >= share)
    return {
      status: 503,
      code: 'rate_limited',
      message: `your address has ${share} connections open, the most one address may (--max-connections-per-address)`,
    };
  return checkRequest(req, options);
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Whether a request's Host is one this server serves: its listening address, its advertised one,
 * the --allow-host names, loopback names while it listens on loopback — so that a name rebound
 * by DNS to this address (a page of another site reaching a loopback server) is refused. A
 * request a trusted proxy forwards is the proxy's to check (its server_name); a server on every
 * interface without --allow-host takes any Host.
 */
export function hostServed(req: IncomingMessage, options: ServerOptions): boolean {
  if (options.trustProxy.includes(req.socket.remoteAddress ?? '')) return true;
  if (WILDCARDS.has(options.host) && options.allowHosts.length === 0) return true;
  const name = hostnameOf(req.headers.host);
  if (name === null) return false;
  const served = [options.host, ...options.allowHosts, ...(options.advertise ? [options.advertise] : [])].map(
    (address) => hostnameOf(address) ?? address,
  );
  return served.includes(name) || (LOOPBACK.has(options.host) && LOOPBACK.has(name));
}

/**
 * Whether `GET /health` answers a request's Host: the hosts the server serves (`hostServed`), and
 * what a health probe names rather than a browser — an IP address or `localhost` (an orchestrator
 * probes the pod's address, a container's check localhost), or no Host at all (HTTP/1.0 checks,
 * such as HAProxy's, send none; a browser always does). A page can only name such a Host from its
 * own origin, so a DNS name rebound to this server is refused as for the page.
 */
export function healthHostServed(req: IncomingMessage, options: ServerOptions): boolean {
  if (req.headers.host === undefined) return true;
  const name = hostnameOf(req.headers.host);
  if (name !== null && (name === 'localhost' || isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0)) return true;
  return hostServed(req, options);
}

/** The host name of a Host header or HOST[:PORT] (IPv6 in brackets, lower case), or null when it is none. */
function hostnameOf(host: string | undefined): string | null {
  if (!host) return null;
  const parsed = URL.parse(`http://${host}`);
  return parsed === null ? null : parsed.hostname.toLowerCase();
}

/**
 * The client's address: the peer's, or, when the peer is a trusted proxy (--trust-proxy), the
 * last address of X-Forwarded-For (the one that proxy added: earlier ones the client may forge).
 */
export function clientAddress(req: IncomingMessage, trustProxy: readonly string[]): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (!trustProxy.includes(peer)) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').pop()?.trim();
  return last ? last.slice(0, 64) : peer;
}

/** Path, token, Origin and subprotocol. */
function checkRequest(req: IncomingMessage, options: ServerOptions): Refusal | null {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/' && url.pathname !== '/ws')
    return { status: 404, code: 'bad_message', message: `no WebSocket endpoint at ${url.pathname.slice(0, 100)}: connect to / ` };
  if (options.token !== null) {
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : (url.searchParams.get('token') ?? '');
    if (!sameSecret(given, options.token))
      return { status: 401, code: 'unauthorized', message: 'a bearer token is required: Authorization: Bearer TOKEN, or ?token=TOKEN' };
  }
  if (!hostServed(req, options))
    return {
      status: 403,
      code: 'unauthorized',
      message: `host ${(req.headers.host ?? '').slice(0, 100)} is not one this server serves (--allow-host)`,
    };
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, req.headers.host, options)) {
    return { status: 403, code: 'unauthorized', message: `origin ${origin.slice(0, 100)} is not allowed (--allow-origin)` };
  }
  return subprotocolRefusal(req.headers['sec-websocket-protocol'] ?? '');
}

function subprotocolRefusal(header: string): Refusal | null {
  const offered = header
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (offered.length === 0 || chooseSubprotocol(new Set(offered)) !== undefined) return null;
  const versioned = offered.find((p) => /^yaniv\.v\d+\./.test(p));
  return versioned
    ? {
        status: 400,
        code: 'unsupported_version',
        message: `subprotocol ${versioned.slice(0, 40)} is not spoken here: this server speaks ${SUBPROTOCOLS.json} and ${SUBPROTOCOLS.msgpack}`,
      }
    : {
        status: 400,
        code: 'bad_message',
        message: `offer ${SUBPROTOCOLS.json} or ${SUBPROTOCOLS.msgpack} as the subprotocol (or none for JSON)`,
      };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The server's own origin, listed origins, and loopback origins when the server itself is on loopback. */
function originAllowed(origin: string, host: string | undefined, options: ServerOptions): boolean {
  if (options.allowOrigins.includes('*') || options.allowOrigins.includes(origin)) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (host !== undefined && parsed.host === host) return true;
  return LOOPBACK.has(options.host) && LOOPBACK.has(parsed.hostname);
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};

/** Answers a refused upgrade with its status and a JSON error body, and closes the socket. */
export function refuse(socket: Duplex, { status, code, message }: Refusal): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json\r\n${BASE_HEADER_LINES}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${status === 401 ? 'WWW-Authenticate: Bearer\r\n' : ''}\r\n${body}`,
  );
}
