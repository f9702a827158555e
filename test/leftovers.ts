// vitest's global setup: the run's temporary files go to a folder of its own (TMPDIR, which every
// test, worker and child process inherits), and after the run nothing may be left behind — no
// entry in that folder (a test's temporary folder, a Redis's or nginx's prefix), no process running
// from it or from this checkout's dist/ (a server, a worker, nginx, redis-server). Anything left is
// listed and fails the run, then removed. Other runs on the machine (another checkout, another
// TMPDIR) are not counted.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

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

export default function setup(): () => void {
  const folder = mkdtempSync(path.join(tmpdir(), 'yaniv-test-run-'));
  const before = new Set(processesOf(folder));
  process.env.TMPDIR = folder;
  return () => {
    const files = readdirSync(folder);
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
