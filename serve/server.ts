/**
 * `yaniv serve`: the composition root. One Node HTTP server answers `GET /health` and serves the
 * browser page (serve/net/http.ts), and upgrades WebSocket connections after the checks of
 * serve/net/upgrade.ts (serve/net/sockets.ts); each connection speaks the protocol of serve/protocol/protocol.ts
 * (serve/net/connection.ts) over the tables of serve/tables/tables.ts, kept in a table store (memory, or
 * Redis with --redis), with bots deciding through the inference pool. `close()` stops gracefully:
 * stop accepting, hand the tables over or close them, close clients, let writes finish, stop the
 * inference workers.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';
import { MIN_PLAYERS, resolveRules } from '../env/index.js';
import { packageRoot } from '../agents/models/modelFolder.js';
import { resolveAgent } from '../agents/resolve.js';
import { connectRedis } from '../support/redis.js';
import type { ServerContext } from './net/connection.js';
import { type Health, createHttpServer, listen } from './net/http.js';
import { healthHostServed, hostServed } from './net/upgrade.js';
import { SOCKETS_PER_CONNECTION, guardSockets } from './net/socketShares.js';
import { ModelVersions } from './inference/models.js';
import { type ServerOptions, type ServerOptionsInput, addressShare, parseServerOptions } from './options.js';
import { InferencePool } from './inference/pool.js';
import { playedAgent } from './inference/decide.js';
import { PROTOCOL_VERSION } from './protocol/protocol.js';
import { RedisTableStore } from './tables/redisTableStore.js';
import { ownIdFilter } from './net/ring.js';
import { RuleSetBudget } from './ruleSetBudget.js';
import { SlowLog } from './inference/slowLog.js';
import { Sockets } from './net/sockets.js';
import { TableRegistry } from './tables/tables.js';
import { MemoryTableStore, type TableStore } from './tables/tableStore.js';
import { serverVersion, welcomer } from './welcome.js';

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
  /** The compiled inference worker (default: dist/serve/inference/inferenceWorker.js). */
  workerUrl?: URL;
  /** The table store (default: Redis with options.redis, else this process's memory); the caller closes one it gives. */
  store?: TableStore;
}

/** The HTTP server: health and the page, every socket held to its address's share, upgrades to `sockets`. */
function openHttp(options: ServerOptions, log: Logger, health: () => Health, sockets: Sockets): Server {
  const answers = {
    health,
    hostServed: (req: IncomingMessage) => hostServed(req, options),
    healthHostServed: (req: IncomingMessage) => healthHostServed(req, options),
  };
  const http = createHttpServer(packageRoot(), log, answers, options.helloTimeoutMs);
  const share = addressShare(options.maxConnectionsPerAddress, options.maxConnections);
  guardSockets(http, { perAddress: SOCKETS_PER_CONNECTION * share, trusted: options.trustProxy }, log);
  http.on('upgrade', (req, socket, head) => sockets.upgrade(req, socket, head));
  return http;
}

/** How long a client told to reconnect (drain) should wait: the tables are handed over before it is told. */
const RECONNECT_RETRY_MS = 200;

export async function startServer(input: ServerOptionsInput = {}, start: StartOptions = {}): Promise<RunningServer> {
  const options = parseServerOptions(input);
  resolveRules({ preset: options.preset, rules: options.rules, players: 2 });
  const log = start.logger ?? pino({ base: { service: 'yaniv-serve' } }, pino.destination(2));
  const services = await openServices(options, start, log);
  const { store, pool, models } = services;
  const tables = openTables(options, services, log);
  const slow = new SlowLog(log);
  let shuttingDown = false;
  const ctx: ServerContext = {
    options,
    tables,
    pool,
    log,
    slow,
    ruleSets: new RuleSetBudget(options.newRuleSetsPerMinute),
    agents: new Set(options.agents),
    models,
    welcome: welcomer(options, store.kind, models),
    draining: () => shuttingDown,
  };
  const sockets = new Sockets(ctx, log);
  const health = healthOf({ options, services, tables, sockets, draining: () => shuttingDown });
  const http = openHttp(options, log, health, sockets);
  const sweeper = sweepIdleTables(tables, options.idleTableMs, log);
  let port: number;
  try {
    port = await listen(http, options.host, options.port);
  } catch (error) {
    sockets.stop();
    clearInterval(sweeper);
    await services.close();
    throw error;
  }
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `ws://${host}:${port}/`;
  log.info({ event: 'listening', url, agents: options.agents, workers: options.workers }, 'yaniv serve listening');

  async function close(): Promise<void> {
    shuttingDown = true;
    clearInterval(sweeper);
    const cutOff = new Promise<void>((resolve) => setTimeout(resolve, options.shutdownMs).unref());
    await sockets.close({
      shared: store.shared,
      handOver: () => tables.drain(),
      tables: () => tables.size,
      cutOff,
      retryMs: RECONNECT_RETRY_MS,
    });
    // Listening until the tables are handed over: /health answers 503 (draining) meanwhile.
    const httpClosed = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    tables.closeAll();
    slow.close();
    await services.close();
    await httpClosed;
    log.info({ event: 'stopped' }, 'yaniv serve stopped');
  }

  let closing: Promise<void> | null = null;
  return {
    url,
    pageUrl: `http://${host}:${port}/`,
    port,
    options,
    stats: () => ({ connections: sockets.size, tables: tables.size, inference: { ...pool.stats } }),
    close: () => (closing ??= close()),
  };
}

