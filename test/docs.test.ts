import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES, regenerate } from '../scripts/docs.js';

describe('generated documentation tables', () => {
  it.each(Object.keys(GENERATED_FILES))('%s matches the code (run `npm run docs` after changing what its tables show)', (name) => {
    const text = readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');
    expect(regenerate(text, GENERATED_FILES[name])).toBe(text);
  });
});
