/**
 * The Redis table store (`yaniv serve --redis URL`), shared by every server process. Per table,
 * two keys with the table id as hash tag (so that a Redis Cluster keeps them on one shard):
 *
 *   yaniv:table:{<id>}          hash: format, token, settings (JSON), owner, fence, counter, deadline, expireAt
 *   yaniv:table:{<id>}:moves    string: the action ids played, each followed by a comma
 *
 * both expiring when the table would (`PEXPIREAT`, the idle expiry), and the pub/sub channel
 * `yaniv:tables:claims`, which tells every process "<id> <fence>" when a table is claimed. Each
 * write is one Lua script that first checks the writer still owns the table (owner and fence), so
 * a write from an owner that lost its claim is refused whatever the timing; a claim is a
 * compare-and-set on the fence seen at the load, so of two processes claiming one table at once
 * exactly one wins. A move costs one script call: the ids it adds, never the whole table again.
 * A claimed table is read back through the `yaniv-table/1` schema (serve/tables/tableRecord.ts).
 *
 * Commands are not queued while Redis is unreachable (`enableOfflineQueue: false`): a write
 * fails at once as `unavailable`, the table goes on from memory, and it is written whole once the
 * connection is back (`onBack`).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import { connectRedis } from '../../support/redis.js';
import { redactUrl } from '../../support/secret.js';
import { TABLE_RECORD_FORMAT, encodeMoves, parseStoredSettings, parseStoredTable } from './tableRecord.js';
import {
  type Claim,
  type ClaimResult,
  StoreUnavailableError,
  type StoredTable,
  type TableSnapshot,
  type TableStore,
  type WriteOutcome,
} from './tableStore.js';

export const CLAIMS_CHANNEL = 'yaniv:tables:claims';

export function tableKeys(id: string): [string, string] {
  return [`yaniv:table:{${id}}`, `yaniv:table:{${id}}:moves`];
}

/** `owned(ARGV[1], ARGV[2])`: the hash says this owner and fence. */
const OWNED = `
local function owned(owner, fence)
  local h = redis.call('HMGET', KEYS[1], 'owner', 'fence')
  return h[1] == owner and tonumber(h[2]) == tonumber(fence)
end
local function expire(at)
  redis.call('PEXPIREAT', KEYS[1], at)
  redis.call('PEXPIREAT', KEYS[2], at)
end
`;

const SCRIPTS = {
  /** ARGV: owner fence token settings moves counter deadline expireAt format → 1, or -1 lost. */
  put: `${OWNED}
if redis.call('EXISTS', KEYS[1]) == 1 and not owned(ARGV[1], ARGV[2]) then return -1 end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'fence', ARGV[2], 'token', ARGV[3], 'settings', ARGV[4],
  'counter', ARGV[6], 'deadline', ARGV[7], 'expireAt', ARGV[8], 'format', ARGV[9])
redis.call('SET', KEYS[2], ARGV[5])
expire(ARGV[8])
return 1`,
  /** ARGV: owner fence from moves counter deadline expireAt → 1; 0 missing (or not at `from`); -1 lost. */
  append: `${OWNED}
local h = redis.call('HMGET', KEYS[1], 'owner', 'fence', 'counter')
if not h[2] then return 0 end
if h[1] ~= ARGV[1] or tonumber(h[2]) ~= tonumber(ARGV[2]) then return -1 end
if tonumber(h[3]) ~= tonumber(ARGV[3]) then return 0 end
redis.call('APPEND', KEYS[2], ARGV[4])
redis.call('HSET', KEYS[1], 'counter', ARGV[5], 'deadline', ARGV[6], 'expireAt', ARGV[7])
expire(ARGV[7])
return 1`,
  /** ARGV: owner fence expireAt. */
  touch: `${OWNED}
if owned(ARGV[1], ARGV[2]) then
  redis.call('HSET', KEYS[1], 'expireAt', ARGV[3])
  expire(ARGV[3])
end
return 1`,
  /** ARGV: owner fence. */
  remove: `${OWNED}
if owned(ARGV[1], ARGV[2]) then redis.call('DEL', KEYS[1], KEYS[2]) end
return 1`,
  /** ARGV: owner fence: the owner is cleared, the fence kept (the next claim expects it). */
  release: `${OWNED}
if owned(ARGV[1], ARGV[2]) then redis.call('HSET', KEYS[1], 'owner', '') end
return 1`,
  /** ARGV: owner expectedFence id channel → {fence, settings, moves, deadline, expireAt, format}; {0} gone; {-1} conflict. */
  claim: `
local h = redis.call('HMGET', KEYS[1], 'fence', 'settings', 'deadline', 'expireAt', 'format')
if not h[1] then return {0} end
if tonumber(h[1]) ~= tonumber(ARGV[2]) then return {-1} end
local fence = redis.call('HINCRBY', KEYS[1], 'fence', 1)
redis.call('HSET', KEYS[1], 'owner', ARGV[1])
redis.call('PUBLISH', ARGV[4], ARGV[3] .. ' ' .. fence)
return {fence, h[2], redis.call('GET', KEYS[2]) or '', h[3], h[4], h[5] or ''}`,
} as const;
type ScriptName = keyof typeof SCRIPTS;
const SHAS = Object.fromEntries(
  Object.entries(SCRIPTS).map(([name, body]) => [name, createHash('sha1').update(body).digest('hex')]),
) as Record<ScriptName, string>;

/** The claim script's reply: {0} gone, {-1} conflict, else the new fence and the record's fields. */
const claimReply = z.union([
  z.tuple([z.union([z.literal(0), z.literal(-1)])]),
  z.tuple([z.int().min(1), z.string(), z.string(), z.string(), z.string(), z.string()]),
]);

