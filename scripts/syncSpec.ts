// `npm run sync-spec`: refreshes the project's copies of the upstream specs and cases from
// ../shared (beside the checkout, where every developer and CI run has it). The project never
// reads ../shared otherwise, so a clone on its own has everything its tests need.
// test/scripts/syncSpec.test.ts fails while ../shared holds a file the copies lack or that differs.
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each folder of ../shared the project mirrors, and where its copy lives (both relative). */
export const SHARED_COPIES = [
  { shared: 'spec', project: 'docs' },
  { shared: 'conformance', project: 'test/conformance' },
  { shared: 'repro', project: 'test/repro' },
] as const;

export type CopyStatus = 'missing' | 'differs' | 'same';

export interface CopyState {
  /** Relative to the shared folder, e.g. `spec/RULES.md`. */
  shared: string;
  /** Relative to the project, e.g. `docs/RULES.md`. */
  project: string;
  status: CopyStatus;
}

/** The shared folder of a checkout: `../shared` beside it. */
export function sharedFolderOf(projectRoot: string): string {
  return resolve(projectRoot, '..', 'shared');
}

/**
 * Every file of the mirrored shared folders, compared byte for byte with the project's copy.
 * Files only the project has (docs/env.md beside the specs) are not listed: they are the project's own.
 */
export function compareCopies(projectRoot: string, sharedRoot: string): CopyState[] {
  const states: CopyState[] = [];
  for (const folder of SHARED_COPIES) {
    const from = join(sharedRoot, folder.shared);
    if (!existsSync(from)) continue;
    for (const name of readdirSync(from).sort()) {
      if (!statSync(join(from, name)).isFile()) continue;
      const target = join(projectRoot, folder.project, name);
      const status: CopyStatus = !existsSync(target)
        ? 'missing'
        : readFileSync(target).equals(readFileSync(join(from, name)))
          ? 'same'
          : 'differs';
      states.push({ shared: `${folder.shared}/${name}`, project: `${folder.project}/${name}`, status });
    }
  }
  return states;
}

/** Copies every missing or differing file; returns what it found before copying. */
export function syncSpec(projectRoot: string, sharedRoot: string): CopyState[] {
  const states = compareCopies(projectRoot, sharedRoot);
  for (const state of states) {
    if (state.status === 'same') continue;
    const target = join(projectRoot, state.project);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(sharedRoot, state.shared), target);
  }
  return states;
}

/** What `npm run sync-spec` prints. */
export function describeSync(states: readonly CopyState[], sharedRoot: string): string {
  const changed = states.filter((s) => s.status !== 'same');
  const lines = changed.map((s) => `${s.project}: ${s.status === 'missing' ? 'added' : 'updated'} from ${s.shared}`);
  lines.push(`${changed.length} of ${states.length} files copied from ${sharedRoot}${changed.length ? '' : ' (all up to date)'}`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('syncSpec.js')) {
  const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
  const sharedRoot = sharedFolderOf(projectRoot);
  if (existsSync(sharedRoot)) {
    console.log(describeSync(syncSpec(projectRoot, sharedRoot), sharedRoot));
  } else {
    console.log(`no shared folder at ${sharedRoot}: nothing to sync, the project's copies stay as they are`);
  }
}
