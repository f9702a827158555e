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