export interface RedisStoreOptions {
  readonly url: string;
  /** This process, as the owner written into the tables it holds. */
  readonly owner: string;
  readonly log: Logger;
}

export class RedisTableStore implements TableStore {
  readonly kind = 'redis';
  readonly shared = true;
  private readonly lostListeners: ((id: string, fence: number) => void)[] = [];
  private readonly backListeners: (() => void)[] = [];
  private down = false;
  /** Bytes of script arguments sent for writes (for the bench's bytes per move). */
  readonly written = { bytes: 0, writes: 0 };

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly options: RedisStoreOptions,
  ) {
    redis.on('close', () => {
      if (!this.down) options.log.warn({ event: 'store_down', url: redactUrl(options.url) }, 'the table store (Redis) is unreachable');
      this.down = true;
    });
    redis.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      options.log.warn({ event: 'store_back', url: redactUrl(options.url) }, 'the table store (Redis) is back');
      for (const listener of this.backListeners) listener();
    });
    subscriber.on('message', (_channel: string, message: string) => {
      const [id, fence] = message.split(' ');
      for (const listener of this.lostListeners) listener(id, Number(fence));
    });
  }

  get available(): boolean {
    return !this.down;
  }

  /** Connects (both the command and the subscriber connection); throws TransportSetupError naming the problem. */
  static async connect(options: RedisStoreOptions): Promise<RedisTableStore> {
    const overrides = { enableOfflineQueue: false, commandTimeout: 2000, enableAutoPipelining: true };
    const redis = await connectRedis(options.url, 'yaniv-serve-tables', overrides);
    const subscriber = await connectRedis(options.url, 'yaniv-serve-claims');
    try {
      await subscriber.subscribe(CLAIMS_CHANNEL);
    } catch (error) {
      redis.disconnect();
      subscriber.disconnect();
      throw error;
    }
    return new RedisTableStore(redis, subscriber, options);
  }

  private async run(name: ScriptName, id: string, args: (string | number)[]): Promise<unknown> {
    const keys = tableKeys(id);
    try {
      return await this.redis.evalsha(SHAS[name], 2, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.redis.eval(SCRIPTS[name], 2, ...keys, ...args);
    }
  }

  private async write(name: ScriptName, id: string, args: (string | number)[]): Promise<WriteOutcome> {
    this.written.writes++;
    for (const arg of args) this.written.bytes += String(arg).length;
    try {
      const result = await this.run(name, id, args);
      return result === 1 ? 'ok' : result === -1 ? 'lost' : 'missing';
    } catch (error) {
      this.options.log.debug({ event: 'store_write_failed', table: id, err: (error as Error).message }, 'a table write failed');
      return 'unavailable';
    }
  }

  put(claim: Claim, snapshot: TableSnapshot): Promise<WriteOutcome> {
    const { settings, moves, deadlineAt, expireAt } = snapshot;
    return this.write('put', claim.id, [
      this.options.owner,
      claim.fence,
      settings.token,
      JSON.stringify(settings),
      encodeMoves(moves),
      moves.length,
      deadlineAt ?? '',
      expireAt,
      TABLE_RECORD_FORMAT,
    ]);
  }

  append(claim: Claim, from: number, moves: readonly number[], deadlineAt: number | null, expireAt: number): Promise<WriteOutcome> {
    return this.write('append', claim.id, [
      this.options.owner,
      claim.fence,
      from,
      encodeMoves(moves),
      from + moves.length,
      deadlineAt ?? '',
      expireAt,
    ]);
  }

  touch(claim: Claim, expireAt: number): void {
    void this.write('touch', claim.id, [this.options.owner, claim.fence, expireAt]);
  }

  remove(claim: Claim): void {
    void this.write('remove', claim.id, [this.options.owner, claim.fence]);
  }

  async release(claim: Claim): Promise<void> {
    await this.write('release', claim.id, [this.options.owner, claim.fence]);
  }

  async load(id: string): Promise<StoredTable | null> {
    let fields: (string | null)[];
    try {
      fields = await this.redis.hmget(tableKeys(id)[0], 'settings', 'fence');
    } catch (error) {
      throw new StoreUnavailableError(`the table store cannot be reached: ${(error as Error).message}`);
    }
    const [settings, fence] = fields;
    return settings === null || fence === null ? null : { settings: parseStoredSettings(settings, id), fence: Number(fence) };
  }

  async claim(id: string, fence: number): Promise<ClaimResult> {
    let reply: unknown;
    try {
      reply = await this.run('claim', id, [this.options.owner, fence, id, CLAIMS_CHANNEL]);
    } catch (error) {
      throw new StoreUnavailableError(`the table store cannot be reached: ${(error as Error).message}`);
    }
    const fields = claimReply.parse(reply);
    if (fields.length === 1) return { outcome: fields[0] === 0 ? 'gone' : 'conflict' };
    const [newFence, settings, moves, deadline, expireAt, format] = fields;
    const record = parseStoredTable({ format, settings, moves, deadline, expireAt }, id);
    const snapshot: TableSnapshot = {
      settings: record.settings,
      moves: record.moves,
      deadlineAt: record.deadline,
      expireAt: record.expireAt,
    };
    return { outcome: 'ok', claim: { id, fence: newFence }, snapshot };
  }

  onLost(listener: (id: string, fence: number) => void): void {
    this.lostListeners.push(listener);
  }

  onBack(listener: () => void): void {
    this.backListeners.push(listener);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
