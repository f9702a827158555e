// Tables in README.md and docs/ that are generated from the code (rule options, presets,
// environment options, action ranges, observation segments), so they never drift:
// `npm run docs` rewrites them; test/docs.test.ts fails when they are stale.
import { readFileSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { actionTableMarkdown } from '../env/actionSpace.js';
import { envOptionsMarkdown } from '../env/episode.js';
import { observationTableMarkdown } from '../env/observation.js';
import { PRESETS, PRESET_NAMES, ruleOptionsSchema } from '../env/rules.js';

type Generated = Record<string, () => string>;

function optionDefault(name: string): string {
  const field = ruleOptionsSchema.shape[name as keyof typeof ruleOptionsSchema.shape];
  const parsed = field.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? JSON.stringify(parsed.data) : 'by table size';
}

/** The description set on a field, looking through `.default()` / `.optional()` wrappers. */
function descriptionOf(field: z.ZodType): string {
  let current: z.ZodType | undefined = field;
  while (current) {
    if (current.description) return current.description;
    current = (current.def as { innerType?: z.ZodType }).innerType;
  }
  return '';
}

export function ruleOptionsTable(): string {
  const rows = Object.entries(ruleOptionsSchema.shape).map(([name, field]) =>
    `| \`${name}\` | ${optionDefault(name)} | ${descriptionOf(field).replace(/\|/g, '\\|')} |`);
  return ['| option | standard | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

export function presetsTable(): string {
  const rows = PRESET_NAMES.map((name) => {
    const preset = PRESETS[name];
    const options = Object.entries(preset.options).map(([k, v]) => `\`${k}: ${JSON.stringify(v)}\``).join(', ') || '—';
    return `| \`${name}\` | ${options} | ${preset.twoDecksFrom} | ${preset.description} |`;
  });
  return ['| preset | options on top of standard | two decks from | source |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

const envTables: Generated = { 'env-options': envOptionsMarkdown, actions: actionTableMarkdown, observation: observationTableMarkdown };

/** Each documentation file (relative to the project root) and the sections generated in it. */
export const GENERATED_FILES: Record<string, Generated> = {
  'README.md': { 'rule-options': ruleOptionsTable, presets: presetsTable, actions: actionTableMarkdown, observation: observationTableMarkdown },
  'docs/env.md': envTables,
};

/** Replaces the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. */
export function regenerate(text: string, generated: Generated): string {
  let out = text;
  for (const [name, make] of Object.entries(generated)) {
    const pattern = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(out)) throw new Error(`no generated:${name} markers`);
    out = out.replace(pattern, (_, open: string, close: string) => `${open}\n${make()}\n${close}`);
  }
  return out;
}

if (process.argv[1]?.endsWith('docs.js')) {
  for (const [name, generated] of Object.entries(GENERATED_FILES)) {
    const file = new URL(`../../${name}`, import.meta.url);
    writeFileSync(file, regenerate(readFileSync(file, 'utf8'), generated));
    console.log(`${name}: tables regenerated`);
  }
}
