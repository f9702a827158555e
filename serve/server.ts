/**
 * `yaniv serve`: one Node HTTP server answering `GET /health`, serving the browser page
 * (serve/static.ts: `GET /` and its files), and upgrading WebSocket
 * connections (`ws` in noServer mode) after checking the bearer token (401), the Origin (403),
 * the connection limit (503) and the subprotocol (400) — all before the upgrade. Then the
 * protocol of serve/protocol.ts over JSON or MessagePack, heartbeats, idle-table expiry and a
 * graceful `close()` (stop accepting, close clients with 1001, let writes finish, stop the
 * inference workers).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  ACTION_SPACE_VERSION,
  MAX_PLAYERS,
  MIN_PLAYERS,
  POSITION_FORMAT,
  PRESETS,
  PRESET_NAMES,
  type PlayerView,
  RECORD_FORMAT,
  resolveRules,
  ruleOptionsJsonSchema,
} from '../env/index.js';
import { shippedModels } from '../agents/catalog.js';
import { type ModelCard, trainingMismatch } from '../agents/modelCard.js';
import { packageRoot } from '../agents/modelFolder.js';
import { agentAbilities, describeAgents, parseAgentSpec } from '../agents/registry.js';
import { resolveAgent } from '../agents/resolve.js';
import { CODECS } from './codec.js';
import { CLOSE, Connection, type ServerContext } from './connection.js';
import { type ServerOptions, type ServerOptionsInput, parseServerOptions } from './options.js';
import { InferencePool, type PoolOptions } from './pool.js';
import { type Encoding, type Msg, PROTOCOL_VERSION, type RequestId, SUBPROTOCOLS } from './protocol.js';
import { ownIdFilter } from './ring.js';
import { StaticSite, serveStatic } from './static.js';
import { SlowLog } from './slowLog.js';
import { TableRegistry } from './tables.js';
import { MemoryTableStore, type TableStore } from './tableStore.js';
import { RedisTableStore } from './redisTableStore.js';
import { ModelVersions } from './models.js';
import { connectRedis } from '../agents/redisConnection.js';
import { VIEW_FORMAT } from './viewJson.js';

export interface RunningServer {
  /** ws://host:port/ */
  readonly url: string;
  /** http://host:port/: the page that plays the bots in a browser. */
  readonly pageUrl: string;
  readonly port: number;
  readonly options: ServerOptions;
  /** Connections and tables now. */
  stats(): { connections: number; tables: number; inference: InferencePool['stats'] };
  /** Graceful shutdown; resolves when everything is closed. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** A pino logger (default: JSON lines on standard error at level info). */
  logger?: Logger;
  /** The compiled inference worker (default: dist/serve/inferenceWorker.js). */
  workerUrl?: URL;
  /** The table store (default: Redis with options.redis, else this process's memory); the caller closes one it gives. */
  store?: TableStore;
}

/** How long a client told to reconnect (drain) should wait: the tables are handed over before it is told. */
const RECONNECT_RETRY_MS = 200;

/** This process, as the owner it writes into the tables it holds in a shared store. */
function instanceName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Published model versions: followed through Redis with --redis, else none (each agent as started). */
async function openModels(options: ServerOptions, pool: InferencePool, log: Logger): Promise<{ models: ModelVersions; close(): void }> {
  if (options.redis === null) return { models: new ModelVersions(null, pool, options.agents, log), close: () => undefined };
  const redis = await connectRedis(options.redis, 'yaniv-serve-models');
  const subscriber = await connectRedis(options.redis, 'yaniv-serve-model-versions');
  const models = new ModelVersions(redis, pool, options.agents, log);
  const close = () => {
    redis.disconnect();
    subscriber.disconnect();
    models.close();
  };
  try {
    await models.start(subscriber);
  } catch (error) {
    close();
    throw error;
  }
  return { models, close };
}

async function openStore(options: ServerOptions, start: StartOptions, log: Logger): Promise<TableStore> {
  if (start.store) return start.store;
  if (options.redis === null) return new MemoryTableStore();
  return RedisTableStore.connect({ url: options.redis, owner: instanceName(), log });
}

/** The project's version, from package.json. */
export function serverVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

const TABLE_SIZES = Array.from({ length: MAX_PLAYERS - MIN_PLAYERS + 1 }, (_, i) => MIN_PLAYERS + i);

/**
 * For an agent that plays the catalog's models (plain `neural`): which model plays each preset at
 * each table size (agents/resolve.ts), and why it may play below its strength there; else undefined.
 */
