// Run-time choice of the tfjs backend: tfjs-node when it loads, else wasm, else the pure-JS CPU backend.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import type { BackendChoice } from './backendChoice.js';
export { BACKEND_CHOICES, type BackendChoice, backendOption, parseBackendChoice } from './backendChoice.js';
import { installWasmFastMatMul, isWasmFastMatMulInstalled, uninstallWasmFastMatMul } from './wasmFastMatMul.js';

/** A concrete backend; 'node' is registered by tfjs-node under the name 'tensorflow'. */
export type ConcreteBackend = Exclude<BackendChoice, 'auto'>;

const TFJS_NAME: Record<ConcreteBackend, string> = { node: 'tensorflow', wasm: 'wasm', cpu: 'cpu' };
const AUTO_ORDER: readonly ConcreteBackend[] = ['node', 'wasm', 'cpu'];

export class BackendUnavailableError extends Error {
  constructor(
    readonly backend: ConcreteBackend,
    readonly reason: string,
  ) {
    super(`tfjs backend '${backend}' is unavailable: ${reason}`);
    this.name = 'BackendUnavailableError';
  }
}

export interface BackendInfo {
  /** What was asked for. */
  choice: BackendChoice;
  /** What is running. */
  backend: ConcreteBackend;
  /** The name tfjs knows it by (tf.getBackend()). */
  tfjsName: string;
  /** wasm only: whether the SIMD binary is in use. */
  simd: boolean;
  /** wasm only: whether the transposed-matmul fast path is installed. */
  fastMatMul: boolean;
  tfjsVersion: string;
}

/**
 * Loads a backend's package and registers it with tfjs. Throws if it cannot.
 * Replaceable through InitBackendOptions.loaders, which is how tests force a backend to be missing.
 */
export type BackendLoader = () => Promise<void>;

export interface InitBackendOptions {
  /** Install the wasm BatchMatMul fast path when wasm is chosen (default true). */
  fastMatMul?: boolean;
  loaders?: Partial<Record<ConcreteBackend, BackendLoader>>;
}

async function loadNode(): Promise<void> {
  // Indirect specifier: tfjs-node is an optionalDependency without types installed here.
  const specifier = '@tensorflow/tfjs-node';
  try {
    await import(specifier);
  } catch (err) {
    throw new Error(`cannot load ${specifier} (${(err as Error).message.split('\n')[0]}); install it with 'npm install ${specifier}'`);
  }
  if (tf.findBackend('tensorflow') === null && tf.findBackendFactory('tensorflow') === null) {
    throw new Error(`${specifier} loaded but did not register the 'tensorflow' backend (a second copy of @tensorflow/tfjs-core?)`);
  }
}

let wasmPathsSet = false;

/** The .wasm file every build of tfjs-backend-wasm has: where it lies is where the others do. */
const WASM_BINARY = 'tfjs-backend-wasm.wasm';

/**
 * Where tfjs-backend-wasm's .wasm files are: its own dist/ where the package is installed, else
 * beside this module (a bundle that carries them, as the Python wheel's engine does).
 */
function wasmFolder(): string {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'));
  } catch (error) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    if (existsSync(path.join(here, WASM_BINARY))) return here;
    throw error;
  }
}

async function loadWasm(): Promise<void> {
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  if (!wasmPathsSet) {
    // tfjs-backend-wasm looks for its .wasm files next to the page in a browser; in Node point it at them.
    wasm.setWasmPaths(wasmFolder() + path.sep);
    wasmPathsSet = true;
  }
}

async function loadCpu(): Promise<void> {
  // The CPU backend ships inside @tensorflow/tfjs and is always registered.
}

const DEFAULT_LOADERS: Record<ConcreteBackend, BackendLoader> = { node: loadNode, wasm: loadWasm, cpu: loadCpu };

async function activate(backend: ConcreteBackend, loader: BackendLoader): Promise<void> {
  try {
    await loader();
  } catch (err) {
    throw new BackendUnavailableError(backend, (err as Error).message);
  }
  let ok: boolean;
  try {
    ok = await tf.setBackend(TFJS_NAME[backend]);
  } catch (err) {
    throw new BackendUnavailableError(backend, (err as Error).message);
  }
  if (!ok) throw new BackendUnavailableError(backend, 'tfjs failed to initialise it');
  await tf.ready();
}

/**
 * Selects and initialises a backend. 'auto' tries node, then wasm, then cpu; a named backend that
 * cannot load throws BackendUnavailableError. Safe to call again to switch backends.
 */
export async function initBackend(choice: BackendChoice = 'auto', options: InitBackendOptions = {}): Promise<BackendInfo> {
  const loaders = { ...DEFAULT_LOADERS, ...options.loaders };
  const candidates = choice === 'auto' ? AUTO_ORDER : [choice];
  const failures: string[] = [];
  for (const backend of candidates) {
    try {
      await activate(backend, loaders[backend]);
    } catch (err) {
      if (choice !== 'auto') throw err;
      failures.push((err as Error).message);
      continue;
    }
    if (backend === 'wasm') {
      if (options.fastMatMul ?? true) installWasmFastMatMul();
      else uninstallWasmFastMatMul();
    }
    return currentBackendInfo(choice);
  }
  throw new Error(`no tfjs backend could be initialised:\n  ${failures.join('\n  ')}`);
}

function currentBackendInfo(choice: BackendChoice): BackendInfo {
  const tfjsName = tf.getBackend();
  const backend = (Object.keys(TFJS_NAME) as ConcreteBackend[]).find((b) => TFJS_NAME[b] === tfjsName);
  if (backend === undefined) throw new Error(`unexpected tfjs backend '${tfjsName}'`);
  const simd = backend === 'wasm' && tf.env().getBool('WASM_HAS_SIMD_SUPPORT');
  return { choice, backend, tfjsName, simd, fastMatMul: backend === 'wasm' && isWasmFastMatMulInstalled(), tfjsVersion: tf.version.tfjs };
}

/** One line for logs: "backend wasm (SIMD, fast matmul), tfjs 4.22.0". */
export function describeBackend(info: BackendInfo): string {
  const traits: string[] = [];
  if (info.backend === 'wasm') {
    traits.push(info.simd ? 'SIMD' : 'no SIMD');
    traits.push(info.fastMatMul ? 'fast matmul' : 'stock matmul');
  }
  const detail = traits.length > 0 ? ` (${traits.join(', ')})` : '';
  return `backend ${info.backend}${detail}, tfjs ${info.tfjsVersion}`;
}
