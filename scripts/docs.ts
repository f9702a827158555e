// Tables in README.md and docs/ that are generated from the code (rule options, presets,
// environment options, action ranges, observation segments, the protocol's messages and errors), so they never drift:
// `npm run docs` rewrites them; test/docs.test.ts fails when they are stale.
import { readFileSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import {
  ACTION_CONTEXT_SEGMENTS,
  ACTION_CONTEXT_SIZE,
  ACTION_FEATURES,
  ACTION_FEATURE_SIZE,
  ADVISER_FEATURE,
  ACTION_FEATURES_VERSION,
} from '../env/gym/actionFeatures.js';
import { ACTION_COUNT, ACTION_RANGE_LIST, ACTION_SPACE_VERSION } from '../env/gym/actionLayout.js';
import { envOptionsSchema } from '../env/gym/episode.js';
import { PAID_AT, REWARD_SCHEMES, REWARD_TABLE } from '../env/gym/rewards.js';
import { OBSERVATION_SEGMENTS, OBSERVATION_SIZE, OBSERVATION_VERSION, OPPONENT_BLOCK, OPPONENT_FIELDS } from '../env/gym/observation.js';
import { DEFAULT_PRESET, PRESETS, PRESET_NAMES, ruleOptionsSchema } from '../env/rules/rules.js';
import { type SchemaFlag, descriptionOf, schemaFlags } from '../support/schemaFlags.js';
import { BENCH_FLAGS, RATE_FLAGS, benchOptionsSchema, rateOptionsSchema } from '../agents/tournament/benchOptions.js';
import { SERVE_FLAGS, serveProcessSchema, serverOptionsSchema } from '../serve/options.js';
import { ERROR_CODES, ERROR_MEANINGS } from '../serve/protocol/errors.js';
import { REPLY_TYPES, clientMessageSchema } from '../serve/protocol/protocol.js';
import { shippedModels } from '../agents/models/catalog.js';
import { EQUITY_FLAGS, equityOptionsSchema } from '../agents/equity/equityOptions.js';
import { CALIBRATION_TARGET, type Decile } from '../agents/equity/calibration.js';
import { shippedCalibrationChecks } from '../agents/equity/calibrationChecks.js';
import { ACTOR_FLAGS, DEFAULT_HYPER_PARAMETERS, TRAIN_FLAGS, actorOptionsSchema } from '../training/config.js';

type Generated = Record<string, () => string>;

/** The markdown table of the action ranges. */
export function actionTableMarkdown(): string {
  const rows = ACTION_RANGE_LIST.map(
    (r) => `| \`${r.name}\` | ${r.start}${r.size > 1 ? `–${r.start + r.size - 1}` : ''} | ${r.size} | ${r.description} |`,
  );
  return [
    '| range | ids | size | meaning |',
    '| --- | --- | --- | --- |',
    ...rows,
    `| **total** | 0–${ACTION_COUNT - 1} | ${ACTION_COUNT} | \`${ACTION_SPACE_VERSION}\` |`,
  ].join('\n');
}

/** The markdown tables of the observation layout. */
export function observationTableMarkdown(): string {
  const rows = OBSERVATION_SEGMENTS.map((s) => `| \`${s.name}\` | ${s.start} | ${s.size} | ${s.description} |`);
  let start = 0;
  const fields = OPPONENT_FIELDS.map((f) => {
    const row = `| \`${f.name}\` | ${start} | ${f.size} | ${f.description} |`;
    start += f.size;
    return row;
  });
  return [
    '| segment | start | size | contents |',
    '| --- | --- | --- | --- |',
    ...rows,
    `| **total** | | ${OBSERVATION_SIZE} | \`${OBSERVATION_VERSION}\` |`,
    '',
    `Each opponent block (${OPPONENT_BLOCK} values):`,
    '',
    '| field | offset | size | contents |',
    '| --- | --- | --- | --- |',
    ...fields,
  ].join('\n');
}

/** The markdown tables of the action features and the action context they are computed from. */
export function actionFeaturesTableMarkdown(): string {
  return [
    '| feature | index | value |',
    '| --- | --- | --- |',
    ...ACTION_FEATURES.map((f) => `| \`${f.name}\` | ${f.index} | ${f.description} |`),
    `| **total** | | ${ACTION_FEATURE_SIZE} per legal action, \`${ACTION_FEATURES_VERSION}\` |`,
    `| \`${ADVISER_FEATURE.name}\` | ${ADVISER_FEATURE.index} | ${ADVISER_FEATURE.description} (the trajectory column \`adviserActions\`; \`yaniv train --adviser\`) |`,
    '',
    `The action context (Int16Array, ${ACTION_CONTEXT_SIZE} numbers per decision, the trajectory column \`actionContexts\`):`,
    '',
    '| segment | start | size | contents |',
    '| --- | --- | --- | --- |',
    ...ACTION_CONTEXT_SEGMENTS.map((s) => `| \`${s.name}\` | ${s.start} | ${s.size} | ${s.description} |`),
  ].join('\n');
}

/** The markdown table of the env options, from the schema. */
export function envOptionsMarkdown(): string {
  const rows = Object.entries(envOptionsSchema.shape).map(([name, schema]) => {
    const parsed = schema.safeParse(undefined);
    const fallback = parsed.success ? `\`${JSON.stringify(parsed.data)}\`` : 'required';
    return `| \`${name}\` | ${fallback} | ${schema.description ?? ''} |`;
  });
  return ['| option | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The markdown table of the reward schemes, from their table. */
export function rewardSchemesTable(): string {
  const rows = REWARD_SCHEMES.map((name) => {
    const scheme = REWARD_TABLE[name];
    return `| \`${name}\` | ${PAID_AT[scheme.per]} | ${scheme.description} |`;
  });
  return ['| reward | paid at | each seat gets |', '| --- | --- | --- |', ...rows].join('\n');
}

function optionDefault(name: string): string {
  const field = ruleOptionsSchema.shape[name as keyof typeof ruleOptionsSchema.shape];
  const parsed = field.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? JSON.stringify(parsed.data) : 'by table size';
}

export function ruleOptionsTable(): string {
  const rows = Object.entries(ruleOptionsSchema.shape).map(
    ([name, field]) => `| \`${name}\` | ${optionDefault(name)} | ${descriptionOf(field).replace(/\|/g, '\\|')} |`,
  );
  return ['| option | standard | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

export function presetsTable(): string {
  const rows = PRESET_NAMES.map((name) => {
    const preset = PRESETS[name];
    const options =
      Object.entries(preset.options)
        .map(([k, v]) => `\`${k}: ${JSON.stringify(v)}\``)
        .join(', ') || '—';
    return `| \`${name}\` | ${options} | ${preset.twoDecksFrom} | ${preset.description} |`;
  });
  return ['| preset | options on top of standard | two decks from | source |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The row of the rule selection's fields, which the shared rule flags (cli/ruleOptions.ts) set. */
function ruleFlagsRow(preset: SchemaFlag): string {
  const flags = '`--rules`, `--rules-file`, `--rule name=value`';
  return `| ${flags} | \`${DEFAULT_PRESET}\` | ${cell(preset.description)}: the rule flags of every command (docs/cli.md). |`;
}

/** The markdown table of a command's flags, as its --help has them (support/schemaFlags.ts). */
export function flagsTable(flags: readonly SchemaFlag[]): string {
  const rows = flags.flatMap((flag) => {
    if (flag.elsewhere) return flag.key === 'preset' ? [ruleFlagsRow(flag)] : [];
    const fallback = flag.required ? 'required' : flag.defaultText === null || flag.kind === 'switch' ? '—' : `\`${flag.defaultText}\``;
    const env = flag.env === null ? '' : ` (\`$${flag.env}\`)`;
    const meaning = flag.allowed ? `${flag.description} (${flag.allowed})` : flag.description;
    return [`| \`${flag.flag}\` | ${fallback}${env} | ${cell(meaning)}. |`];
  });
  return ['| flag | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The client messages: their fields (from each schema's shape), their reply (REPLY_TYPES) and what they do. */
export function protocolMessagesTable(): string {
  const rows = clientMessageSchema.options.map((schema) => {
    const type = schema.shape.type.value;
    const fields = Object.entries<z.ZodType>(schema.shape)
      .filter(([name]) => name !== 'type' && name !== 'id')
      .map(([name, field]) => `\`${name}${field.safeParse(undefined).success ? '?' : ''}\``);
    return `| \`${type}\` | ${fields.join(', ') || '—'} | \`${REPLY_TYPES[type]}\` | ${cell(schema.description ?? '')} |`;
  });
  return ['| type | fields (`?`: optional) | reply | what it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The error codes and what each means (serve/protocol/errors.ts). */
export function protocolErrorsTable(): string {
  const rows = ERROR_CODES.map((code) => `| \`${code}\` | ${cell(ERROR_MEANINGS[code])} |`);
  return ['| code | when |', '| --- | --- |', ...rows].join('\n');
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Every shipped model × table × opponent its card's benchmark holds, with the 95% interval and the command. */
export function shippedModelsTable(): string {
  const rows = shippedModels().flatMap(({ folder, card }) => {
    const overrides = Object.keys(card.rules.rules ?? {}).length > 0 ? ` + ${JSON.stringify(card.rules.rules)}` : '';
    const trained = `${card.rules.preset}${overrides}, ${card.players.join('/')} seats`;
    const results = Object.entries(card.benchmark?.results ?? {});
    if (results.length === 0) return [`| \`${folder}\` | ${trained} | — (no published benchmark) | | | |`];
    return results.map(
      ([matchUp, r]) =>
        `| \`${folder}\` | ${trained} | ${matchUp} | ${r.games.toLocaleString('en-US')} | **${percent(r.winRate)}** (${percent(r.low)}–${percent(r.high)}) | \`${cell(r.command)}\` |`,
    );
  });
  return ['| model | trained on | match-up | games | win rate (95%) | command |', '| --- | --- | --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

/** A decile's gap in points: plain when judged and within the target, bold when judged and missing it, in parentheses when not judged. */
function decileCell(d: Decile | undefined): string {
  if (!d) return '—';
  const gap = (d.actual - d.predicted) * 100;
  const text = `${gap >= 0 ? '+' : '−'}${Math.abs(gap).toFixed(1)}`;
  if (!d.judged) return `(${text})`;
  return Math.abs(gap) <= CALIBRATION_TARGET * 100 ? text : `**${text}**`;
}

/** The held-out checks of models/calibration: per preset and table size, each decile's gap (share won − chance shown). */
export function calibrationDecilesTable(): string {
  const heads = Array.from({ length: 10 }, (_, d) => `${d * 10}–${d * 10 + 10}%`);
  const rows = shippedCalibrationChecks().map(({ preset, size }) => {
    const cells = heads.map((_, d) => decileCell(size.deciles.find((x) => Math.round(x.low * 10) === d)));
    const judged = size.deciles.filter((d) => d.judged);
    const within = judged.filter((d) => Math.abs(d.actual - d.predicted) <= CALIBRATION_TARGET).length;
    const fitted = size.unmapped ? `${size.unmapped.map.games.toLocaleString('en-US')}` : 'no map';
    const before = size.unmapped ? (size.unmapped.worstGap * 100).toFixed(1) : '—';
    return `| ${preset} | ${size.players} | ${fitted} | ${size.games.toLocaleString('en-US')} | ${size.positions.toLocaleString('en-US')} | ${cells.join(' | ')} | ${within} of ${judged.length} | ${(size.worstGap * 100).toFixed(1)} (${before}) |`;
  });
  return [
    `| preset | seats | map fitted on (games, seed 1) | held-out games | positions | ${heads.join(' | ')} | judged within ±${CALIBRATION_TARGET * 100} | worst judged gap (before the map) |`,
    `| --- | --- | --- | --- | --- | ${heads.map(() => '---').join(' | ')} | --- | --- |`,
    ...rows,
  ].join('\n');
}

const envTables: Generated = {
  'env-options': envOptionsMarkdown,
  'reward-schemes': rewardSchemesTable,
  actions: actionTableMarkdown,
  observation: observationTableMarkdown,
  'action-features': actionFeaturesTableMarkdown,
};

/** Each documentation file (relative to the project root) and the sections generated in it. */
export const GENERATED_FILES: Record<string, Generated> = {
  'README.md': {
    'shipped-models': shippedModelsTable,
  },
  'models/README.md': { 'calibration-deciles': calibrationDecilesTable },
  'docs/rules-notes.md': {
    'rule-options': ruleOptionsTable,
    presets: presetsTable,
  },
  'docs/agents.md': {
    'bench-flags': () => flagsTable(schemaFlags(benchOptionsSchema, BENCH_FLAGS)),
    'rate-flags': () => flagsTable(schemaFlags(rateOptionsSchema, RATE_FLAGS)),
  },
  'docs/env.md': envTables,
  'docs/equity.md': { 'equity-flags': () => flagsTable(schemaFlags(equityOptionsSchema, EQUITY_FLAGS)) },
  'docs/training.md': {
    'train-flags': () => flagsTable([...TRAIN_FLAGS.run, ...TRAIN_FLAGS.session]),
    'train-hyper-parameters': () => flagsTable(TRAIN_FLAGS.hyperParameters),
    'actor-flags': () => flagsTable(schemaFlags(actorOptionsSchema, ACTOR_FLAGS)),
    network: networkShape,
  },
  'serve/PROTOCOL.md': {
    'serve-flags': () => flagsTable([...schemaFlags(serverOptionsSchema, SERVE_FLAGS), ...schemaFlags(serveProcessSchema)]),
    'protocol-messages': protocolMessagesTable,
    'protocol-errors': protocolErrorsTable,
  },
};

/**
 * Replaces the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`: on lines
 * of its own, or inside a sentence when both markers sit on one line.
 */
export function regenerate(text: string, generated: Generated): string {
  let out = text;
  for (const [name, make] of Object.entries(generated)) {
    const pattern = new RegExp(`(<!-- generated:${name} -->)([\\s\\S]*?)(<!-- /generated:${name} -->)`, 'g');
    if (!pattern.test(out)) throw new Error(`no generated:${name} markers`);
    out = out.replace(pattern, (_, open: string, old: string, close: string) =>
      old.includes('\n') ? `${open}\n${make()}\n${close}` : `${open}${make()}${close}`,
    );
  }
  return out;
}

/** The default network's layer sizes, from the layouts and the default hidden units: "1184 → 256 → 128 → 1409". */
export function networkShape(): string {
  return [OBSERVATION_SIZE, ...DEFAULT_HYPER_PARAMETERS.hiddenUnits, ACTION_COUNT].join(' → ');
}

if (process.argv[1]?.endsWith('docs.js')) {
  for (const [name, generated] of Object.entries(GENERATED_FILES)) {
    const file = new URL(`../../${name}`, import.meta.url);
    writeFileSync(file, regenerate(readFileSync(file, 'utf8'), generated));
    console.log(`${name}: tables regenerated`);
  }
}
