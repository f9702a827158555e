// The `yaniv` command as real child processes, for the tests that start several (learners, actors,
// bench workers): their output kept, every one still running killed by `killAll` after the tests,
// and a caller's YANIV_REDIS kept out (the tests name their own Redis).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface Child {
  process: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function withoutRedisUrl(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.YANIV_REDIS;
  return env;
}

/** The processes still running. */
const running = new Set<ChildProcess>();

export function start(...args: string[]): Child {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: withoutRedisUrl() });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Kills whatever `start` left running, even after a test failed midway. */
export function killAll(): void {
  running.forEach((child) => child.kill('SIGKILL'));
}

/** One `yaniv` run to its end (killed past `timeoutMs`). */
export function yanivWithin(timeoutMs: number, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: timeoutMs, env: withoutRedisUrl() });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** One `yaniv` run to its end, within a minute. */
export function yaniv(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  return yanivWithin(60_000, ...args);
}

/** A temp folder for one test file's runs: made once the build is checked, removed after the file's tests. */
export function scratchFolder(prefix: string): () => string {
  let folder = '';
  beforeAll(() => {
    requireBuild();
    folder = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return () => folder;
}

/** Fails unless the build the processes run exists. */
export function requireBuild(): void {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first`);
}

/** The child's exit code, or past `ms` an error carrying the output of `child` and `others` (a hang shows where it stopped). */
export async function exitCode(child: Child, ms: number, others: Record<string, Child> = {}): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const outputs = Object.entries({ child, ...others }).map(([name, c]) => `${name}:\n${c.stderr()}`);
      reject(new Error(`no exit within ${ms} ms\n${outputs.join('\n')}`));
    }, ms);
  });
  try {
    return await Promise.race([child.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}
