// Faults behind nginx, with the tables in a real Redis (`yaniv serve --redis`), three processes,
// loopback only: one process SIGKILLed in the middle of 20 games (every client reconnects through
// nginx and finishes on another process; the records replay with `yaniv replay` to the totals the
// clients saw); a rolling restart (SIGTERM, then start again, each process in turn) during 50 games
// (no game lost, no step told twice with different moves); Redis restarted with every key lost
// (the processes go on from memory and write the tables again: a process killed afterwards still
// has its tables finished elsewhere); a friend's join that reaches another process than the
// table's (its owner killed in the lobby) takes the table over with its seats. Skipped without
// nginx or redis-server (one line each saying how to install it); in CI they fail.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseRecord, replay } from '../../env/index.js';
import type { Msg } from '../../serve/protocol/protocol.js';
import { UpstreamRing } from '../../serve/net/ring.js';
import { packageRoot } from '../../agents/models/modelFolder.js';
import { NginxServer, nginxAvailable } from '../../scripts/nginxServer.js';
import { RedisServer, redisAvailable } from '../../scripts/redisServer.js';
import { ServeProcess } from '../../scripts/serveProcess.js';
import { startCluster, stopCluster } from './cluster.js';
import { LONG, TestClient, chooser, playToEnd, until } from '../serve/helpers.js';
import { ClusterPlayer } from './player.js';

const MAIN = path.join(packageRoot(), 'dist', 'cli', 'main.js');
const available = nginxAvailable() && redisAvailable();

/** `yaniv replay --json FILE` of a record: the totals and winner it replays to. */
function replayCli(file: string): Promise<{ ok: boolean; totals: number[]; winner: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'replay', file, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as { ok: boolean; totals: number[]; winner: number }) : reject(new Error(out)),
    );
  });
}

