/** The server's settings, each with its default, validated once (errors name the option). */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { ruleSelectionSchema } from '../env/rules/rules.js';
import { formatOptionIssues } from '../env/rules/schema.js';
import { DEFAULT_MAX_TURNS } from '../agents/tournament/match.js';

const int = (lo: number, hi = Number.MAX_SAFE_INTEGER) =>
  z
    .int({ error: `must be an integer from ${lo} to ${hi}` })
    .min(lo, { error: `must be an integer from ${lo} to ${hi}` })
    .max(hi, { error: `must be an integer from ${lo} to ${hi}` });

/**
 * The agents served by default, the default advisor first: `strong` (it still beats the shipped
 * model heads-up, models/README.md), then the shipped model (models/standard) and the others.
 */
export const DEFAULT_AGENTS = ['strong', 'neural', 'rollout', 'intermediate', 'novice', 'random'];

export const serverOptionsSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1').describe('Interface to listen on (loopback by default).'),
  port: int(0, 65535).default(8080).describe('TCP port; 0 picks a free one.'),
  agents: z
    .array(z.string().min(1))
    .min(1, { error: 'must name at least one agent' })
    .default(DEFAULT_AGENTS)
    .describe('Agent specs served, the default (for advice) first.'),
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
  maxConnections: int(1).default(1000),
  maxTables: int(1).default(1000).describe('Tables on the whole server.'),
  maxTablesPerConnection: int(1).default(16),
  maxMessagesPerSecond: int(1).default(2000).describe("Per connection (a burst of one second's worth is allowed)."),
  maxPending: int(1).default(256).describe('Advice requests in progress per connection.'),
  maxPayload: int(1024, 16 * 1024 * 1024)
    .default(64 * 1024)
    .describe('Largest inbound message, in bytes.'),
  maxBufferedBytes: int(1024)
    .default(4 * 1024 * 1024)
    .describe('A client that lets more than this pile up unread is closed (1013).'),
  heartbeatMs: int(100).default(30_000).describe('Protocol ping interval; a peer that misses one is terminated.'),
  preset: ruleSelectionSchema.shape.preset.describe('Rule preset of tables whose create_table names neither preset nor rules.'),
  rules: ruleSelectionSchema.shape.rules.describe('Rule overrides of such tables.'),
  thinkMs: int(0, 10_000).default(0).describe('Default bot think delay.'),
  moveDeadlineMs: int(100, 3_600_000).nullable().default(120_000).describe('Default time a client seat has for each step (null: none).'),
  maxTurns: int(1)
    .default(DEFAULT_MAX_TURNS)
    .describe(
      "Whole turns after which a table's game stops unfinished (game_over with truncated: true), as yaniv bench --max-turns: a guard against bots that never end a round.",
    ),
  idleTableMs: int(100)
    .default(10 * 60_000)
    .describe('A table no client touched for this long is closed.'),
  workers: int(0, 64)
    .default(Math.max(1, availableParallelism() - 1))
    .describe('Inference worker threads (0: on the main thread).'),
  batchMax: int(1, 4096).default(64).describe('Largest inference batch.'),
  batchWindowMs: int(0, 1000).default(0).describe('How long a batch waits for company (0: the rest of the event-loop turn).'),
  slowMs: int(1).default(100).describe('Requests slower than this are logged.'),
  shutdownMs: int(0).default(5000).describe('On shutdown, how long clients get to close before they are cut off.'),
  peers: z
    .array(z.string().min(1))
    .default([])
    .describe(
      "Behind deploy/nginx: every server address of the nginx upstream, as its configuration writes them (127.0.0.1:8081); table ids are then minted so that nginx's consistent hash of the id routes to this process.",
    ),
  advertise: z.string().min(1).nullable().default(null).describe("This process's address among `peers` (default: host:port)."),
});

export type ServerOptionsInput = z.input<typeof serverOptionsSchema>;
export type ServerOptions = z.output<typeof serverOptionsSchema>;

export function parseServerOptions(input: ServerOptionsInput): ServerOptions {
  const parsed = serverOptionsSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw new RangeError(formatOptionIssues(parsed.error, 'server option', Object.keys(serverOptionsSchema.shape)));
  return parsed.data;
}
