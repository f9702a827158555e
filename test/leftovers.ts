// vitest's global setup: the run's temporary files go to a folder of its own (TMPDIR, which every
// test, worker and child process inherits; the caches below pass through), and after the run
// nothing may be left behind — no
// entry in that folder (a test's temporary folder, a Redis's or nginx's prefix), no process running
// from it or from this checkout's dist/ (a server, a worker, nginx, redis-server). Anything left is
// listed and fails the run, then removed. Other runs on the machine (another checkout, another
// TMPDIR) are not counted.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/**
 * What is written to the temporary folder on purpose and kept: the Chromium that @sparticuz/chromium
 * unpacks (its binary, libraries, fonts, locales) and the equity solves agents/equity/equity.ts caches.
 * and the compile cache that npm turns on under Node 22+ (module.enableCompileCache, written to
 * TMPDIR/node-compile-cache by every npm a test starts: the package test's npm pack and install).
 * Those already in the machine's temporary folder are linked into the run's; new ones are moved
 * out to it after the run, for the next.
 */
const CACHE = /^(chromium|fonts|locales|swiftshader|lib[\w.-]+\.so(\.\d+)?|vk_swiftshader_icd\.json|yaniv-equity|node-compile-cache)$/;
/** A shared parent whose per-process children their owners remove: left empty it is nothing, left with children it is a leftover. */
const PARENTS = new Set(['yaniv-models']);

/** Processes started from the run's folder or this checkout's build: pid and command line. */
function processesOf(folder: string): string[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => {
      const pid = Number(line.split(' ')[0]);
      if (!pid || pid === process.pid) return false;
      if (line.includes(folder) || line.includes(DIST)) return true;
      try {
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(folder);
      } catch {
        return false;
      }
    });
}

/** The run folder's entries that are leftovers; caches are moved out to `machine` (the machine's temporary folder). */
function leftovers(folder: string, machine: string): string[] {
  return readdirSync(folder).filter((name) => {
    const entry = path.join(folder, name);
    if (lstatSync(entry).isSymbolicLink()) return false;
    if (CACHE.test(name)) {
      if (!existsSync(path.join(machine, name))) renameSync(entry, path.join(machine, name));
      return false;
    }
    return !(PARENTS.has(name) && readdirSync(entry).length === 0);
  });
}

export default function setup(): () => void {
  const machine = tmpdir();
  const folder = mkdtempSync(path.join(machine, 'yaniv-test-run-'));
  for (const name of readdirSync(machine).filter((n) => CACHE.test(n))) symlinkSync(path.join(machine, name), path.join(folder, name));
  const before = new Set(processesOf(folder));
  process.env.TMPDIR = folder;
  return () => {
    const files = leftovers(folder, machine);
    const processes = processesOf(folder).filter((p) => !before.has(p));
    for (const line of processes) {
      try {
        process.kill(Number(line.split(' ')[0]), 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    rmSync(folder, { recursive: true, force: true });
    if (files.length + processes.length === 0) return;
    // vitest reports an error thrown here but keeps its exit code: set it too.
    process.exitCode = 1;
    throw new Error(
      `the tests left behind ${files.length} temporary entr${files.length === 1 ? 'y' : 'ies'} and ${processes.length} process(es) (now removed):\n` +
        [...files.map((f) => `  ${path.join(folder, f)}`), ...processes.map((p) => `  process ${p}`)].join('\n'),
    );
  };
}
