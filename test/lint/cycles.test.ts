// The cycle rule checks something: ESLint's own API, with the project's config, on files written
// for it — a cycle of values (import-x/no-cycle), a cycle of types and one that closes through a
// type-only import (yaniv/no-type-cycle, eslint.typeCycles.js) fail the lint; imports without a
// cycle pass.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES: Record<string, string> = {
  'valueA.ts': "import { b } from './valueB.js';\nexport const a = (): number => b() + 1;\n",
  'valueB.ts': "import { a } from './valueA.js';\nexport const b = (): number => (a.length > 9 ? 0 : 1);\n",
  'typeC.ts': "import type { D } from './typeD.js';\nexport interface C {\n  d?: D;\n}\n",
  'typeD.ts': "import type { C } from './typeC.js';\nexport interface D {\n  c?: C;\n}\n",
  'mixedE.ts': "import { f } from './mixedF.js';\nexport interface E {\n  n: number;\n}\nexport const e = (): number => f().n;\n",
  'mixedF.ts': "import type { E } from './mixedE.js';\nexport const f = (): E => ({ n: 1 });\n",
  'plainG.ts': "import { h } from './plainH.js';\nexport const g = (): number => h + 1;\n",
  'plainH.ts': 'export const h = 1;\n',
};

let folder: string;
const byFile = new Map<string, string[]>();

beforeAll(async () => {
  // Inside test/ so that tsconfig.json's project (and so typed linting) has the files.
  folder = mkdtempSync(path.join(ROOT, 'test', 'lint', 'cycle-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(folder, name), text);
  const results = await new ESLint({ cwd: ROOT }).lintFiles([folder]);
  for (const result of results)
    byFile.set(
      path.basename(result.filePath),
      result.messages.map((m) => m.ruleId ?? m.message),
    );
}, 180_000);
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('the lint’s cycle rule', () => {
  it('fails a cycle of values on both of its files', () => {
    expect(byFile.get('valueA.ts')).toContain('import-x/no-cycle');
    expect(byFile.get('valueB.ts')).toContain('import-x/no-cycle');
    expect(byFile.get('valueA.ts')).not.toContain('yaniv/no-type-cycle');
  });

  it('fails a cycle of types, and one that closes through a type-only import', () => {
    expect(byFile.get('typeC.ts')).toEqual(['yaniv/no-type-cycle']);
    expect(byFile.get('typeD.ts')).toEqual(['yaniv/no-type-cycle']);
    expect(byFile.get('mixedE.ts')).toEqual(['yaniv/no-type-cycle']);
    expect(byFile.get('mixedF.ts')).toEqual(['yaniv/no-type-cycle']);
  });

  it('passes imports that make no cycle', () => {
    expect(byFile.get('plainG.ts')).toEqual([]);
    expect(byFile.get('plainH.ts')).toEqual([]);
  });
});
