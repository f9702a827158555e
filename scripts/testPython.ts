// `npm run test:python` (the end of `npm test`): the Python suite, pytest over python/tests in the
// repository's venv. `--long` (in `npm run test:long`) adds the tests marked long, such as the
// MaskablePPO example's smoke run, which need torch in the venv (never installed here).
import { spawnSync } from 'node:child_process';
import { PYTHON_DIR, ensureVenv, systemPython } from './pythonEnv.js';

const python = systemPython();
if (python !== null) {
  const venvPython = ensureVenv(python);
  const long = process.argv.includes('--long');
  const result = spawnSync(venvPython, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...(long ? [] : ['-m', 'not long']), 'tests'], {
    stdio: 'inherit',
    cwd: PYTHON_DIR,
    env: { ...process.env, ...(long ? { YANIV_PYTHON_LONG: '1' } : {}) },
  });
  process.exitCode = result.status ?? 1;
}
