// `yaniv serve` and `yaniv schema` through the real entry point, and examples/client.ts: the
// printed URL, /health, a client game, graceful shutdown on SIGTERM and SIGINT (clients closed
// with 1001, exit 0), and the example client playing a whole game with the advisor.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Msg, RunningServer } from '../../serve/index.js';
import { TestClient, startTestServer } from './helpers.js';
import { playWithAFriend } from '../../examples/client.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../dist/examples/client.js', import.meta.url));
const run = promisify(execFile);

beforeAll(() => {
  if (!existsSync(MAIN) || !existsSync(EXAMPLE)) throw new Error('dist/ is missing: build first (npm test builds)');
});

/** Starts `yaniv serve` on a free port and resolves with the URL it prints. */
function serve(...flags: string[]): Promise<{ child: ChildProcess; url: string; out: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--workers', '1', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /ws:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0];
      if (url) resolve({ child, url, out, exited });
    });
    child.once('exit', (code) => reject(new Error(`yaniv serve exited with ${code} before printing its URL`)));
  });
}

describe('yaniv serve', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    "prints its URL and the page's, answers /health, and on %s tells each table closed, closes clients with 1001 and exits 0",
    async (signal) => {
      const { child, url, out, exited } = await serve('--log-level', 'silent');
      const page = url.replace('ws:', 'http:');
      expect(out).toContain(`yaniv serve: play the bots in your browser at ${page}\n`);
      const html = await fetch(page);
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await html.text()).toContain('<script type="module" src="/app/main.js"></script>');
      const health = (await (await fetch(page + 'health')).json()) as Record<string, unknown>;
      expect(health).toMatchObject({ status: 'ok', protocol: 1, connections: 0, tables: 0 });
      const client = await TestClient.greeted(url, 'msgpack');
      const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'strong'] });
      expect(created.type).toBe('table_created');
      child.kill(signal);
      expect(await client.closedPromise).toBe(1001);
      expect(client.frames.find((m) => m.type === 'table_closed')).toMatchObject({ table: created.table, reason: 'shutdown' });
      expect(await exited).toBe(0);
    },
  );

  it('refuses a bad flag with exit 2 and a message naming it', async () => {
    const result = await run(process.execPath, [MAIN, 'serve', '--agents', 'strong,grandmaster']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 2 });
    expect((result as { stderr: string }).stderr).toMatch(/--agents: unknown agent "grandmaster"/);
  });

  it('takes the rule flags of every command for the tables created without rules: --rules, --rules-file, --rule', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yaniv-serve-rules-'));
    const file = path.join(dir, 'rules.json');
    writeFileSync(file, '{ "preset": "dutch", "quickDiscard": true }');
    const { child, url, exited } = await serve('--log-level', 'silent', '--rules-file', file, '--rule', 'slapdown=true');
    const client = await TestClient.connect(url);
    const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
    expect(welcome.limits).toMatchObject({ preset: 'dutch', rules: { quickDiscard: true, slapdown: true } });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    rmSync(dir, { recursive: true, force: true });
    const bad = await run(process.execPath, [MAIN, 'serve', '--rules', 'pagat', '--rule', 'yanivThreshold=31']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toMatch(/rule option "yanivThreshold" must be an integer from 0 to 30 \(got 31\)/);
  });

  it('says so, exit 2, when its port is taken', async () => {
    const { url, child, exited } = await serve('--log-level', 'silent');
    const port = new URL(url.replace('ws:', 'http:')).port;
    const result = await run(process.execPath, [MAIN, 'serve', '--port', port], { timeout: 30_000 }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 2 });
    expect((result as { stderr: string }).stderr).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)`));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('yaniv schema', () => {
  it('prints serve/protocol.schema.json', async () => {
    const { stdout } = await run(process.execPath, [MAIN, 'schema']);
    expect(stdout).toBe(readFileSync(new URL('../../serve/protocol.schema.json', import.meta.url), 'utf8'));
  });
});

describe('examples/client.ts', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("connects, creates a table and plays a whole game with the advisor's picks", async () => {
    const { stdout } = await run(process.execPath, [EXAMPLE, server.url], { timeout: 120_000 });
    expect(stdout).toMatch(/connected to ws:\/\/127\.0\.0\.1:\d+\/: agents neural, strong, rollout/);
    expect(stdout).toMatch(/you: discard/);
    expect(stdout).toMatch(/game over: seat \d wins with totals \[\d+,\d+\]; seed -?\d+/);
  });

  it('plays a table with a friend: a guest seat joined by invite, each connection its own seat, one game for both; then again with the same friend', async () => {
    const [forHost, forFriend, againHost, againFriend] = await playWithAFriend(server.url);
    expect(forFriend.record).toEqual(forHost.record);
    expect(forHost.totals).toHaveLength(3);
    expect(againFriend.record).toEqual(againHost.record);
    expect(againHost.table).not.toBe(forHost.table);
  });
});
