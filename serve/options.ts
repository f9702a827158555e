/** The server's settings, each with its default, validated once (errors name the option). */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { REDIS_ENV, redisUrlSchema } from '../support/redis.js';
import { RULE_SELECTION_FLAGS, ruleSelectionSchema } from '../env/rules/rules.js';
import { formatOptionIssues, intFrom } from '../support/zod.js';
import { DEFAULT_MAX_TURNS } from '../agents/tournament/match.js';
import { agentSpecSchema } from '../agents/registry.js';
import type { FlagSpecs } from '../support/schemaFlags.js';

/**
 * The agents served by default, the default advisor first: the shipped model (models/standard,
 * which beats `strong` heads-up, models/README.md), then `strong` and the others; `level` offers the
 * shipped difficulty levels (a seat names `level:K`, welcome.levels lists them).
 */
export const DEFAULT_AGENTS = ['neural', 'strong', 'rollout', 'intermediate', 'novice', 'random', 'level'];

/** How many connections' worth of messages one address may send by default (--max-messages-per-second-per-address). */
export const MESSAGES_PER_ADDRESS_FACTOR = 5;

/** HOST:PORT as an nginx `server` line writes it (a name or IPv4 address, or [IPv6]). */
const ADDRESS = /^(?:[^\s:[\]]+|\[[0-9a-fA-F:.]+\]):\d{1,5}$/;

export const serverOptionsSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1').describe('Interface to listen on (loopback by default).'),
  port: intFrom(0, 65535).default(8080).describe('TCP port; 0 picks a free one.'),
  agents: z
    .array(agentSpecSchema)
    .min(1, { error: 'must name at least one agent' })
    .default(DEFAULT_AGENTS)
    .describe(
      'Agent specs served, the default (for advice) first: neural is the shipped model (models/standard, the default advisor since it beats strong heads-up), neural:PATH any other.',
    ),
  token: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe('When set, clients must send it (Authorization: Bearer, or ?token=) or get HTTP 401.'),
  allowOrigins: z
    .array(z.string())
    .default([])
    .describe('Browser origins allowed besides the server\'s own (and loopback ones when it listens on loopback); "*" allows any.'),
  allowHosts: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'Host names the server is reached by besides the address it listens on (and loopback names when that is loopback): a page or upgrade naming another Host is refused (403, DNS rebinding); a server on 0.0.0.0 or :: without this list takes any.',
    ),
  maxConnections: intFrom(1).default(1000).describe('Connections open at once; more are refused (HTTP 503).'),
  maxConnectionsPerAddress: intFrom(1)
    .nullable()
    .default(null)
    .describe(
      'Connections open at once from one client address (see --trust-proxy); more are refused (HTTP 503). Its sockets (page requests besides) are held to twice this: more are closed at once.',
    ),
  helloTimeoutMs: intFrom(100, 600_000)
    .default(10_000)
    .describe(
      'A connection that has not said hello within this is closed (1008); a socket whose HTTP request (the page, the upgrade) is not in within it gets 408.',
    ),
  maxTables: intFrom(1).default(1000).describe('Tables on the whole server.'),
  maxTablesPerAddress: intFrom(1)
    .nullable()
    .default(null)
    .describe('Tables held for one client address, abandoned and finished ones included (table_full past it).'),
  abandonedGraceMs: intFrom(0)
    .default(15_000)
    .describe(
      'A table whose client left it this long ago is closed to make room when a table limit is reached (else it waits for a resume until --idle-table-ms).',
    ),
  maxTablesPerConnection: intFrom(1).default(16).describe('Tables in play per connection (finished games do not count).'),
  inviteMs: intFrom(1000, 7 * 24 * 3_600_000)
    .default(30 * 60_000)
    .describe('How long the invite of a table with guest seats takes joins (join_table), in ms.'),
  maxMessagesPerSecond: intFrom(1)
    .default(2000)
    .describe("Per connection (a burst of one second's worth is allowed); a client past it is told rate_limited and closed (1008)."),
  maxMessagesPerSecondPerAddress: intFrom(1, 100_000_000)
    .nullable()
    .default(null)
    .describe(
      "Shared by all connections of one client address (see --trust-proxy; a burst of one second's worth is allowed); the connection whose message is past it is told rate_limited and closed (1008).",
    ),
  maxPending: intFrom(1).default(256).describe('Advice requests in progress per connection.'),
  maxPayload: intFrom(1024, 16 * 1024 * 1024)
    .default(64 * 1024)
    .describe('Largest inbound message, in bytes.'),
  maxBufferedBytes: intFrom(1024)
    .default(4 * 1024 * 1024)
    .describe('A client that lets more than this pile up unread is closed (1013).'),
  heartbeatMs: intFrom(100).default(30_000).describe('Protocol ping interval; a peer that misses one is terminated.'),
  preset: ruleSelectionSchema.shape.preset.describe('Rule preset of tables whose create_table names neither preset nor rules.'),
  rules: ruleSelectionSchema.shape.rules.describe('Rule overrides of such tables.'),
  thinkMs: intFrom(0, 10_000).default(0).describe('Default bot think delay.'),
  standInMs: intFrom(0, 600_000)
    .default(5000)
    .describe(
      'A guest who leaves a table (a reload, a dropped connection) keeps their turn this long before the stand-in bot plays it, in ms.',
    ),
  moveDeadlineMs: intFrom(100, 3_600_000)
    .nullable()
    .default(120_000)
    .describe('Default time a client seat has for each step (null: none).'),
  maxTurns: intFrom(1)
    .default(DEFAULT_MAX_TURNS)
    .describe(
      "Whole turns after which a table's game stops unfinished (game_over with truncated: true), as yaniv bench --max-turns: a guard against bots that never end a round.",
    ),
  idleTableMs: intFrom(100)
    .default(10 * 60_000)
    .describe('A table no client touched for this long is closed.'),
  workers: intFrom(0, 64)
    .default(Math.max(1, availableParallelism() - 1))
    .describe(
      'Inference worker threads (0: on the main thread, for tests and tiny deployments, where --request-deadline-ms cannot stop a request).',
    ),
  batchMax: intFrom(1, 4096).default(64).describe("Largest inference batch (a cheap agent's, such as strong's: at most 16)."),
  batchWindowMs: intFrom(0, 1000).default(0).describe('How long a batch waits for company (0: the rest of the event-loop turn).'),
  slowMs: intFrom(1).default(100).describe('Requests slower than this are logged.'),
  requestDeadlineMs: intFrom(100, 600_000)
    .default(20_000)
    .describe('An inference request (a bot move, advice) not decided within this is answered timed_out, and its worker replaced.'),
  maxQueue: intFrom(1)
    .default(4096)
    .describe(
      'Inference requests waiting for a worker, a tenth of them of one client address (batches take addresses in turn); past it a request is refused (overloaded), and /health says degraded while the queue is full.',
    ),
  newRuleSetsPerMinute: intFrom(1, 1000)
    .default(6)
    .describe(
      'House-rule sets one client address may ask advice on a minute whose chance to win is not known yet (each is measured by seconds of simulated games); past it advice comes without the chance to win.',
    ),
  trustProxy: z
    .array(z.string().min(1))
    .default([])
    .describe(
      "Addresses of proxies (deploy/nginx) whose X-Forwarded-For names the client: the per-address limits count that client's address, not the proxy's.",
    ),
  shutdownMs: intFrom(0)
    .default(5000)
    .describe('On shutdown (SIGTERM), the bound on handing tables over and letting clients close before they are cut off.'),
  redis: redisUrlSchema()
    .nullable()
    .default(null)
    .describe(
      "The table store shared by every server process (each table written after every step; a resume on any process takes it over); unset: tables live in this process's memory only.",
    ),
  peers: z
    .array(z.string().regex(ADDRESS, { error: 'must be HOST:PORT addresses' }))
    .default([])
    .describe(
      "Behind deploy/nginx: every process's address, exactly as the nginx upstream writes them (127.0.0.1:8081); table ids are then minted so that nginx's consistent hash of the id routes to this process.",
    ),
  advertise: z
    .string()
    .regex(ADDRESS, { error: 'must be a HOST:PORT address' })
    .nullable()
    .default(null)
    .describe("This process's address among the peers."),
});

