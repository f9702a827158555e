/**
 * The server's plain HTTP answers: `GET /health` (200 while serving, 503 while stopping, so that a
 * load balancer sends nothing new to a stopping process), the browser page (serve/net/static.ts), and
 * a JSON error for anything else or a malformed request.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { Logger } from 'pino';
import { StaticSite, serveStatic } from './static.js';
import type { TableStore } from '../tables/tableStore.js';

/**
 * What `GET /health` answers: `ok` (200); `degraded` (503: the table store cannot be reached, so
 * tables go on from memory and cannot move to another process); `shutting_down` (503: draining).
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
}

/** An HTTP server answering health and the page (WebSocket upgrades are the caller's). */
export function createHttpServer(root: string, log: Logger, health: () => Health): Server {
  const site = new StaticSite(root);
  const http = createServer((req, res) => answerHttp(req, res, site, log, health));
  http.on('error', (error) => log.error({ event: 'http_error', err: error.message }, 'HTTP server error'));
  http.on('clientError', (error, socket) => {
    log.debug({ event: 'client_error', err: error.message }, 'bad HTTP request');
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
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
  if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function answerHttp(req: IncomingMessage, res: ServerResponse, site: StaticSite, log: Logger, health: () => Health): void {
  res.on('error', () => undefined);
  const path = URL.parse(req.url ?? '/', 'http://localhost')?.pathname;
  if (path === undefined) return sendJson(res, 400, { error: { code: 'bad_message', message: 'the request target is not a URL path' } });
  if (req.method === 'GET' && path === '/health') {
    const body = health();
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
