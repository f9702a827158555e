// The project's copies of ../shared (docs/RULES.md, docs/RECORD.md, test/conformance/, test/repro/)
// and `npm run sync-spec`, which refreshes them.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { compareCopies, describeSync, sharedFolderOf, syncSpec } from '../../scripts/syncSpec.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHARED = sharedFolderOf(ROOT);
const SCRIPT = join(ROOT, 'dist/scripts/syncSpec.js');

describe('the copies of ../shared', () => {
  it.skipIf(!existsSync(SHARED))(
    'hold every file of ../shared/spec, conformance and repro, byte for byte (else run `npm run sync-spec`)',
    () => {
      const states = compareCopies(ROOT, SHARED);
      expect(states.map((s) => s.shared)).toEqual(expect.arrayContaining(['spec/RULES.md', 'spec/RECORD.md', 'conformance/README.md']));
      expect(states.filter((s) => s.status !== 'same')).toEqual([]);
    },
  );
});

describe('npm run sync-spec', () => {
  let scratch = '';
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** A checkout at <scratch>/project with ../shared beside it (or not). */
  function layout(files: Record<string, string>): { project: string; shared: string } {
    scratch = mkdtempSync(join(tmpdir(), 'yaniv-sync-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    return { project: join(scratch, 'project'), shared: join(scratch, 'shared') };
  }

  it("adds missing files, updates differing ones, and leaves the project's own files alone", () => {
    const { project, shared } = layout({
      'shared/spec/RULES.md': 'rules v2',
      'shared/spec/RECORD.md': 'record',
      'shared/conformance/013-new.json': '{}',
      'shared/seeds/000.txt': 'not mirrored',
      'project/docs/RULES.md': 'rules v1',
      'project/docs/RECORD.md': 'record',
      'project/docs/env.md': 'own',
    });
    expect(compareCopies(project, shared)).toEqual([
      { shared: 'spec/RECORD.md', project: 'docs/RECORD.md', status: 'same' },
      { shared: 'spec/RULES.md', project: 'docs/RULES.md', status: 'differs' },
      { shared: 'conformance/013-new.json', project: 'test/conformance/013-new.json', status: 'missing' },
    ]);
    const states = syncSpec(project, shared);
    expect(describeSync(states, shared)).toBe(
      [
        `docs/RULES.md: updated from spec/RULES.md`,
        `test/conformance/013-new.json: added from conformance/013-new.json`,
        `2 of 3 files copied from ${shared}`,
      ].join('\n'),
    );
    expect(readFileSync(join(project, 'docs/RULES.md'), 'utf8')).toBe('rules v2');
    expect(readFileSync(join(project, 'test/conformance/013-new.json'), 'utf8')).toBe('{}');
    expect(readFileSync(join(project, 'docs/env.md'), 'utf8')).toBe('own');
    expect(existsSync(join(project, 'test/seeds'))).toBe(false);
    expect(compareCopies(project, shared).every((s) => s.status === 'same')).toBe(true);
  });

  /** Runs the built script as if it were <project>/dist/scripts/syncSpec.js. */
  function runScript(project: string) {
    if (!existsSync(SCRIPT)) throw new Error(`${SCRIPT} is missing: build first (npm run build, or npm test which builds)`);
    mkdirSync(join(project, 'dist/scripts'), { recursive: true });
    copyFileSync(SCRIPT, join(project, 'dist/scripts/syncSpec.js'));
    return spawnSync(process.execPath, [join(project, 'dist/scripts/syncSpec.js')], { encoding: 'utf8', timeout: 30_000 });
  }

  it('says what it copied', () => {
    const { project, shared } = layout({
      'shared/spec/RULES.md': 'rules',
      'project/docs/RULES.md': 'rules',
      'shared/repro/loop.json': '[]',
    });
    const run = runScript(project);
    expect(run.stdout).toBe(`test/repro/loop.json: added from repro/loop.json\n1 of 2 files copied from ${shared}\n`);
    expect(run.status).toBe(0);
    expect(readFileSync(join(project, 'test/repro/loop.json'), 'utf8')).toBe('[]');
  });

  it('succeeds and says so when there is no ../shared', () => {
    const { project, shared } = layout({ 'project/docs/RULES.md': 'rules' });
    const run = runScript(project);
    expect(run.stdout).toBe(`no shared folder at ${shared}: nothing to sync, the project's copies stay as they are\n`);
    expect(run.status).toBe(0);
    expect(readFileSync(join(project, 'docs/RULES.md'), 'utf8')).toBe('rules');
  });
});