/** How the server's settings appear as flags of `yaniv serve` where their names and schemas do not say it. */
export const SERVE_FLAGS: FlagSpecs<typeof serverOptionsSchema.shape> = {
  host: { value: '<host>' },
  agents: { value: '<list>' },
  token: { value: '<token>', env: 'YANIV_TOKEN' },
  allowOrigins: { flag: '--allow-origin', value: '<origin>', variadic: true },
  allowHosts: { flag: '--allow-host', value: '<host>', variadic: true },
  ...RULE_SELECTION_FLAGS,
  workers: { defaultText: 'cores − 1 (at least 1)' },
  maxConnectionsPerAddress: { defaultText: 'max-connections / 10' },
  maxMessagesPerSecondPerAddress: { defaultText: `max-messages-per-second × ${MESSAGES_PER_ADDRESS_FACTOR}` },
  maxTablesPerAddress: { defaultText: 'max-tables / 10' },
  redis: { value: '<url>', env: REDIS_ENV },
  peers: { value: '<list>' },
  trustProxy: { value: '<list>' },
  advertise: { value: '<host:port>', defaultText: 'host:port' },
};

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** What the `yaniv serve` process does beside the server. */
export const serveProcessSchema = z.strictObject({
  logLevel: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info')
    .describe('Log level (JSON lines on standard error).'),
});

export type ServerOptionsInput = z.input<typeof serverOptionsSchema>;
export type ServerOptions = z.output<typeof serverOptionsSchema>;

/** One address's share of a server-wide limit: its own setting, else a tenth of the whole (at least 1). */
export function addressShare(own: number | null, whole: number): number {
  return own ?? Math.max(1, Math.floor(whole / 10));
}

/** The messages a second all connections of one address share: its own setting, else five connections' worth. */
export function messagesPerAddress(options: Pick<ServerOptions, 'maxMessagesPerSecond' | 'maxMessagesPerSecondPerAddress'>): number {
  return options.maxMessagesPerSecondPerAddress ?? options.maxMessagesPerSecond * MESSAGES_PER_ADDRESS_FACTOR;
}

export function parseServerOptions(input: ServerOptionsInput): ServerOptions {
  const parsed = serverOptionsSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw new RangeError(formatOptionIssues(parsed.error, 'server option', Object.keys(serverOptionsSchema.shape)));
  return parsed.data;
}
