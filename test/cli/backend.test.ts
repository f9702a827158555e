import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'backend', ...args], { encoding: 'utf8' });

describe('yaniv backend', () => {
  it('names the backend in use; the pure-JS one is always there', () => {
    const out = run('--backend', 'cpu');
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^backend cpu, tfjs \d+\.\d+\.\d+/);
  });

  it('falls back from tfjs-node when it is not installed, and says which backend runs', () => {
    const out = run();
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^backend (node|wasm \(SIMD|wasm \(no SIMD|cpu)/);
  });

  it('refuses an unknown backend name with the allowed ones', () => {
    const out = run('--backend', 'gpu');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('auto, node, wasm, cpu');
  });
});
