// The scripts answer --help with their usage (exit 0) and a bad flag or name with a message naming
// it (exit 2), never a stack trace.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = (name: string) => fileURLToPath(new URL(`../../dist/${name}`, import.meta.url));
const run = (name: string, args: string[]) => spawnSync(process.execPath, [script(name), ...args], { encoding: 'utf8', timeout: 60_000 });

describe.each([
  ['npm run bench', 'bench/main.js', ['no-such-section'], /bench: no section "no-such-section"/],
  ['npm run cluster', 'scripts/cluster.js', ['--no-such-flag'], /cluster: Unknown option '--no-such-flag'/],
  ['npm run cluster', 'scripts/cluster.js', ['--processes', 'many'], /--processes must be a whole number/],
])('%s', (_command, file, bad, message) => {
  it('answers --help with its usage', () => {
    const help = run(file, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run/);
  });

  it(`refuses ${bad.join(' ')} with exit 2 and a message naming it`, () => {
    const refused = run(file, bad);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(message);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });
});
