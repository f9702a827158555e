import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { regenerate } from '../scripts/docs.js';

describe('README generated tables', () => {
  it('match the code (run `npm run docs` after changing rule options or presets)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(regenerate(readme)).toBe(readme);
  });
});
