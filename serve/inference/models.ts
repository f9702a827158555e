/**
 * Models published while serving (`yaniv publish-model DIR --redis URL`). In Redis, per served
 * agent (its spec as served, e.g. `neural`):
 *
 *   yaniv:models:{<agent>}:counter     the last version number handed out
 *   yaniv:models:{<agent>}:latest      the version new tables and advice get
 *   yaniv:models:{<agent>}:v<N>        hash: file name → bytes (metadata.json, model.json, its weights)
 *   yaniv:models:expect                JSON: the observation and action-space versions the servers run
 *   yaniv:models                       pub/sub channel: "<agent> <N>" for each version published
 *
 * The last few versions are kept, so that a table that started on one goes on with it on any
 * process (the table's settings name the version; a process that lacks it loads it). A server
 * loads a new version into every inference worker before it serves it; one that fails to load is
 * refused and logged, and the version before it keeps serving.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { REDIS_ENV, redisUrlSchema } from '../../support/redis.js';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { FlagSpecs } from '../../support/schemaFlags.js';
import { MODEL_CONTRACT } from '../../env/gym/modelContract.js';
import { type ModelCard, readModelCard, trainingMismatch } from '../../agents/models/modelCard.js';
import { resolveModelDir } from '../../agents/models/modelFolder.js';
import { parseAgentSpec } from '../../agents/registry.js';
import { type TableKind, resolveAgent, ruleChoiceOf } from '../../agents/resolve.js';
import type { PlayedModel } from '../protocol/protocol.js';
import { METADATA_JSON, MODEL_JSON } from '../../nn/modelFiles.js';

export const MODELS_CHANNEL = 'yaniv:models';
export const EXPECT_KEY = 'yaniv:models:expect';
/** Versions kept per agent (older ones are deleted when a new one is published). */
export const KEPT_VERSIONS = 8;

export function modelKeys(agent: string) {
  const base = `yaniv:models:{${agent}}:`;
  return { counter: `${base}counter`, latest: `${base}latest`, version: (v: number) => `${base}v${v}` };
}

/** The settings of `yaniv publish-model` (its flags). */
export const publishModelSchema = z.strictObject({
  redis: redisUrlSchema().describe('The Redis the servers use (yaniv serve --redis).'),
  agent: z
    .string()
    .min(1)
    .refine((spec) => /^neural(?:[:?]|$)/.test(spec), { error: 'must be a neural agent as served (e.g. neural)' })
    .default('neural')
    .describe('The served agent the model replaces (as in yaniv serve --agents).'),
});
export const PUBLISH_MODEL_FLAGS: FlagSpecs<typeof publishModelSchema.shape> = {
  redis: { value: '<url>', env: REDIS_ENV },
  agent: { value: '<spec>' },
};

/** What this build runs: a published model must have been trained for it (the model contract's versions a server announces). */
export const SERVED_VERSIONS = {
  observationVersion: MODEL_CONTRACT.observationVersion,
  actionSpaceVersion: MODEL_CONTRACT.actionSpaceVersion,
};

/** A model that cannot be published: versions that differ (both named), or a folder that is not a model. */
export class PublishError extends Error {
  override name = 'PublishError';
}

/** The files of a model folder: metadata.json, model.json and the weight files its manifest names. */
export function modelFiles(dir: string): Record<string, Buffer> {
  const model = JSON.parse(readFileSync(path.join(dir, MODEL_JSON), 'utf8')) as { weightsManifest?: { paths?: string[] }[] };
  const weights = (model.weightsManifest ?? []).flatMap((group) => group.paths ?? []);
  const files: Record<string, Buffer> = {};
  for (const name of [METADATA_JSON, MODEL_JSON, ...weights]) {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.'))
      throw new PublishError(`model.json names the weight file ${JSON.stringify(name)}, which is not a plain file name`);
    files[name] = readFileSync(path.join(dir, name));
  }
  return files;
}

/** Refuses a model whose versions differ from `expected`, naming both. */
export function checkVersions(card: ModelCard, expected: typeof SERVED_VERSIONS, whose: string): void {
  for (const [field, label] of [
    ['observationVersion', 'observation version'],
    ['actionSpaceVersion', 'action-space version'],
  ] as const) {
    if (card[field] !== expected[field])
      throw new PublishError(
        `the model's ${label} is ${JSON.stringify(card[field])} but ${whose} ${JSON.stringify(expected[field])}: train it again for this build`,
      );
  }
}

/** Publishes a model folder as the next version of `agent`; returns the version. */
export async function publishModel(redis: Redis, agent: string, dirArg: string): Promise<{ version: number; dir: string }> {
  let dir: string;
  let card: ModelCard;
  try {
    dir = resolveModelDir(dirArg);
    card = readModelCard(dir);
  } catch (error) {
    throw new PublishError((error as Error).message);
  }
  checkVersions(card, SERVED_VERSIONS, 'this build runs');
  const expect = await redis.get(EXPECT_KEY);
  if (expect !== null) checkVersions(card, JSON.parse(expect) as typeof SERVED_VERSIONS, 'the servers run');
  const files = modelFiles(dir);
  const keys = modelKeys(agent);
  const version = await redis.incr(keys.counter);
  await redis.hset(keys.version(version), files);
  await redis.set(keys.latest, version);
  if (version > KEPT_VERSIONS) await redis.del(keys.version(version - KEPT_VERSIONS));
  await redis.publish(MODELS_CHANNEL, `${agent} ${version}`);
  return { version, dir };
}

