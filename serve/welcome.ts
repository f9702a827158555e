/**
 * The answer to hello: what this server offers — the protocol and formats, the rule presets and
 * options, the agents served (with the card of each trained model, its published version, and
 * for plain `neural` which model plays each preset at each table size), the catalog of shipped
 * models, the difficulty levels with their ratings (when `level` is served), the limits (picked
 * from the server's options by the welcome schema's own keys) and the table store.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACTION_SPACE_VERSION,
  MAX_PLAYERS,
  MIN_PLAYERS,
  POSITION_FORMAT,
  PRESETS,
  PRESET_NAMES,
  RECORD_FORMAT,
  ruleOptionsJsonSchema,
} from '../env/index.js';
import { type ModelFit, shippedModels } from '../agents/models/catalog.js';
import { shippedLevels } from '../agents/level.js';
import { type ModelCard, trainingMismatch } from '../agents/models/modelCard.js';
import { packageRoot } from '../agents/models/modelFolder.js';
import { agentAbilities, describeAgents, parseAgentSpec } from '../agents/registry.js';
import { modelFolder, resolveAgent } from '../agents/resolve.js';
import type { ModelVersions } from './inference/models.js';
import { type ServerOptions, messagesPerAddress } from './options.js';
import { type Encoding, type Msg, PROTOCOL_VERSION, type RequestId, SUBPROTOCOLS } from './protocol/protocol.js';
import { welcomeLimitsSchema } from './protocol/protocolParts.js';
import type { TableStore } from './tables/tableStore.js';
import { VIEW_FORMAT } from './protocol/viewJson.js';

type Welcome = Msg<'welcome'>;

/** The project's version, from package.json. */
export function serverVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The welcome limits: the server options the welcome schema names, as in effect (a per-address budget left unset is its default's value). */
export function welcomeLimits(options: ServerOptions): Welcome['limits'] {
  const limits = Object.fromEntries(Object.keys(welcomeLimitsSchema.shape).map((key) => [key, options[key as keyof ServerOptions]]));
  return welcomeLimitsSchema.parse({ ...limits, maxMessagesPerSecondPerAddress: messagesPerAddress(options), rules: { ...options.rules } });
}

/** Builds each connection's welcome; the agents part is read anew each time (a published model changes it). */
export function welcomer(
  options: ServerOptions,
  store: TableStore['kind'],
  models: ModelVersions,
): (id: RequestId, encoding: Encoding) => Welcome {
  const base: Omit<Welcome, 'id' | 'encoding' | 'agents'> = {
    type: 'welcome',
    version: PROTOCOL_VERSION,
    server: { name: 'yaniv-arena', version: serverVersion() },
    encodings: { ...SUBPROTOCOLS },
    actionSpace: ACTION_SPACE_VERSION,
    formats: { view: VIEW_FORMAT, position: POSITION_FORMAT, record: RECORD_FORMAT },
    presets: PRESET_NAMES.map((name) => ({ name, description: PRESETS[name].description, options: { ...PRESETS[name].options } })),
    ruleOptions: ruleOptionsJsonSchema(),
    limits: welcomeLimits(options),
    store,
    models: shippedModels().map(({ folder, card }) => ({ model: folder, card: { ...card } })),
    levels: options.agents.includes('level') ? servedLevels() : [],
  };
  const agents = servedAgents(options, models);
  return (id, encoding) => ({ ...base, agents: agents(), id, encoding });
}

/** What is served now: a published model's card and version once one is adopted. */
function servedAgents(options: ServerOptions, models: ModelVersions): () => Welcome['agents'] {
  const descriptions = new Map(describeAgents().map((a) => [a.name as string, a.description]));
  const defaultTable = { preset: options.preset, rules: options.rules, players: MIN_PLAYERS };
  const specs = options.agents.map((spec) => ({
    spec,
    description: descriptions.get(parseAgentSpec(spec).name) ?? '',
    startCard: resolveAgent(spec, defaultTable).card,
    plays: modelsPlayed(spec),
  }));
  return () =>
    specs.map(({ spec, description, startCard, plays }) => {
      const published = models.served(spec);
      const card = published?.card ?? startCard;
      const played = published ? undefined : plays;
      return {
        name: spec,
        description,
        ...agentAbilities(spec),
        ...(card ? { model: servedCard(card, options.preset, options.rules) } : {}),
        ...(published ? { modelVersion: published.version } : {}),
        ...(played ? { plays: played } : {}),
      };
    });
}

/** The shipped levels of every preset and table size, with their ratings. */
function servedLevels(): Welcome['levels'] {
  return PRESET_NAMES.flatMap((preset) =>
    TABLE_SIZES.flatMap((players) => {
      const file = shippedLevels(preset, players);
      if (file === null) return [];
      const { best, anchor, anchorRating, ratedBy } = file;
      const levels = file.levels.map(({ level, rating, low, high }) => ({ name: `level:${level}`, level, rating, low, high }));
      return [{ preset, players, best, anchor, anchorRating, ratedBy, levels }];
    }),
  );
}

const TABLE_SIZES = Array.from({ length: MAX_PLAYERS - MIN_PLAYERS + 1 }, (_, i) => MIN_PLAYERS + i);

/**
 * For an agent that plays the catalog's models (plain `neural`): which model plays each preset at
 * each table size (agents/resolve.ts), and why it may play below its strength there; else undefined.
 */
function modelsPlayed(spec: string): Welcome['agents'][number]['plays'] {
  // Only an agent whose model the catalog picks (plain neural) has a fit; any other plays itself everywhere.
  if (resolveAgent(spec, { players: MIN_PLAYERS }).fit === null) return undefined;
  const bySize = (preset: string) =>
    Object.fromEntries(
      TABLE_SIZES.map((players) => {
        const resolved = resolveAgent(spec, { preset, players });
        return [String(players), { model: modelFolder(resolved) ?? '', fit: resolved.fit as ModelFit, mismatch: resolved.mismatch }];
      }),
    );
  return Object.fromEntries(PRESET_NAMES.map((preset) => [preset, bySize(preset)]));
}

/** A model's card as welcome shows it: with, per table size, why it may play below its strength under the server's rules (`mismatch`), or null. */
function servedCard(card: ModelCard, preset: string, rules: Record<string, unknown>): Record<string, unknown> {
  const mismatch = Object.fromEntries(TABLE_SIZES.map((players) => [String(players), trainingMismatch(card, { preset, rules }, players)]));
  return { ...card, mismatch };
}