describe.runIf(available)('behind nginx with the tables in Redis', () => {
  let redis: RedisServer;
  let ports: number[] = [];
  let servers: ServeProcess[] = [];
  let nginx: NginxServer;
  let ring: UpstreamRing;
  let args: string[] = [];
  let folder = '';
  const at = (table?: string) => `${nginx.url}${table ? `?table=${table}` : ''}`;

  beforeAll(async () => {
    redis = await RedisServer.start();
    folder = mkdtempSync(path.join(tmpdir(), 'yaniv-failover-'));
    ports = await ServeProcess.ports(3);
    ({ servers, nginx, ring, args } = await startCluster(ports, [
      '--redis',
      redis.url,
      ...'--agents novice --workers 0 --think-ms 5 --log-level warn'.split(' '),
    ]));
  }, 60_000);
  afterAll(async () => {
    await stopCluster({ nginx, servers });
    redis?.dispose();
    rmSync(folder, { recursive: true, force: true });
  });
  // A test that stopped a process leaves it to be started again, on its port (the same ring), for the next.
  afterEach(async () => {
    for (const [i, port] of ports.entries()) if (!servers[i].running) servers[i] = await ServeProcess.start(args, { port });
  });

  it('a resume through another process than the owner takes the table over there; the owner tells its connection resumed_elsewhere', async () => {
    const owner = await TestClient.greeted(at());
    const created = await owner.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'novice'],
      rules: { eliminationLimit: 30 },
      seed: 9,
    });
    let other: TestClient | null = null;
    for (let tries = 0; tries < 30 && other === null; tries++) {
      const probe = await TestClient.greeted(at());
      const mark = await probe.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'novice'], seed: tries });
      await probe.close();
      if (ring.owner(mark.table) !== ring.owner(created.table)) other = await TestClient.greeted(at(mark.table));
    }
    if (other === null) throw new Error('no table landed on another process');
    expect(await other.request({ type: 'resume', table: created.table, token: created.token })).toMatchObject({ type: 'resumed' });
    expect(await owner.next((m) => m.type === 'table_closed', 0)).toMatchObject({ table: created.table, reason: 'resumed_elsewhere' });
    const over = await playToEnd(other, created.table, chooser(9));
    const { result } = replay(parseRecord(over.record));
    expect(result.ok && result.totals).toEqual(over.totals);
    await owner.close();
    await other.close();
  });

  it("a friend's join reaching another process (the table's owner killed in its lobby) takes the table over from Redis with its seats; the host resumes there and both finish the game", async () => {
    const host = await TestClient.greeted(at());
    const created = await host.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'guest', 'novice'],
      rules: { eliminationLimit: 40 },
      seed: 21,
      standIn: 'novice',
    });
    expect(created).toMatchObject({ type: 'table_created', lobby: true });
    const code = created.invite?.code ?? '';
    const owner = servers.find((s) => s.address === ring.owner(created.table));
    await owner?.stop('SIGKILL');
    // The link's page connects by the table's id (the code's part before the dot): with its owner down, nginx names the next process.
    const friend = await TestClient.greeted(at(code.split('.')[0]));
    const joined = await friend.request<Msg<'joined'>>({ type: 'join_table', code, name: 'Lee' });
    expect(joined).toMatchObject({ type: 'joined', seat: 1, lobby: true, seats: [{ seat: 0 }, { seat: 1, name: 'Lee' }, { seat: 2 }] });
    // The host's connection died with its process: it reconnects by the table's id and resumes where the table is now.
    const back = await TestClient.greeted(at(created.table));
    const resumed = await back.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: created.token });
    expect(resumed).toMatchObject({
      type: 'resumed',
      lobby: true,
      seat: null,
      seats: [{ seat: 0 }, { seat: 1, name: 'Lee', present: true }, { seat: 2, agent: 'novice' }],
    });
    expect(await back.request({ type: 'start_table', table: created.table })).toMatchObject({ type: 'started' });
    const [overHost, overFriend] = await Promise.all([
      playToEnd(back, created.table, chooser(1)),
      playToEnd(friend, created.table, chooser(2)),
    ]);
    expect(overFriend.record).toEqual(overHost.record);
    const { result } = replay(parseRecord(overHost.record));
    expect(result.ok && result.totals).toEqual(overHost.totals);
    await Promise.all([host.close(), friend.close(), back.close()]);
  });

  const players = (count: number, rules: object, thinkMs = 0, gate?: () => Promise<void>) =>
    Array.from({ length: count }, (_, i) => new ClusterPlayer({ url: at, seed: 100 + i, rules, thinkMs, gate: i % 2 ? undefined : gate }));

  /** Waits until every player has a table and has seen `counter` steps of it. */
  const allPast = (list: ClusterPlayer[], counter: number) =>
    until(
      () => list.every((p) => p.created !== undefined && p.frames.some((m) => m.type === 'state' && m.counter >= counter)),
      'every game under way',
      45_000,
    );

  async function checkGames(list: ClusterPlayer[], overs: Msg<'game_over'>[], cli: number): Promise<void> {
    for (const [i, player] of list.entries()) {
      player.checkConsistent(overs[i]);
      const { result } = replay(parseRecord(overs[i].record));
      if (!result.ok) throw new Error(result.error);
      expect(result.gameOver).toBe(true);
      expect([result.totals, result.winner]).toEqual([overs[i].totals, overs[i].winner]);
      const lastRound = player.frames.filter((m): m is Msg<'round_end'> => m.type === 'round_end').at(-1);
      expect(lastRound?.totals).toEqual(overs[i].totals);
    }
    // `yaniv replay` reads the same totals from the records of the first few.
    await Promise.all(
      overs.slice(0, cli).map(async (over, i) => {
        const file = path.join(folder, `game-${over.seed}-${i}.json`);
        writeFileSync(file, JSON.stringify(over.record));
        expect(await replayCli(file)).toMatchObject({ ok: true, totals: over.totals, winner: over.winner });
      }),
    );
  }

  it('one process of three SIGKILLed in the middle of 20 games: every client finishes on another, the records replay to its totals', async () => {
    const list = players(LONG ? 60 : 20, { eliminationLimit: LONG ? 200 : 40 }, 5);
    const games = Promise.all(list.map((p) => p.play()));
    await allPast(list, 4);
    const victim = servers[0];
    const orphans = list.filter((p) => ring.owner(p.created.table) === victim.address);
    expect(orphans.length).toBeGreaterThan(0);
    await victim.stop('SIGKILL');
    const overs = await games;
    for (const p of orphans) expect(p.connections).toBeGreaterThan(1);
    await checkGames(list, overs, 6);
  });

  it('a rolling restart (SIGTERM each process in turn, then start it again) during 50 games: no game lost, no step told twice', async () => {
    // Half the players hold their next step until every process has restarted: games in play at each
    // restart, however fast the others finish (their step after the hold reconnects and resumes).
    let restarted: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (restarted = resolve));
    const holding = { on: false };
    const list = players(LONG ? 100 : 50, { eliminationLimit: LONG ? 200 : 60 }, 10, () => (holding.on ? held : Promise.resolve()));
    const games = Promise.all(list.map((p) => p.play()));
    await allPast(list, 2);
    holding.on = true;
    for (const [i, port] of ports.entries()) {
      expect(list.filter((p) => !p.frames.some((m) => m.type === 'game_over')).length, 'games in play at each restart').toBeGreaterThan(0);
      await servers[i].stop('SIGTERM');
      servers[i] = await ServeProcess.start(args, { port });
    }
    restarted();
    const overs = await games;
    expect(list.filter((p) => p.connections > 1).length).toBeGreaterThan(0);
    await checkGames(list, overs, 3);
  });

  it('Redis restarted with every key lost: games go on from memory, the tables are written again (a process killed afterwards still has its games finished)', async () => {
    const list = players(LONG ? 40 : 12, { eliminationLimit: LONG ? 200 : 100 }, 10);
    const games = Promise.all(list.map((p) => p.play()));
    await allPast(list, 2);
    redis.stop();
    const reached = list.map((p) => Math.max(...p.frames.map((m) => ('counter' in m && typeof m.counter === 'number' ? m.counter : 0))));
    await until(
      () =>
        list.every(
          (p, i) => p.frames.some((m) => m.type === 'state' && m.counter > reached[i] + 2) || p.frames.some((m) => m.type === 'game_over'),
        ),
      'games going on without Redis',
      45_000,
    );
    redis.launch();
    // Once the processes are connected again they write their tables whole: wait until Redis holds them.
    const open = () => list.filter((p) => !p.frames.some((m) => m.type === 'game_over')).length;
    await until(() => redisKeys(redis) >= open(), 'the tables written again', 45_000);
    // The process to kill: the one with the most games still going (they end at their own pace).
    const going = (server: ServeProcess) =>
      list.filter((p) => !p.frames.some((m) => m.type === 'game_over') && ring.owner(p.created.table) === server.address);
    const victim = servers.reduce((best, server) => (going(server).length > going(best).length ? server : best));
    const orphans = going(victim);
    expect(orphans.length, 'games of the process to kill still going').toBeGreaterThan(0);
    await victim.stop('SIGKILL');
    const overs = await games;
    for (const p of orphans) expect(p.connections).toBeGreaterThan(1);
    await checkGames(list, overs, 3);
  });
});

/** How many tables Redis holds (the store's table hashes). */
function redisKeys(redis: RedisServer): number {
  const out =
    spawnSync('redis-cli', ['-p', String(redis.port), '--scan', '--pattern', 'yaniv:table:{*}'], { encoding: 'utf8' }).stdout ?? '';
  return out.split('\n').filter((line) => line.trim() && !line.endsWith(':moves')).length;
}
