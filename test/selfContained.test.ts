// A clone of the project on its own must build and pass its tests: nothing reads the shared folder
// beside the checkout (except `npm run sync-spec` and its test) or any other path above the repository root.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_FOLDERS = ['env', 'nn', 'support', 'agents', 'training', 'serve', 'bridge', 'cli', 'bench', 'scripts', 'test', 'web', '.ci'];
const ROOT_FILES = ['package.json', 'tsconfig.json', 'vitest.config.ts', 'eslint.config.js'];
const MAY_READ_SHARED = ['scripts/syncSpec.ts', 'test/scripts/syncSpec.test.ts'];
const CODE = new Set(['.ts', '.js', '.mjs', '.cjs', '.json', '']);
// Built without the literal, so that this file does not match itself.
const SHARED = ['..', 'shared'].join('/');

function filesUnder(folder: string): string[] {
  if (!existsSync(join(ROOT, folder))) return [];
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const files = [...SOURCE_FOLDERS.flatMap(filesUnder), ...ROOT_FILES];

/** Where a relative path written in `file` lands, from the folder the code runs in. */
function landsOutside(file: string, written: string): boolean {
  const outside = (from: string) => relative(ROOT, resolve(from, written)).startsWith('..');
  // Everything but the tests runs compiled, from dist/<same folder>, one level deeper.
  const runsFrom = file.startsWith('test/') ? [dirname(file)] : [dirname(file), join('dist', dirname(file))];
  return runsFrom.every((folder) => outside(join(ROOT, folder)));
}

/** The quoted relative paths (`'./x'`, `"../x"`, `` `../${y}` ``) in a source text. */
function relativePaths(text: string): string[] {
  return [...text.matchAll(/(['"`])(\.\.?\/[^'"`\n]*)\1/g)].map((m) => m[2]);
}

describe('the repository stands alone', () => {
  it('finds the source files', () => {
    expect(files).toEqual(expect.arrayContaining(['env/rules/rules.ts', 'cli/main.ts', 'test/selfContained.test.ts', 'package.json']));
  });

  it(`nothing but the sync script and its test mentions ${SHARED}`, () => {
    const offending = files.filter((file) => !MAY_READ_SHARED.includes(file) && readFileSync(join(ROOT, file), 'utf8').includes(SHARED));
    expect(offending).toEqual([]);
  });

  it('no source file names a path above the repository root', () => {
    const offending = files
      // This file's own quoted paths are the examples the last test feeds the check.
      .filter((file) => CODE.has(extname(file)) && file !== 'test/selfContained.test.ts')
      .flatMap((file) =>
        relativePaths(readFileSync(join(ROOT, file), 'utf8'))
          .filter((path) => landsOutside(file, path))
          .map((path) => `${file}: ${path}`),
      );
    expect(offending).toEqual([]);
  });

  it('no link in README.md or docs/ leaves the repository', () => {
    const documents = ['README.md', ...filesUnder('docs').filter((file) => file.endsWith('.md'))];
    const offending = documents.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\]\((\.[^)\s]*)\)/g)]
        .filter((m) => relative(ROOT, resolve(ROOT, dirname(file), m[1])).startsWith('..'))
        .map((m) => `${file}: ${m[1]}`),
    );
    expect(offending).toEqual([]);
  });

  it('the check catches a path that climbs out', () => {
    expect(relativePaths(`import x from '../../x.js'; readFileSync(\`../\${name}\`)`)).toEqual(['../../x.js', '../${name}']);
    expect(landsOutside('test/env/rules/a.test.ts', '../../../x')).toBe(false);
    expect(landsOutside('test/env/rules/a.test.ts', '../../../../x')).toBe(true);
    expect(landsOutside('scripts/docs.ts', '../../README.md')).toBe(false);
    expect(landsOutside('scripts/docs.ts', '../../../x')).toBe(true);
  });
});
