// Tables in README.md that are generated from the code (rule options and presets), so they
// never drift: `npm run docs` rewrites them; test/docs.test.ts fails when they are stale.
import { readFileSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
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

export const GENERATED: Generated = { 'rule-options': ruleOptionsTable, presets: presetsTable };

/** Replaces the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. */
export function regenerate(text: string, generated: Generated = GENERATED): string {
  let out = text;
  for (const [name, make] of Object.entries(generated)) {
    const pattern = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(out)) throw new Error(`README.md has no generated:${name} markers`);
    out = out.replace(pattern, (_, open: string, close: string) => `${open}\n${make()}\n${close}`);
  }
  return out;
}

if (process.argv[1]?.endsWith('docs.js')) {
  const file = new URL('../../README.md', import.meta.url);
  writeFileSync(file, regenerate(readFileSync(file, 'utf8')));
  console.log('README.md tables regenerated');
}
