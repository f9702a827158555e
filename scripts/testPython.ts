// `npm run test:python` (the end of `npm test`): the Python suite, pytest over python/tests in the
// repository's venv. `--long` (in `npm run test:long`) adds the tests marked long, such as the
// MaskablePPO example's smoke run, which need torch in the venv (never installed here). pytest-xdist
// spreads the tests over one process per core, as each starts bridge children (figures in docs/design.md).
// It first makes the wheel (scripts/pythonEngine.ts: again only when the engine or the package changed),
// which tests/test_install.py installs into a fresh venv.
import { spawnSync } from 'node:child_process';
import { ensureWheel } from './pythonEngine.js';
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
  // The wheel a user installs, made once per change of the engine or the package (tests/test_install.py installs it).
  const wheel = await ensureWheel(venv);
  const long = process.argv.includes('--long');
  const result = spawnSync(
    venv,
    ['-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider', '-n', 'auto', ...(long ? [] : ['-m', 'not long']), 'tests'],
    {
      stdio: 'inherit',
      cwd: PYTHON_DIR,
      env: { ...process.env, YANIV_ARENA_WHEEL: wheel },
    },
  );
  process.exitCode = result.status ?? 1;
}
