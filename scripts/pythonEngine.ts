// `npm run python:engine`: the engine the Python wheel carries, in dist/python-engine/ — the bridge
// (bridge/main.ts) and everything it imports bundled by esbuild into one ES module, the shipped
// models (the neural agents' networks, the game equities, the levels, the calibration), the
// tfjs-backend-wasm binaries the neural agents run on, and a package.json that marks the folder
// as the package root (agents/modelFolder.ts looks for one above the running module). The wheel's
// build (python/setup.py) copies the folder into yaniv_arena/_engine/; `npm run python:wheel`
// (`--wheel`) makes the engine and the wheel, into dist/python-wheel/.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { MODELS_FOLDER, packageRoot } from '../agents/models/modelFolder.js';
import { PYTHON_DIR, systemPython } from './pythonEnv.js';

const ROOT = packageRoot();
export const ENGINE_DIR = path.join(ROOT, 'dist', 'python-engine');
export const ENGINE_SCRIPT = 'bridge.mjs';

/** The models' files the engine reads (no pictures, no notes). */
const MODEL_FILES = /\.(json|bin)$/;

/**
 * CommonJS dependencies inside an ES module bundle call require (of node's modules) and read
 * __dirname (emscripten's loader in tfjs-backend-wasm): give them both.
 */
const CJS_SHIM = [
  "import { createRequire as yanivRequire } from 'node:module';",
  "import { fileURLToPath as yanivPath } from 'node:url';",
  'const require = yanivRequire(import.meta.url);',
  'const __filename = yanivPath(import.meta.url);',
  "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));",
].join(' ');

export async function buildPythonEngine(out = ENGINE_DIR): Promise<{ bytes: number }> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [path.join(ROOT, 'bridge', 'main.ts')],
    outfile: path.join(out, ENGINE_SCRIPT),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'eof',
    banner: { js: CJS_SHIM },
    logLevel: 'warning',
  });
  cpSync(path.join(ROOT, MODELS_FOLDER), path.join(out, MODELS_FOLDER), {
    recursive: true,
    filter: (file) => statSync(file).isDirectory() || MODEL_FILES.test(file),
  });
  const wasmDir = path.dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'));
  for (const file of readdirSync(wasmDir).filter((name) => name.endsWith('.wasm'))) cpSync(path.join(wasmDir, file), path.join(out, file));
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(
    path.join(out, 'package.json'),
    `${JSON.stringify({ name: 'yaniv-arena-engine', version, private: true, type: 'module', description: 'The yaniv-arena bridge bundled for the Python wheel (scripts/pythonEngine.ts).' }, null, 2)}\n`,
  );
  return { bytes: folderBytes(out) };
}

function folderBytes(folder: string): number {
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    bytes += entry.isDirectory() ? folderBytes(file) : statSync(file).size;
  }
  return bytes;
}

export const WHEEL_DIR = path.join(ROOT, 'dist', 'python-wheel');
const WHEEL_STAMP = path.join(WHEEL_DIR, '.built-from');

/** What the wheel is made of: the engine's files and the Python package's. */
function wheelKey(): string {
  const hash = createHash('sha256');
  const add = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '__pycache__') add(file);
      } else {
        hash.update(path.relative(ROOT, file)).update(readFileSync(file));
      }
    }
  };
  add(ENGINE_DIR);
  add(path.join(PYTHON_DIR, 'yaniv_arena'));
  for (const file of ['pyproject.toml', 'setup.py', 'README.md']) hash.update(file).update(readFileSync(path.join(PYTHON_DIR, file)));
  return hash.digest('hex');
}

/**
 * The wheel (dist/python-wheel/*.whl) of this build: the engine bundled afresh (a second or two),
 * then `pip wheel` only when the engine or the Python package changed since the wheel there was made.
 */
export async function ensureWheel(python: string): Promise<string> {
  await buildPythonEngine();
  const key = wheelKey();
  const wheel = () => readdirSync(WHEEL_DIR).find((name) => name.endsWith('.whl'));
  if (existsSync(WHEEL_STAMP) && readFileSync(WHEEL_STAMP, 'utf8') === key && wheel() !== undefined)
    return path.join(WHEEL_DIR, wheel() ?? '');
  rmSync(WHEEL_DIR, { recursive: true, force: true });
  const args = ['-m', 'pip', 'wheel', '--quiet', '--disable-pip-version-check', '--no-deps', '-w', WHEEL_DIR, PYTHON_DIR];
  const made = spawnSync(python, args, { stdio: 'inherit' });
  if (made.status !== 0) throw new Error(`${python} ${args.join(' ')} failed (exit ${made.status ?? made.signal})`);
  rmSync(path.join(PYTHON_DIR, 'build'), { recursive: true, force: true });
  writeFileSync(WHEEL_STAMP, key);
  return path.join(WHEEL_DIR, wheel() ?? '');
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  if (process.argv.includes('--wheel')) {
    const python = systemPython();
    if (python === null) process.exit(1);
    const wheel = await ensureWheel(python);
    console.log(`${path.relative(ROOT, wheel)}: ${(statSync(wheel).size / 1e6).toFixed(1)} MB`);
  } else {
    const { bytes } = await buildPythonEngine();
    const script = path.join(ENGINE_DIR, ENGINE_SCRIPT);
    console.log(
      `${path.relative(ROOT, ENGINE_DIR)}: ${(bytes / 1e6).toFixed(1)} MB (the bridge ${(statSync(script).size / 1e6).toFixed(1)} MB, models, wasm)`,
    );
  }
}
