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
import { type ModelCard, readModelCard } from '../../agents/models/modelCard.js';
import { resolveModelDir } from '../../agents/models/modelFolder.js';
import { AgentSpecError, parseAgentSpec, takesPublishedModels } from '../../agents/registry.js';
import {
  type PublishedLookup,
  type PublishedModel,
  type ResolvedAgent,
  type TableKind,
  modelFolder,
  resolveAgent,
} from '../../agents/resolve.js';
import type { PlayedModel } from '../protocol/protocol.js';
import { type PlayedAgent, playedAgent } from './decide.js';
import { METADATA_JSON, MODEL_JSON } from '../../nn/modelFiles.js';

export const MODELS_CHANNEL = 'yaniv:models';
export const EXPECT_KEY = 'yaniv:models:expect';
/** Versions kept per agent (older ones are deleted when a new one is published). */
export const KEPT_VERSIONS = 8;

export function modelKeys(agent: string) {
  const base = `yaniv:models:{${agent}}:`;
  return { counter: `${base}counter`, latest: `${base}latest`, version: (v: number) => `${base}v${v}` };
}

/** Whether a spec names an agent whose registry row takes published models (a bad spec does not). */
function publishableSpec(spec: string): boolean {
  try {
    return takesPublishedModels(spec);
  } catch (error) {
    if (error instanceof AgentSpecError) return false;
    throw error;
  }
}

/** The settings of `yaniv publish-model` (its flags). */
export const publishModelSchema = z.strictObject({
  redis: redisUrlSchema().describe('The Redis the servers use (yaniv serve --redis).'),
  agent: z
    .string()
    .min(1)
    .refine(publishableSpec, { error: 'must be a neural agent as served (e.g. neural)' })
    .default('neural')
    .describe('The served agent the model replaces (as in yaniv serve --agents).'),
});
export const PUBLISH_MODEL_FLAGS: FlagSpecs<typeof publishModelSchema.shape> = {
  redis: { value: '<url>', env: REDIS_ENV },
  agent: { value: '<spec>' },
};

/** What this build runs: a published model must have been trained for it (the whole model contract, which a server announces). */
export const SERVED_VERSIONS = MODEL_CONTRACT;

/** The contract the servers announce in Redis (EXPECT_KEY), as read back: checked, never cast. */
const servedVersionsSchema = z.looseObject({
  observationVersion: z.string(),
  actionSpaceVersion: z.string(),
  actionFeaturesVersion: z.string().optional(),
});
type ServedVersions = z.output<typeof servedVersionsSchema>;

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

const CONTRACT_FIELDS = [
  ['observationVersion', 'observation version'],
  ['actionSpaceVersion', 'action-space version'],
  ['actionFeaturesVersion', 'action-features version'],
] as const;

/**
 * Refuses a model whose contract differs from `expected`, naming both: the observation, the action
 * space and, for a network that reads action features, their version (the whole model contract).
 */
export function checkVersions(card: ModelCard, expected: ServedVersions, whose: string): void {
  for (const [field, label] of CONTRACT_FIELDS) {
    const want = expected[field];
    const have = card[field];
    if (want === undefined || (field === 'actionFeaturesVersion' && have === null)) continue;
    if (have !== want)
      throw new PublishError(
        `the model's ${label} is ${JSON.stringify(have)} but ${whose} ${JSON.stringify(want)}: train it again for this build`,
      );
  }
}

/** The contract the servers announced, or null when none did; a malformed one is an error naming the key. */
function announcedVersions(raw: string | null): ServedVersions | null {
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const result = servedVersionsSchema.safeParse(parsed);
  if (!result.success) throw new PublishError(`${EXPECT_KEY} in Redis is not a model contract: ${result.error.issues[0].message}`);
  return result.data;
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
  const expect = announcedVersions(await redis.get(EXPECT_KEY));
  if (expect !== null) checkVersions(card, expect, 'the servers run');
  const files = modelFiles(dir);
  const keys = modelKeys(agent);
  const version = await redis.incr(keys.counter);
  await redis.hset(keys.version(version), files);
  await redis.set(keys.latest, version);
  if (version > KEPT_VERSIONS) await redis.del(keys.version(version - KEPT_VERSIONS));
  await redis.publish(MODELS_CHANNEL, `${agent} ${version}`);
  return { version, dir };
}

/** What the pool offers the published versions: loading an agent in every worker. */
export interface AgentLoader {
  load(agent: PlayedAgent): Promise<void>;
}

/** The model a resolved agent plays, as the protocol tells it (a published version by its number; null: no model). */
export function playedModelOf(agent: ResolvedAgent): PlayedModel | null {
  const model = modelFolder(agent);
  if (model === null) return null;
  if (agent.model?.kind === 'published') return { model, fit: null, mismatch: agent.mismatch, version: agent.model.version };
  return { model, fit: agent.fit, mismatch: agent.mismatch };
}

/**
 * The published versions a server serves: the latest of each agent for new tables and advice, and
 * any kept version for the tables that started on it. Without Redis, every agent is served as
 * started.
 */
export class ModelVersions {
  private readonly latest = new Map<string, PublishedModel>();
  private readonly loading = new Map<string, Promise<PublishedModel>>();
  private readonly cache = path.join(tmpdir(), 'yaniv-models', `${process.pid}-${randomBytes(4).toString('hex')}`);

  constructor(
    private readonly redis: Redis | null,
    private readonly loader: AgentLoader,
    private readonly agents: readonly string[],
    private readonly log: Logger,
  ) {}

  /** The agents a model can be published for: the served ones whose registry row takes published models. */
  private publishable(agent: string): boolean {
    return this.agents.includes(agent) && takesPublishedModels(agent);
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

  /** The latest version of a served agent (null: the model it started with), for the resolver. */
  readonly published: PublishedLookup = (agent) => this.latest.get(agent) ?? null;

  /**
   * What advice and new tables of this kind play now (agents/resolve.ts): the latest published
   * version where it was trained for the table's preset and size, else what the agent resolves to.
   */
  current(agent: string, table: TableKind): ResolvedAgent {
    return resolveAgent(agent, table, this.published);
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

  /** What a table pinned to a version of an agent resolves with (the version loaded here first if need be). */
  async pinned(agent: string, version: number): Promise<PublishedLookup> {
    const published = await this.load(agent, version);
    return (asked) => (asked === agent ? published : null);
  }

  private load(agent: string, version: number): Promise<PublishedModel> {
    const key = `${agent}@${version}`;
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.fetch(agent, version);
      this.loading.set(key, loading);
      loading.catch(() => this.loading.delete(key));
    }
    return loading;
  }

  private async fetch(agent: string, version: number): Promise<PublishedModel> {
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
    const published: PublishedModel = { agent, version, folder: dir, card };
    // Loaded where it plays: a table of its preset at the first size it was trained at.
    await this.loader.load(playedAgent(resolveAgent(agent, { preset: card.rules.preset, players: card.players[0] }, () => published)));
    return published;
  }
}
