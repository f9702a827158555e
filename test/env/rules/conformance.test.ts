// Every public conformance case in test/conformance (the project's copy of the upstream cases,
// refreshed by `npm run sync-spec`), read at test time: a new case there runs without a code change.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRecord, replay } from '../../../env/rules/record.js';

const folder = join(dirname(fileURLToPath(import.meta.url)), '../../conformance');
const cases = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .sort();

describe('conformance cases', () => {
  it('finds the cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s', (name) => {
    const { record, expect: expected, description } = JSON.parse(readFileSync(join(folder, name), 'utf8'));
    const { result } = replay(parseRecord(record));
    const actual = result as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(expected as Record<string, unknown>)) {
      if (field === 'rounds') {
        const rounds = value as Record<string, unknown>[];
        expect((actual.rounds as unknown[]).length, `${description}: rounds`).toBe(rounds.length);
        rounds.forEach((round, r) => {
          for (const [key, v] of Object.entries(round)) {
            expect((actual.rounds as Record<string, unknown>[])[r][key], `${description}: rounds[${r}].${key}`).toEqual(v);
          }
        });
      } else if (field !== 'error') {
        expect(actual[field], `${description}: ${field}`).toEqual(value);
      }
    }
  });
});