/** What `GET /health` answers now (serve/http.ts): degraded while the store is out of reach, a worker stuck or the queue full. */
function healthOf(server: {
  readonly options: ServerOptions;
  readonly services: Services;
  readonly tables: TableRegistry;
  readonly sockets: Sockets;
  draining(): boolean;
}): () => Health {
  const { options, services, tables, sockets } = server;
  const { store, pool, models } = services;
  const started = Date.now();
  const version = serverVersion();
  return () => {
    const inference = pool.pressure();
    const healthy = store.available && inference.stuckWorkers === 0 && !inference.queueFull;
    return {
      status: server.draining() ? 'shutting_down' : healthy ? 'ok' : 'degraded',
      store: store.kind,
      storeAvailable: store.available,
      draining: server.draining(),
      version,
      protocol: PROTOCOL_VERSION,
      models: models.versions(),
      uptime: Math.round((Date.now() - started) / 1000),
      tables: tables.live,
      tablesHeld: tables.size,
      connections: sockets.size,
      tokenRequired: options.token !== null,
      stuckWorkers: inference.stuckWorkers,
      queued: inference.queued,
    };
  };
}

interface Services {
  readonly store: TableStore;
  readonly pool: InferencePool;
  /** Published model versions: followed through Redis with --redis, else none (each agent as started). */
  readonly models: ModelVersions;
  /** Closes the pool, the model versions and the store (unless the caller gave it). */
  close(): Promise<void>;
}

/** The table store, the inference pool and the model versions, started; on a failure, whatever started is closed. */
async function openServices(options: ServerOptions, start: StartOptions, log: Logger): Promise<Services> {
  const store = start.store ?? (await openStore(options, log));
  const closeStore = () => (start.store ? Promise.resolve() : store.close());
  const pool = new InferencePool(
    {
      workers: options.workers,
      batchMax: options.batchMax,
      batchWindowMs: options.batchWindowMs,
      deadlineMs: options.requestDeadlineMs,
      maxQueue: options.maxQueue,
      ...(start.workerUrl ? { workerUrl: start.workerUrl } : {}),
    },
    // Each served agent loaded as it plays at the server's default table heads-up (other tables load theirs on first use).
    options.agents.map((agent) => playedAgent(resolveAgent(agent, { preset: options.preset, rules: options.rules, players: MIN_PLAYERS }))),
    log,
  );
  let models: Awaited<ReturnType<typeof openModels>>;
  try {
    await pool.start();
    models = await openModels(options, pool, log);
  } catch (error) {
    await closeStore();
    await pool.close();
    throw error;
  }
  const close = async () => {
    await pool.close();
    models.close();
    await closeStore();
  };
  return { store, pool, models: models.models, close };
}

function openStore(options: ServerOptions, log: Logger): TableStore | Promise<TableStore> {
  if (options.redis === null) return new MemoryTableStore();
  return RedisTableStore.connect({ url: options.redis, owner: instanceName(), log });
}

/** This process, as the owner it writes into the tables it holds in a shared store. */
function instanceName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

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

/** The tables, their bots deciding through the pool (a table pinned to a published model version plays that one). */
function openTables(options: ServerOptions, services: Services, log: Logger): TableRegistry {
  const { pool, models, store } = services;
  return new TableRegistry(
    {
      maxTables: options.maxTables,
      maxPerAddress: addressShare(options.maxTablesPerAddress, options.maxTables),
      abandonedGraceMs: options.abandonedGraceMs,
    },
    {
      resolve: async (agent, table, modelVersion) =>
        modelVersion === null ? resolveAgent(agent, table) : resolveAgent(agent, table, await models.pinned(agent, modelVersion)),
      decide: (agent, view, seed) => pool.decide({ agent: playedAgent(agent), source: { kind: 'playerView', view }, seed, explain: false }),
      log,
      now: Date.now,
      idleMs: options.idleTableMs,
      standInMs: options.standInMs,
    },
    store,
    ownIdFilter(options.peers, options.advertise ?? `${options.host}:${options.port}`),
  );
}

/** Closes the tables no client touched for `idleMs`, checked a few times per `idleMs`. */
function sweepIdleTables(tables: TableRegistry, idleMs: number, log: Logger): NodeJS.Timeout {
  return setInterval(
    () => {
      for (const table of tables.expire(Date.now(), idleMs)) log.info({ event: 'table_expired', table: table.id }, 'idle table closed');
    },
    Math.min(30_000, Math.max(50, Math.floor(idleMs / 4))),
  );
}