/** What the pool offers the registry: loading an agent spec in every worker. */
export interface AgentLoader {
  load(spec: string): Promise<void>;
}

interface Served {
  readonly version: number;
  readonly spec: string;
  readonly card: ModelCard;
}

/**
 * The published versions a server serves: the latest of each agent for new tables and advice, and
 * any kept version for the tables that started on it. Without Redis, every agent is served as
 * started.
 */
export class ModelVersions {
  private readonly latest = new Map<string, Served>();
  private readonly loading = new Map<string, Promise<Served>>();
  private readonly cache = path.join(tmpdir(), 'yaniv-models', `${process.pid}-${randomBytes(4).toString('hex')}`);

  constructor(
    private readonly redis: Redis | null,
    private readonly loader: AgentLoader,
    private readonly agents: readonly string[],
    private readonly log: Logger,
  ) {}

  /** The agents a model can be published for: the served neural ones. */
  private publishable(agent: string): boolean {
    return this.agents.includes(agent) && parseAgentSpec(agent).name === 'neural';
  }

  /** Announces this build's versions, adopts each agent's latest version, and follows new ones. */
  async start(subscriber: Redis | null): Promise<void> {
    const redis = this.redis;
    if (!redis) return;
    await redis.set(EXPECT_KEY, JSON.stringify(SERVED_VERSIONS));
    subscriber?.on('message', (channel: string, message: string) => {
      if (channel !== MODELS_CHANNEL) return;
      const [agent, version] = message.split(' ');
      void this.adopt(agent, Number(version));
    });
    await subscriber?.subscribe(MODELS_CHANNEL);
    for (const agent of this.agents.filter((a) => this.publishable(a))) {
      const latest = await redis.get(modelKeys(agent).latest);
      if (latest !== null) await this.adopt(agent, Number(latest));
    }
  }

  /** Serves a version to new tables and advice once it loads; a version that fails is refused (logged) and the old one stays. */
  async adopt(agent: string, version: number): Promise<void> {
    if (!this.publishable(agent) || !Number.isInteger(version)) return;
    if ((this.latest.get(agent)?.version ?? 0) >= version) return;
    try {
      const served = await this.load(agent, version);
      if ((this.latest.get(agent)?.version ?? 0) >= version) return;
      this.latest.set(agent, served);
      this.log.warn({ event: 'model_adopted', agent, version }, `serving ${agent} version ${version} to new tables`);
    } catch (error) {
      this.log.error(
        { event: 'model_refused', agent, version, err: (error as Error).message },
        `model version ${version} of ${agent} refused: the version before it keeps serving`,
      );
    }
  }

  /** Per served agent, the published version it serves (null: the model it started with). */
  versions(): Record<string, number | null> {
    return Object.fromEntries(this.agents.map((agent) => [agent, this.versionFor(agent)]));
  }

  /** The version new tables of this agent play (null: the model the server started with). */
  versionFor(agent: string): number | null {
    return this.latest.get(agent)?.version ?? null;
  }

  /**
   * What advice and new tables of this kind play now: a published model, else what the agent
   * resolves to there (agents/resolve.ts) — the spec, and the model it plays (null: no model).
   */
  current(agent: string, table: TableKind): { spec: string; model: PlayedModel | null } {
    const published = this.latest.get(agent);
    if (published) {
      const mismatch = trainingMismatch(published.card, ruleChoiceOf(table), table.players);
      return {
        spec: published.spec,
        model: { model: `${agent} version ${published.version}`, fit: null, mismatch, version: published.version },
      };
    }
    const { spec, model, fit, mismatch } = resolveAgent(agent, table);
    return { spec, model: model === null ? null : { model, fit, mismatch } };
  }

  /** The card of what is served now, with its version (null: as started). */
  served(agent: string): { card: ModelCard; version: number } | null {
    const served = this.latest.get(agent);
    return served ? { card: served.card, version: served.version } : null;
  }

  /** Deletes the model files this process wrote (the agents already loaded them). */
  close(): void {
    rmSync(this.cache, { recursive: true, force: true });
  }

  /** The spec of a version (loaded here first if need be). */
  async specFor(agent: string, version: number | null): Promise<string> {
    if (version === null) return agent;
    return (await this.load(agent, version)).spec;
  }

  private load(agent: string, version: number): Promise<Served> {
    const key = `${agent}@${version}`;
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.fetch(agent, version);
      this.loading.set(key, loading);
      loading.catch(() => this.loading.delete(key));
    }
    return loading;
  }

  private async fetch(agent: string, version: number): Promise<Served> {
    if (!this.redis) throw new Error('models are published through Redis (--redis)');
    const files = await this.redis.hgetallBuffer(modelKeys(agent).version(version));
    if (Object.keys(files).length === 0)
      throw new Error(`version ${version} of ${agent} is not in Redis (only the last ${KEPT_VERSIONS} are kept)`);
    const dir = path.join(this.cache, `${parseAgentSpec(agent).name}-${encodeURIComponent(agent)}-v${version}`);
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(files)) {
      if (name.includes('/') || name.includes('\\') || name.startsWith('.'))
        throw new Error(`the published file name ${JSON.stringify(name)} is not a plain file name`);
      writeFileSync(path.join(dir, name), bytes);
    }
    const card = readModelCard(dir);
    checkVersions(card, SERVED_VERSIONS, 'this server runs');
    const query = agent.indexOf('?');
    const spec = `neural:${dir}${query < 0 ? '' : agent.slice(query)}`;
    await this.loader.load(spec);
    return { version, spec, card };
  }
}
