// Connecting to Redis, shared by the distributed bench (agents/tournament/queue.ts), the distributed
// trainer (training/redisTransport.ts) and the server's table store and model versions (serve/): the
// first connect succeeds or fails with an error naming the problem (never a hang); once up, ioredis
// reconnects by itself.
import { Redis, type RedisOptions } from 'ioredis';
import { z } from 'zod';
import { maskSecrets, redactUrl } from './secret.js';
import { settledWithin } from './stopping.js';

/** The value of every command's --redis flag; `env` names the variable the flag also reads. */
/** The one environment variable every command reads for its Redis URL when --redis is absent (empty: unset). */
export const REDIS_ENV = 'YANIV_REDIS';

export function redisUrlSchema(env: string = REDIS_ENV) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `a Redis URL is required (or ${env})` : 'must be a Redis URL') })
    .regex(/^rediss?:\/\//, { error: 'must be a redis:// or rediss:// URL', abort: true })
    .refine((url) => URL.canParse(url), { error: 'is not a valid URL (a host, and a port from 0 to 65535)' });
}

/** Redis cannot be reached, refuses the password, or has no such run: the CLI exits 2. */
export class TransportSetupError extends Error {
  override name = 'TransportSetupError';
}

/**
 * A connection that is up: the first connect either succeeds or fails with a TransportSetupError
 * naming the problem (never a hang); once up, ioredis reconnects by itself and commands wait for it.
 */
export async function connectRedis(url: string, name: string, overrides: RedisOptions = {}): Promise<Redis> {
  let up = false;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: name,
    connectTimeout: 5000,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => (up ? Math.min(50 * times, 1000) : null),
    ...overrides,
  });
  let lastError: Error | null = null;
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const reason = maskSecrets((lastError ?? (error as Error)).message);
    if (/WRONGPASS|NOAUTH|invalid password|invalid username/i.test(reason))
      throw new TransportSetupError(`Redis at ${redactUrl(url)} refused the credentials: ${reason}`);
    throw new TransportSetupError(`cannot reach Redis at ${redactUrl(url)}: ${reason}`);
  }
  up = true;
  return redis;
}

/**
 * Closes a connection without waiting on a Redis that is gone: QUIT (bounded by `ms`) while the
 * connection is up, else at once a disconnect (ioredis would hold QUIT until Redis is back).
 */
export async function closeRedis(redis: Redis, ms = 2000): Promise<void> {
  if (redis.status === 'ready' && (await settledWithin(redis.quit(), ms))) return;
  redis.disconnect();
}
