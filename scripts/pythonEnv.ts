// The Python side of the project (python/, the yaniv_arena package): a venv under the repository
// (python/.venv, ignored by git) with the package installed editable with its test extras from
// PyPI. The install is redone only when python/pyproject.toml or the interpreter changes. Without
// python3 the callers skip with one line saying how to get it, except in CI (CI=true), where a
// missing python3 fails the run.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PYTHON_DIR = path.join(ROOT, 'python');
export const VENV = path.join(PYTHON_DIR, '.venv');
export const VENV_PYTHON = path.join(VENV, 'bin', 'python');
const STAMP = path.join(VENV, '.yaniv-arena-installed');

export const INSTALL_HINT =
  'python3 not found: the Python suite is skipped (install Python 3.9+ with venv, e.g. apt-get install -y python3 python3-venv)';

/** The system python3, or null (after the one-line hint; an error in CI). */
export function systemPython(): string | null {
  const python = process.env.YANIV_PYTHON ?? 'python3';
  const found = spawnSync(python, ['--version'], { encoding: 'utf8' }).status === 0;
  if (found) return python;
  if (process.env.CI === 'true') throw new Error('python3 is missing in CI: .ci/run installs it (apt-get install -y python3 python3-venv)');
  console.log(INSTALL_HINT);
  return null;
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT });
  if (result.status !== 0) throw new Error(`${what} failed (${command} ${args.join(' ')}, exit ${result.status ?? result.signal})`);
}

/** What the installed venv must match: the package's metadata, its extras and the interpreter. */
function installKey(extras: string): string {
  const version = spawnSync(VENV_PYTHON, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return createHash('sha256')
    .update(readFileSync(path.join(PYTHON_DIR, 'pyproject.toml')))
    .update(`${version} ${extras}`)
    .digest('hex');
}

/** Makes python/.venv with yaniv_arena[extras] installed, unless it is already up to date; returns its python. */
export function ensureVenv(python: string, extras = 'test'): string {
  if (!existsSync(VENV_PYTHON)) {
    const made = spawnSync(python, ['-m', 'venv', VENV], { stdio: 'inherit' });
    if (made.status !== 0)
      throw new Error(`${python} -m venv failed: install the venv module (e.g. apt-get install -y python3-venv) and run again`);
  }
  const key = installKey(extras);
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === key) return VENV_PYTHON;
  console.log(`Installing python/ with its ${extras} extras into python/.venv (once; again only when python/pyproject.toml changes)`);
  run(VENV_PYTHON, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-e', `${PYTHON_DIR}[${extras}]`], 'pip install');
  writeFileSync(STAMP, key);
  return VENV_PYTHON;
}
