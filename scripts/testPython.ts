// `npm run test:python` (the end of `npm test`): the Python suite, pytest over python/tests in the
// repository's venv. `--long` (in `npm run test:long`) adds the tests marked long, such as the
// MaskablePPO example's smoke run, which need torch in the venv (never installed here). pytest-xdist
// spreads the tests over one process per core, as each starts bridge children (figures in docs/design.md).
import { spawnSync } from 'node:child_process';
import { PYTHON_DIR, ensureVenv, systemPython } from './pythonEnv.js';

function venvPython(): string | null {
  try {
    const python = systemPython();
    return python === null ? null : ensureVenv(python);
  } catch (error) {
    console.error(`Python suite: ${(error as Error).message}`);
    process.exit(1);
  }
}

const venv = venvPython();
if (venv !== null) {
  const long = process.argv.includes('--long');
  const result = spawnSync(
    venv,
    ['-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider', '-n', 'auto', ...(long ? [] : ['-m', 'not long']), 'tests'],
    {
      stdio: 'inherit',
      cwd: PYTHON_DIR,
    },
  );
  process.exitCode = result.status ?? 1;
}