function modelsPlayed(spec: string): Msg<'welcome'>['agents'][number]['plays'] {
  const byPreset = PRESET_NAMES.map((preset) => {
    const bySize = TABLE_SIZES.map((players) => {
      const { model, fit, mismatch } = resolveAgent(spec, { preset, players });
      return model === null || fit === null ? null : ([String(players), { model, fit, mismatch }] as const);
    });
    return bySize.includes(null) ? null : ([preset, Object.fromEntries(bySize as [string, unknown][])] as const);
  });
  return byPreset.includes(null) ? undefined : (Object.fromEntries(byPreset as [string, unknown][]) as never);
}

/** A model's card as welcome shows it: with, per table size, why it may play below its strength under the server's rules. */
function servedCard(card: ModelCard, preset: string, rules: Record<string, unknown>): Record<string, unknown> {
  const mismatch = Object.fromEntries(TABLE_SIZES.map((players) => [String(players), trainingMismatch(card, { preset, rules }, players)]));
  return { ...card, mismatch };
}

export async function startServer(input: ServerOptionsInput = {}, start: StartOptions = {}): Promise<RunningServer> {
  const options = parseServerOptions(input);
  resolveRules({ preset: options.preset, rules: options.rules, players: 2 });
  const ownsId = ownIdFilter(options.peers, options.advertise ?? `${options.host}:${options.port}`);
  const log = start.logger ?? pino({ base: { service: 'yaniv-serve' } }, pino.destination(2));
  const specs = options.agents.map((spec) => ({ spec, parsed: parseAgentSpec(spec) }));
  const store = await openStore(options, start, log);
  const pool = new InferencePool(poolOptions(options, start.workerUrl), options.agents, log);
  let models: Awaited<ReturnType<typeof openModels>>;
  try {
    await pool.start();
    models = await openModels(options, pool, log);
  } catch (error) {
    if (!start.store) await store.close();
    await pool.close();
    throw error;
  }
  const started = Date.now();
  const version = serverVersion();
  const descriptions = new Map(describeAgents().map((a) => [a.name as string, a.description]));
  const defaultTable = { preset: options.preset, rules: options.rules, players: MIN_PLAYERS };
  const startCards = new Map(specs.map(({ spec }) => [spec, resolveAgent(spec, defaultTable).card]));
  const plays = new Map(specs.map(({ spec }) => [spec, modelsPlayed(spec)]));
  const welcomeBase: Omit<Msg<'welcome'>, 'id' | 'encoding' | 'agents'> = {
    type: 'welcome',
    version: PROTOCOL_VERSION,
    server: { name: 'yaniv-arena', version },
    encodings: { ...SUBPROTOCOLS },
    actionSpace: ACTION_SPACE_VERSION,
    formats: { view: VIEW_FORMAT, position: POSITION_FORMAT, record: RECORD_FORMAT },
    presets: PRESET_NAMES.map((name) => ({ name, description: PRESETS[name].description, options: { ...PRESETS[name].options } })),
    ruleOptions: ruleOptionsJsonSchema(),
    limits: {
      maxTablesPerConnection: options.maxTablesPerConnection,
      maxMessagesPerSecond: options.maxMessagesPerSecond,
      maxPending: options.maxPending,
      maxPayload: options.maxPayload,
      thinkMs: options.thinkMs,
      moveDeadlineMs: options.moveDeadlineMs,
      idleTableMs: options.idleTableMs,
      maxTurns: options.maxTurns,
      preset: options.preset,
      rules: { ...options.rules },
    },
    store: store.kind,
    models: shippedModels().map(({ folder, card }) => ({ model: folder, card: { ...card } })),
  };
  /** What is served now: a published model's card and version once one is adopted. */
  const agentsNow = (): Msg<'welcome'>['agents'] =>
    specs.map(({ spec, parsed }) => {
      const published = models.models.served(spec);
      const card = published?.card ?? startCards.get(spec);
      const played = published ? undefined : plays.get(spec);
      return {
        name: spec,
        description: descriptions.get(parsed.name) ?? '',
        ...agentAbilities(spec),
        ...(card ? { model: servedCard(card, options.preset, options.rules) } : {}),
        ...(published ? { modelVersion: published.version } : {}),
        ...(played ? { plays: played } : {}),
      };
    });
  const decide = (agent: string, view: PlayerView, seed: number) =>
    pool.decide({ agent, source: { kind: 'playerView', view }, seed, explain: false });
  const tables = new TableRegistry(
    options.maxTables,
    {
      decide: (agent, table, view, seed, modelVersion) =>
        modelVersion === null
          ? decide(resolveAgent(agent, table).spec, view, seed)
          : models.models.specFor(agent, modelVersion).then((spec) => decide(spec, view, seed)),
      log,
      now: Date.now,
      idleMs: options.idleTableMs,
    },
    store,
    ownsId,
  );
  const slow = new SlowLog(log);
  const ctx: ServerContext = {
    options,
    tables,
    pool,
    log,
    slow,
    agents: new Set(options.agents),
    models: models.models,
    welcome: (id: RequestId, encoding: Encoding) => ({ ...welcomeBase, agents: agentsNow(), id, encoding }),
    draining: () => shuttingDown,
  };
  const connections = new Set<Connection>();
  let nextConnection = 1;
  let shuttingDown = false;

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload,
    perMessageDeflate: false,
    clientTracking: false,
    handleProtocols: (offered) => chooseSubprotocol(offered) ?? false,
  });
  wss.on('error', (error) => log.error({ event: 'wss_error', err: error.message }, 'WebSocket server error'));

  const site = new StaticSite(packageRoot());
  const http = createServer((req, res) =>
    answerHttp(req, res, site, log, () => ({
      status: shuttingDown ? 'shutting_down' : 'ok',
      store: store.kind,
      version,
      protocol: PROTOCOL_VERSION,
      uptime: Math.round((Date.now() - started) / 1000),
      tables: tables.size,
      connections: connections.size,
    })),
  );
  http.on('error', (error) => log.error({ event: 'http_error', err: error.message }, 'HTTP server error'));
  http.on('clientError', (error, socket) => {
    log.debug({ event: 'client_error', err: error.message }, 'bad HTTP request');
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (error) => log.debug({ event: 'socket_error', err: error.message }, 'socket error during upgrade'));
    const refusal = shuttingDown
      ? { status: 503, code: 'internal', message: 'the server is shutting down' }
      : connections.size >= options.maxConnections
        ? { status: 503, code: 'rate_limited', message: `the server has its maximum of ${options.maxConnections} connections` }
        : checkUpgrade(req, options);
    if (refusal) {
      log.info(
        { event: 'upgrade_refused', status: refusal.status, code: refusal.code, origin: req.headers.origin, ip: req.socket.remoteAddress },
        refusal.message,
      );
      return refuse(socket, refusal.status, refusal.code, refusal.message);
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req));
  });

  function accept(ws: WebSocket, req: IncomingMessage): void {
    const encoding: Encoding = ws.protocol === SUBPROTOCOLS.msgpack ? 'msgpack' : 'json';
    const connection = new Connection(nextConnection++, ws, CODECS[encoding], ctx);
    connections.add(connection);
    const opened = Date.now();
    log.info(
      { event: 'connection_open', conn: connection.id, encoding, ip: req.socket.remoteAddress, origin: req.headers.origin },
      'connection opened',
    );
    ws.on('error', (error) => log.info({ event: 'connection_error', conn: connection.id, err: error.message }, 'connection error'));
    ws.on('message', (data, isBinary) => connection.receive(asBuffer(data), isBinary));
    ws.on('pong', () => {
      connection.alive = true;
    });
    ws.on('close', (code, reason) => {
      connections.delete(connection);
      connection.closed();
      log.info(
        {
          event: 'connection_close',
          conn: connection.id,
          code,
          reason: reason.toString().slice(0, 120),
          messages: connection.messages,
          seconds: Math.round((Date.now() - opened) / 1000),
        },
        'connection closed',
      );
    });
  }

  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (connection.heartbeat()) continue;
      log.info({ event: 'heartbeat_timeout', conn: connection.id }, 'terminated a peer that missed a heartbeat');
    }
  }, options.heartbeatMs);

  const sweeper = setInterval(
    () => {
      const expired = tables.expire(Date.now(), options.idleTableMs);
      for (const table of expired) log.info({ event: 'table_expired', table: table.id }, 'idle table closed');
    },
    Math.min(30_000, Math.max(50, Math.floor(options.idleTableMs / 4))),
  );

  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, options.host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    clearInterval(heartbeat);
    clearInterval(sweeper);
    await pool.close();
    models.close();
    if (!start.store) await store.close();
    throw error;
  }
  const port = (http.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `ws://${host}:${port}/`;
  log.info({ event: 'listening', url, agents: options.agents, workers: options.workers }, 'yaniv serve listening');

  let closing: Promise<void> | null = null;
  async function close(): Promise<void> {
    shuttingDown = true;
    clearInterval(heartbeat);
    clearInterval(sweeper);
    const httpClosed = new Promise<void>((resolve) => http.close(() => resolve()));
    const open = [...connections];
    const cutOff = new Promise<void>((resolve) => setTimeout(resolve, options.shutdownMs).unref());
    if (store.shared) {
      // Drain: every table written and released before any client is told to go elsewhere.
      await Promise.race([tables.drain(), cutOff]);
      for (const connection of open) connection.drained(RECONNECT_RETRY_MS);
      log.info({ event: 'drained', tables: tables.size, connections: open.length }, 'tables handed over; clients told to reconnect');
      await Promise.race([Promise.all(open.map((c) => c.close(CLOSE.serviceRestart, 'server restarting: reconnect and resume'))), cutOff]);
    } else {
      for (const connection of open) connection.shutdown();
      await Promise.race([Promise.all(open.map((c) => c.close(CLOSE.goingAway, 'server shutting down'))), cutOff]);
    }
    for (const connection of open) connection.terminate();
    http.closeAllConnections();
    tables.closeAll();
    slow.close();
    await pool.close();
    models.close();
    if (!start.store) await store.close();
    await httpClosed;
    log.info({ event: 'stopped' }, 'yaniv serve stopped');
  }

  return {
    url,
    pageUrl: `http://${host}:${port}/`,
    port,
    options,
    stats: () => ({ connections: connections.size, tables: tables.size, inference: { ...pool.stats } }),
    close: () => (closing ??= close()),
  };
}

