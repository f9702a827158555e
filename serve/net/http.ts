/**
 * The server's plain HTTP answers: `GET /health` (200 while serving, 503 while stopping, so that a
 * load balancer sends nothing new to a stopping process) and the browser page (serve/net/static.ts),
 * each to a Host the server serves (403 otherwise: a DNS name rebound to this server), and a JSON
 * error for anything else or a malformed request; every answer with `X-Content-Type-Options: nosniff`.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { Logger } from 'pino';
import { BASE_HEADERS, BASE_HEADER_LINES, StaticSite, serveStatic } from './static.js';
import type { TableStore } from '../tables/tableStore.js';

/**
 * What `GET /health` answers: `ok` (200); `degraded` (503: the table store cannot be reached, so
 * tables go on from memory and cannot move to another process; or an inference worker is stuck
 * past the request deadline and being replaced; or the inference queue is at its limit);
 * `shutting_down` (503: draining).
 */
export interface Health {
  readonly status: 'ok' | 'degraded' | 'shutting_down';
  readonly store: TableStore['kind'];
  /** Whether the table store can be reached now. */
  readonly storeAvailable: boolean;
  /** Stopping: no new tables, the held ones handed over. */
  readonly draining: boolean;
  /** Per served agent, the published model version it serves (null: the model it started with). */
  readonly models: Record<string, number | null>;
  readonly version: string;
  readonly protocol: number;
  /** Seconds since the server started. */
  readonly uptime: number;
  /** Tables in play: a game not over with a client connected (finished and abandoned ones not counted). */
  readonly tables: number;
  /** Every table held in memory (finished or abandoned ones until they expire included). */
  readonly tablesHeld: number;
  readonly connections: number;
  /** Whether a WebSocket needs the bearer token (--token): the page asks its player for it. */
  readonly tokenRequired: boolean;
  /** Inference workers stuck past the request deadline or being replaced (`degraded` while any). */
  readonly stuckWorkers: number;
  /** Inference requests waiting for a worker (`degraded` while at --max-queue). */
  readonly queued: number;
}

/** How the server answers: its health, and whether a request's Host is one it serves (serve/net/upgrade.ts `hostServed`). */
export interface HttpAnswers {
  readonly health: () => Health;
  readonly hostServed: (req: IncomingMessage) => boolean;
  /** The same for `GET /health`, which also answers the Hosts health probes name (serve/net/upgrade.ts `healthHostServed`). */
  readonly healthHostServed: (req: IncomingMessage) => boolean;
}

/** Node's own default for a whole request (a page's file, an upgrade): the bound on `requestMs` is above it only if asked. */
const NODE_REQUEST_TIMEOUT_MS = 300_000;

/**
 * An HTTP server answering health and the page (WebSocket upgrades are the caller's). A socket
 * whose request headers are not complete within `requestMs` (the hello timeout) is answered 408
 * and closed, checked every quarter of it (at most every second): Node's default left a silent
 * socket open for a minute or more.
 */
export function createHttpServer(root: string, log: Logger, answers: HttpAnswers, requestMs: number): Server {
  const site = new StaticSite(root);
  const timeouts = {
    headersTimeout: requestMs,
    requestTimeout: Math.max(NODE_REQUEST_TIMEOUT_MS, requestMs),
    connectionsCheckingInterval: Math.min(1000, Math.max(25, Math.floor(requestMs / 4))),
  };
  const http = createServer(timeouts, (req, res) => answerHttp(req, res, site, log, answers));
  http.on('error', (error) => log.error({ event: 'http_error', err: error.message }, 'HTTP server error'));
  http.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    log.debug({ event: 'client_error', err: error.message }, 'bad HTTP request');
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\n${BASE_HEADER_LINES}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    else socket.destroy();
  });
  return http;
}

/** Listens on host:port; resolves with the port (the one picked when 0 was asked for). */
export async function listen(http: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}

function sendJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'application/json', ...BASE_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

function answerHttp(req: IncomingMessage, res: ServerResponse, site: StaticSite, log: Logger, answers: HttpAnswers): void {
  res.on('error', () => undefined);
  const path = URL.parse(req.url ?? '/', 'http://localhost')?.pathname;
  if (path === undefined) return sendJson(res, 400, { error: { code: 'bad_message', message: 'the request target is not a URL path' } });
  const asksHealth = req.method === 'GET' && path === '/health';
  if (!(asksHealth ? answers.healthHostServed(req) : answers.hostServed(req)))
    return sendJson(res, 403, {
      error: {
        code: 'unauthorized',
        message: `host ${(req.headers.host ?? '').slice(0, 100)} is not one this server serves (--allow-host${asksHealth ? '; /health also answers an IP address or localhost' : ''})`,
      },
    });
  if (asksHealth) {
    const body = answers.health();
    return sendJson(res, body.status === 'ok' ? 200 : 503, body, { 'Cache-Control': 'no-store' });
  }
  serveStatic(site, req, res, path).then(
    (served) => {
      if (!served) sendJson(res, 404, { error: { code: 'bad_message', message: `nothing at ${req.method ?? ''} ${path.slice(0, 100)}` } });
    },
    (error: Error) => {
      log.error({ event: 'http_error', path: path.slice(0, 100), err: error.message }, 'could not serve a file of the page');
      sendJson(res, 500, { error: { code: 'internal', message: 'the server failed to read the file' } });
    },
  );
}
