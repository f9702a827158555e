import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { BackendUnavailableError, backendOption, describeBackend, initBackend, parseBackendChoice } from '../../nn/backend.js';

const missing = (): Promise<void> => Promise.reject(new Error('forced missing for the test'));

function tfjsNodeInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@tensorflow/tfjs-node');
    return true;
  } catch {
    return false;
  }
}

describe('backend selection', () => {
  it('picks wasm with the fast matmul by default when tfjs-node is absent', async () => {
    const info = await initBackend('auto', { loaders: { node: missing } });
    expect(info).toMatchObject({ choice: 'auto', backend: 'wasm', tfjsName: 'wasm', fastMatMul: true });
    expect(tf.getBackend()).toBe('wasm');
    expect(describeBackend(info)).toMatch(/^backend wasm \((no )?SIMD, fast matmul\), tfjs 4\./);
  });

  it('falls back to cpu when node and wasm are unavailable', async () => {
    const info = await initBackend('auto', { loaders: { node: missing, wasm: missing } });
    expect(info.backend).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(describeBackend(info)).toBe(`backend cpu, tfjs ${tf.version.tfjs}`);
  });

  it('refuses a named backend that cannot load, saying which and why', async () => {
    const attempt = initBackend('wasm', { loaders: { wasm: missing } });
    await expect(attempt).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(initBackend('wasm', { loaders: { wasm: missing } })).rejects.toThrow(
      "tfjs backend 'wasm' is unavailable: forced missing for the test",
    );
  });

  it.skipIf(tfjsNodeInstalled())('reports the real tfjs-node as unavailable here, with how to install it', async () => {
    await expect(initBackend('node')).rejects.toThrow(
      /tfjs backend 'node' is unavailable: cannot load @tensorflow\/tfjs-node .*npm install @tensorflow\/tfjs-node/,
    );
  });

  it('can turn the fast path off and on again', async () => {
    expect((await initBackend('wasm', { fastMatMul: false })).fastMatMul).toBe(false);
    expect((await initBackend('wasm')).fastMatMul).toBe(true);
  });

  it('parses --backend values', () => {
    expect(parseBackendChoice('cpu')).toBe('cpu');
    expect(() => parseBackendChoice('gpu')).toThrow("expected one of auto, node, wasm, cpu, got 'gpu'");
  });

  it('offers a commander option with choices and default auto', () => {
    const parse = (args: string[]): unknown => {
      const cmd = new Command()
        .exitOverride()
        .configureOutput({ writeErr: () => {} })
        .addOption(backendOption());
      cmd.parse(args, { from: 'user' });
      return cmd.opts().backend;
    };
    expect(parse([])).toBe('auto');
    expect(parse(['--backend', 'wasm'])).toBe('wasm');
    expect(() => parse(['--backend', 'gpu'])).toThrow(/Allowed choices are auto, node, wasm, cpu/);
  });
});
