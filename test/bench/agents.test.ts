// The bench's agents section (bench/agents.ts) through its entry point: each agent resolved for the
// table size, its row naming the model it plays — at four seats the catalog's four-seat model.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../dist/bench/main.js', import.meta.url));

describe('npm run bench -- agents', () => {
  it('times each agent as it plays at each table size, naming the model', () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm run build)`);
    const child = spawnSync(process.execPath, [MAIN, 'agents'], {
      encoding: 'utf8',
      env: { ...process.env, BENCH_AGENT_POSITIONS: '30' },
      timeout: 120_000,
    });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout).toMatch(/^\| neural \(models\/standard\) \| 2 \| 30 \|/m);
    expect(child.stdout).toMatch(/^\| neural \(models\/standard-4\) \| 4 \| 30 \|/m);
    expect(child.stdout).toMatch(/^\| strong \| 4 \| 30 \|/m);
  }, 120_000);
});
