// Models swapped without a restart (serve/inference/models.ts, yaniv publish-model): two servers on one
// real redis-server. A published version reaches both (welcome shows its card and version),
// advice and new tables get it, a table that started before keeps its model to the end (its
// record is the one the old model plays alone), a model for other versions is refused with both
// named, and one that fails to load is refused and logged while the old one keeps serving.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer, redisAvailable } from '../../../scripts/redisServer.js';
import { decideBatch } from '../../../serve/inference/decide.js';
import type { Msg, RunningServer, ServerOptionsInput } from '../../../serve/index.js';
import { PublishError, publishModel } from '../../../serve/inference/models.js';
import { TestClient, chooser, playToEnd, played, startTestServer, until } from '../helpers.js';

const available = redisAvailable();
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SHIPPED = path.join(ROOT, 'models/standard');
const MAIN = path.join(ROOT, 'dist/cli/main.js');
const OPTIONS: ServerOptionsInput = { workers: 0, agents: ['neural', 'novice'], moveDeadlineMs: null };
const RULES = { eliminationLimit: 40 };

/** A copy of the shipped model with its metadata changed and, optionally, its weights replaced. */
function modelCopy(parent: string, name: string, meta: (m: Record<string, unknown>) => void, weights?: (w: Buffer) => Buffer): string {
  const dir = path.join(parent, name);
  spawnSync('mkdir', ['-p', dir]);
  copyFileSync(path.join(SHIPPED, 'model.json'), path.join(dir, 'model.json'));
  const bytes = readFileSync(path.join(SHIPPED, 'weights.bin'));
  writeFileSync(path.join(dir, 'weights.bin'), weights ? weights(bytes) : bytes);
  const metadata = JSON.parse(readFileSync(path.join(SHIPPED, 'metadata.json'), 'utf8')) as Record<string, unknown>;
  meta(metadata);
  writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify(metadata));
  return dir;
}

const episodes = (n: number) => (m: Record<string, unknown>) => {
  (m.training as Record<string, unknown>).episodes = n;
};

async function welcomeOf(server: RunningServer): Promise<Msg<'welcome'>> {
  const client = await TestClient.connect(server.url);
  const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
  await client.close();
  return welcome;
}

async function neuralVersion(server: RunningServer): Promise<number | undefined> {
  return (await welcomeOf(server)).agents.find((a) => a.name === 'neural')?.modelVersion;
}

