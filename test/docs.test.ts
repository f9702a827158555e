import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES, regenerate } from '../scripts/docs.js';

describe('generated documentation tables', () => {
  it.each(Object.keys(GENERATED_FILES))('%s matches the code (run `npm run docs` after changing what its tables show)', (name) => {
    const text = readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');
    expect(regenerate(text, GENERATED_FILES[name])).toBe(text);
  });
});

describe('links between the documents', () => {
  it('every relative link of README.md and docs/ names a file the repository holds', () => {
    const root = new URL('../', import.meta.url);
    const documents = [
      'README.md',
      'models/README.md',
      'serve/PROTOCOL.md',
      ...readdirSync(new URL('docs/', root))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const broken = documents.flatMap((document) =>
      [...readFileSync(new URL(document, root), 'utf8').matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)]
        .map((m) => m[1])
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(new URL(target, new URL(document, root))))
        .map((target) => `${document}: ${target}`),
    );
    expect(broken).toEqual([]);
  });
});

describe('the layout', () => {
  const root = new URL('../', import.meta.url);
  const layout = readFileSync(new URL('README.md', root), 'utf8');
  const folders = ['agents', 'serve'].flatMap((top) =>
    readdirSync(new URL(`${top}/`, root), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${top}/${entry.name}/`),
  );

  it.each(folders)('%s says in one line what it owns (its README.md), and README.md’s layout table has its row', (folder) => {
    const lines = readFileSync(new URL(`${folder}README.md`, root), 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^# ${folder.slice(0, -1)} — \\S`));
    expect(layout).toContain(`| \`${folder}\` |`);
  });
});

describe('the recipes of docs/contributing.md', () => {
  it('every file a recipe names to touch is one the repository holds', () => {
    const text = readFileSync(new URL('../docs/contributing.md', import.meta.url), 'utf8');
    const recipes = text.slice(text.indexOf('## Changing the code'));
    const folders = 'agents|env|serve|cli|web|client|test|docs|training|bench|bridge|nn|support|scripts|models|examples';
    const named = new RegExp(`(?<![\\w./-])((?:${folders})/[\\w./-]*\\w\\.(?:ts|md|json|html|js))(?!\\w)`, 'g');
    const files = [...new Set([...recipes.matchAll(named)].map((m) => m[1]))];
    expect(files).toEqual(expect.arrayContaining(['env/rules/rules.ts', 'serve/protocol/clientMessages.ts', 'agents/registry.ts']));
    expect(files.filter((file) => !existsSync(new URL(`../${file}`, import.meta.url)))).toEqual([]);
  });
});
