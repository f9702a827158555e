/**
 * Where trained models live, without loading tfjs: the shipped models' folder, the default model,
 * and the folder a `neural:PATH` names. What a folder's metadata says is agents/models/modelCard.ts; which
 * shipped model plays where is agents/models/catalog.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PRESET } from '../../env/rules/rules.js';
import { MODEL_JSON } from '../../nn/modelFiles.js';

/** Where shipped models live, relative to the package root: a folder each (agents/models/catalog.ts reads them). */
export const MODELS_FOLDER = 'models';

/** The shipped default model, relative to the package root: the default preset's, trained heads-up. */
export const DEFAULT_MODEL = `${MODELS_FOLDER}/${DEFAULT_PRESET}`;

/** The folder holding package.json, found from this file (works from the sources and from dist/). */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the package root (package.json) above agents/');
    dir = parent;
  }
  return dir;
}

/**
 * The model folder a `neural:PATH` names: PATH itself when it holds model.json, else a training
 * run's `best/` (the best evaluated network) or `checkpoint/` (the latest). A relative PATH found
 * nowhere under the working directory is looked for in the package (`neural:models/dutch` works
 * from any directory). No PATH: the shipped model.
 */
export function resolveModelDir(arg?: string): string {
  const bases =
    arg === undefined || arg === ''
      ? [path.join(packageRoot(), DEFAULT_MODEL)]
      : [path.resolve(arg), ...(path.isAbsolute(arg) ? [] : [path.join(packageRoot(), arg)])];
  for (const base of bases)
    for (const dir of [base, path.join(base, 'best'), path.join(base, 'checkpoint')]) {
      if (existsSync(path.join(dir, MODEL_JSON))) return dir;
    }
  const base = bases[0];
  throw new Error(
    arg === undefined || arg === ''
      ? `the shipped model is missing: no ${MODEL_JSON} in ${base}`
      : `no model in ${base}: expected ${MODEL_JSON} there or in its best/ or checkpoint/ folder`,
  );
}