describe.skipIf(!available)('models published to a cluster', () => {
  let redis: RedisServer;
  let direct: Redis;
  let first: RunningServer;
  let second: RunningServer;
  const logs: Record<string, unknown>[] = [];
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'yaniv-models-test-'));
    redis = await RedisServer.start();
    direct = new Redis(redis.url);
    direct.on('error', () => undefined);
    [first, second] = await Promise.all([
      startTestServer({ ...OPTIONS, redis: redis.url }, logs),
      startTestServer({ ...OPTIONS, redis: redis.url }),
    ]);
  });
  afterAll(async () => {
    direct?.disconnect();
    await Promise.all([first?.close(), second?.close()]);
    redis?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a new version reaches every process; advice and new tables get it, a running table keeps its model to the end', async () => {
    // The reference: the game the shipped model plays alone, with the same seed and client choices.
    const alone = await startTestServer(OPTIONS);
    const reference = await (async () => {
      const c = await TestClient.greeted(alone.url);
      const t = await c.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'neural'], rules: RULES, seed: 5 });
      const over = await playToEnd(c, t.table, chooser(8));
      await c.close();
      return over;
    })();
    await alone.close();
    expect(await neuralVersion(first)).toBeUndefined();

    const player = await TestClient.greeted(first.url);
    const before = await player.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'neural'], rules: RULES, seed: 5 });
    const choose = chooser(8);
    const state = (await player.next((m) => m.type === 'state' && m.table === before.table && m.legal.length > 0, 0)) as Msg<'state'>;
    const acted = await player.request({ type: 'act', table: before.table, action: choose(state.legal), counter: state.counter });
    expect(acted.type).toBe('acted');

    // A model that plays differently: every weight zero (a uniform policy).
    const zero = modelCopy(dir, 'zero', episodes(99), (w) => Buffer.alloc(w.length));
    const { version } = await publishModel(direct, 'neural', zero);
    expect(version).toBe(1);
    await until(() => logs.some((l) => l.event === 'model_adopted'), 'the first server adopting version 1');
    for (const server of [first, second]) {
      await until(async () => (await neuralVersion(server)) === 1, 'each server serving version 1');
      const neural = (await welcomeOf(server)).agents.find((a) => a.name === 'neural');
      expect(neural).toMatchObject({ modelVersion: 1, model: { episodes: 99, observationVersion: 'yaniv-obs/2' } });
    }

    // Advice now comes from the new model.
    const view = state.view;
    const advice = await player.request<Msg<'advice'>>({ type: 'advise', agent: 'neural', view });
    const [fromZero] = await decideBatch([{ agent: played(`neural:${zero}`), source: { kind: 'view', view }, seed: 0, explain: true }]);
    const [fromShipped] = await decideBatch([{ agent: played('neural'), source: { kind: 'view', view }, seed: 0, explain: true }]);
    expect(fromZero.ok && fromShipped.ok).toBe(true);
    if (!fromZero.ok || !fromShipped.ok) return;
    expect(advice.actions).toEqual(fromZero.advice?.actions);
    expect(advice.actions).not.toEqual(fromShipped.advice?.actions);

    // The table that started before the publish finishes with the shipped model.
    const over = await playToEnd(player, before.table, choose);
    expect(over.record).toEqual(reference.record);
    await player.close();

    // A table started after it plays the new version to the end, on whichever process resumes it.
    const zeroAlone = await startTestServer({ ...OPTIONS, agents: [`neural:${zero}`] });
    const zeroReference = await (async () => {
      const c = await TestClient.greeted(zeroAlone.url);
      const t = await c.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', `neural:${zero}`], rules: RULES, seed: 6 });
      const done = await playToEnd(c, t.table, chooser(3));
      await c.close();
      return done;
    })();
    await zeroAlone.close();
    const late = await TestClient.greeted(first.url);
    const after = await late.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'neural'], rules: RULES, seed: 6 });
    await late.close();
    const elsewhere = await TestClient.greeted(second.url);
    const resumed = await elsewhere.request({ type: 'resume', table: after.table, token: after.token });
    expect(resumed.type).toBe('resumed');
    const lateOver = await playToEnd(elsewhere, after.table, chooser(3));
    expect(lateOver.record).toEqual(zeroReference.record);
    await elsewhere.close();
  });

  it('a model for other versions is refused with both versions named', async () => {
    const other = modelCopy(dir, 'other', (m) => {
      m.observationVersion = 'yaniv-obs/1';
    });
    await expect(publishModel(direct, 'neural', other)).rejects.toThrow(PublishError);
    const run = spawnSync(process.execPath, [MAIN, 'publish-model', other, '--redis', redis.url], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/observation version is "yaniv-obs\/1" but this build runs "yaniv-obs\/2"/);
  });

  it('a model that fails to load is refused and logged; the version before keeps serving', async () => {
    const broken = modelCopy(dir, 'broken', episodes(7), (w) => w.subarray(0, 1000));
    const run = spawnSync(process.execPath, [MAIN, 'publish-model', broken, '--redis', redis.url], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/as version 2 of neural/);
    await until(() => logs.some((l) => l.event === 'model_refused' && l.version === 2), 'the refusal in the log');
    expect(await neuralVersion(first)).toBe(1);
    const player = await TestClient.greeted(first.url);
    const t = await player.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'neural'], rules: RULES, seed: 2 });
    const over = await playToEnd(player, t.table, chooser(1));
    expect(over.type).toBe('game_over');
    await player.close();
  });
});
