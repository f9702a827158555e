/**
 * The answer to hello: what this server offers — the protocol and formats, the rule presets and
 * options, the agents served (with the card of each trained model, its published version, and
 * for plain `neural` each preset's own model), the limits (picked from the server's options by
 * the welcome schema's own keys) and the table store.
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
import { type ModelCard, packageRoot, trainingMismatch } from '../agents/modelFolder.js';
import { agentAbilities, agentModelCard, describeAgents, parseAgentSpec, specForPreset } from '../agents/registry.js';
import type { ModelVersions } from './models.js';
import type { ServerOptions } from './options.js';
import { type Encoding, type Msg, PROTOCOL_VERSION, type RequestId, SUBPROTOCOLS, welcomeLimitsSchema } from './protocol.js';
import type { TableStore } from './tableStore.js';
import { VIEW_FORMAT } from './viewJson.js';

type Welcome = Msg<'welcome'>;

/** The project's version, from package.json. */
export function serverVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The welcome limits: the server options the welcome schema names, as set. */
export function welcomeLimits(options: ServerOptions): Welcome['limits'] {
  const limits = Object.fromEntries(Object.keys(welcomeLimitsSchema.shape).map((key) => [key, options[key as keyof ServerOptions]]));
  return welcomeLimitsSchema.parse({ ...limits, rules: { ...options.rules } });
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
  };
  const agents = servedAgents(options, models);
  return (id, encoding) => ({ ...base, agents: agents(), id, encoding });
}

/** What is served now: a published model's card and version once one is adopted. */
function servedAgents(options: ServerOptions, models: ModelVersions): () => Welcome['agents'] {
  const descriptions = new Map(describeAgents().map((a) => [a.name as string, a.description]));
  const specs = options.agents.map((spec) => ({
    spec,
    description: descriptions.get(parseAgentSpec(spec).name) ?? '',
    startCard: agentModelCard(specForPreset(spec, options.preset)),
    presetModels: presetModelCards(spec),
  }));
  return () =>
    specs.map(({ spec, description, startCard, presetModels }) => {
      const published = models.served(spec);
      const card = published?.card ?? startCard;
      const ownModels = published ? undefined : presetModels;
      return {
        name: spec,
        description,
        ...agentAbilities(spec),
        ...(card ? { model: servedCard(card, options.preset, options.rules) } : {}),
        ...(published ? { modelVersion: published.version } : {}),
        ...(ownModels ? { presetModels: ownModels } : {}),
      };
    });
}

/** For plain `neural`: each preset that plays a model of its own (specForPreset), with that model's card; else undefined. */
function presetModelCards(spec: string): Record<string, Record<string, unknown>> | undefined {
  const entries = PRESET_NAMES.flatMap((preset) => {
    const own = specForPreset(spec, preset);
    const card = own === spec ? null : agentModelCard(own);
    return card ? [[preset, servedCard(card, preset, {})] as const] : [];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** A model's card as welcome shows it: with, per table size, why it may play below its strength under the server's rules (`mismatch`), or null. */
function servedCard(card: ModelCard, preset: string, rules: object): Record<string, unknown> {
  const mismatch = Object.fromEntries(
    Array.from({ length: MAX_PLAYERS - MIN_PLAYERS + 1 }, (_, i) => {
      const players = MIN_PLAYERS + i;
      return [String(players), trainingMismatch(card, preset, rules, players)];
    }),
  );
  return { ...card, mismatch };
}