function poolOptions(options: ServerOptions, workerUrl: URL | undefined): PoolOptions {
  return {
    workers: options.workers,
    batchMax: options.batchMax,
    batchWindowMs: options.batchWindowMs,
    ...(workerUrl ? { workerUrl } : {}),
  };
}

/** Ours among the offered subprotocols (JSON first), or undefined. */
function chooseSubprotocol(offered: ReadonlySet<string>): string | undefined {
  if (offered.has(SUBPROTOCOLS.json)) return SUBPROTOCOLS.json;
  if (offered.has(SUBPROTOCOLS.msgpack)) return SUBPROTOCOLS.msgpack;
  return undefined;
}

interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** Token, Origin and subprotocol, checked before the upgrade. */
function checkUpgrade(req: IncomingMessage, options: ServerOptions): Refusal | null {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/' && url.pathname !== '/ws')
    return { status: 404, code: 'bad_message', message: `no WebSocket endpoint at ${url.pathname.slice(0, 100)}: connect to / ` };
  if (options.token !== null) {
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : (url.searchParams.get('token') ?? '');
    if (!sameSecret(given, options.token))
      return { status: 401, code: 'unauthorized', message: 'a bearer token is required: Authorization: Bearer TOKEN, or ?token=TOKEN' };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, req.headers.host, options)) {
    return { status: 403, code: 'unauthorized', message: `origin ${origin.slice(0, 100)} is not allowed (--allow-origin)` };
  }
  const offered = (req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (offered.length > 0 && chooseSubprotocol(new Set(offered)) === undefined) {
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
  return null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
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

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  const reason =
    { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${status === 401 ? 'WWW-Authenticate: Bearer\r\n' : ''}\r\n${body}`,
  );
}

function answerHttp(req: IncomingMessage, res: ServerResponse, site: StaticSite, log: Logger, health: () => object): void {
  res.on('error', () => undefined);
  const path = URL.parse(req.url ?? '/', 'http://localhost')?.pathname;
  if (path === undefined) {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'bad_message', message: 'the request target is not a URL path' } }));
    return;
  }
  if (req.method === 'GET' && path === '/health') {
    const body = health() as { status: string };
    // 503 while stopping, so that a load balancer's health check sends nothing new here.
    res.writeHead(body.status === 'ok' ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
    return;
  }
  serveStatic(site, req, res, path).then(
    (served) => {
      if (served) return;
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'bad_message', message: `nothing at ${req.method ?? ''} ${path.slice(0, 100)}` } }));
    },
    (error: Error) => {
      log.error({ event: 'http_error', path: path.slice(0, 100), err: error.message }, 'could not serve a file of the page');
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'internal', message: 'the server failed to read the file' } }));
    },
  );
}

function asBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
