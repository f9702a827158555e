// The npm package as a user gets it: `npm pack` of this build, installed from the tarball into an
// empty project (its dependencies from the registry or npm's cache; no install scripts: the package
// needs none, tfjs-node being optional), a TypeScript program there
// type-checked against the package's own declarations and run — a game through `yaniv-arena` and
// `yaniv-arena/agents` against the shipped neural model, and a client game through
// `yaniv-arena/client` against the package's own `yaniv serve` on a free loopback port.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../agents/models/modelFolder.js';
import { ServeProcess } from '../../scripts/serveProcess.js';

const run = promisify(execFile);
const ROOT = packageRoot();
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** A game through the package's main export and its agents: a random learner against the shipped neural model. */
const GAME = `
import { SingleAgentEnv, randomLegalAction, seededRng, ACTION_COUNT } from 'yaniv-arena';
import { createAgentFor } from 'yaniv-arena/agents';

function typesAreThePackages(): void {
  // @ts-expect-error: the env's options are typed (players is a number)
  new SingleAgentEnv({ players: 'two', opponents: [] });
}
void typesAreThePackages;

const opponents = await createAgentFor('neural', { preset: 'standard', players: 2 });
const env = new SingleAgentEnv({ players: 2, episode: 'game', opponents });
const rng = seededRng(3);
let { info } = env.reset({ seed: 11 });
let steps = 0;
let total = 0;
for (let done = false; !done; steps++) {
  const step = env.step(randomLegalAction(info.actionMask, rng));
  ({ info } = step);
  total += step.reward;
  done = step.terminated || step.truncated;
}
console.log(JSON.stringify({ steps, total, actions: ACTION_COUNT, opponent: opponents.name }));
`;

/** A client game: create, a refused act, advice, then the table resumed on a second connection and played out. */
const CLIENT = `
import { type Msg, RefusedError, YanivClient } from 'yaniv-arena/client';

declare const process: { argv: string[] };
const url = process.argv[2];
const first = await YanivClient.connect(url, { client: 'package test' });
const firstState = first.next('state', (state) => state.legal.length > 0);
const created = await first.createTable({ seats: ['client', 'random'], rules: { eliminationLimit: 50 }, seed: 5 });
const state = await firstState;
const advice = await first.advise({ table: created.table, outlook: false });
const stale = await first.act({ table: created.table, action: advice.pick.action, counter: state.counter + 1 }).catch((error: unknown) => error);
if (!(stale instanceof RefusedError)) throw new Error('a stale act was not refused');
first.close();

const second = await YanivClient.connect(url);
const resumed = await second.resume({ table: created.table, token: created.token });
let moves = 0;
const result = await second.playOut(created.table, (latest: Msg<'state'>) => {
  moves++;
  return latest.legal[0].action;
});
second.close();
console.log(JSON.stringify({ refused: stale.code, advised: advice.pick.text, resumed: resumed.table === created.table, moves, totals: result.totals, agents: second.welcome?.agents.map((a) => a.name) }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    strict: true,
    skipLibCheck: true,
    types: [],
    outDir: 'out',
  },
  include: ['*.ts'],
};

describe('the npm package, packed and installed into an empty project', () => {
  let folder: string;
  let tarball: string;
  let server: ServeProcess | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'yaniv-npm-'));
    const { stdout } = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], { cwd: ROOT });
    const [packed] = JSON.parse(stdout) as { filename: string; size: number; files: { path: string }[] }[];
    tarball = path.join(folder, packed.filename);
    const project = path.join(folder, 'project');
    writeFileSync(path.join(folder, 'files.json'), JSON.stringify(packed.files.map((f) => f.path)));
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=optional', '--ignore-scripts', tarball], {
      cwd: project,
      timeout: 300_000,
    });
    writeFileSync(path.join(project, 'game.ts'), GAME);
    writeFileSync(path.join(project, 'client.ts'), CLIENT);
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  }, 400_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('holds what runs (dist, the shipped models, the page), not the tests, the Python engine and wheel nor the runs kept to resume', () => {
    const files = JSON.parse(readFileSync(path.join(folder, 'files.json'), 'utf8')) as string[];
    for (const file of [
      'dist/env/index.js',
      'dist/env/index.d.ts',
      'dist/client/index.d.ts',
      'dist/cli/main.js',
      'models/standard/model.json',
      'web/index.html',
    ])
      expect(files).toContain(file);
    expect(
      files.filter((file) =>
        /^(test|dist\/test|dist\/bench|dist\/python-engine|dist\/python-wheel|models\/runs)\/|\.ts$(?<!\.d\.ts)|\.map$/.test(file),
      ),
    ).toEqual([]);
  });

  it('type-checks a program against its declarations', async () => {
    const project = path.join(folder, 'project');
    const compiled = await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch((error: { stdout: string }) => error);
    expect('stdout' in compiled ? compiled.stdout : '').toBe('');
  }, 120_000);

  it("plays a game through 'yaniv-arena' and 'yaniv-arena/agents' against the shipped neural model", async () => {
    const { stdout } = await run(process.execPath, ['out/game.js'], { cwd: path.join(folder, 'project'), timeout: 120_000 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { steps: number; actions: number; opponent: string };
    expect(result.steps).toBeGreaterThan(5);
    expect(result.actions).toBeGreaterThan(1000);
    expect(result.opponent).toMatch(/^neural/);
  }, 120_000);

  it("plays a client game through 'yaniv-arena/client' against the package's own yaniv serve, with its page", async () => {
    const project = path.join(folder, 'project');
    server = await ServeProcess.start(['--agents', 'random,strong'], {
      main: path.join(project, 'node_modules', '.bin', 'yaniv'), // the package's bin, as npx yaniv runs it
    });
    for (const page of ['/', '/app/main.js', '/client/client.js', '/vendor/preact.mjs', '/env/rules/groups.js'])
      expect((await fetch(`http://${server.address}${page}`)).status, page).toBe(200);
    // Node 22 has a WebSocket class of its own; Node 20 behind a flag (a program may pass the `ws` package's instead).
    const flags = Number(process.versions.node.split('.')[0]) < 22 ? ['--experimental-websocket'] : [];
    const { stdout } = await run(process.execPath, [...flags, 'out/client.js', server.url], { cwd: project, timeout: 120_000 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;
    expect(result).toMatchObject({ refused: 'stale_state', resumed: true, agents: ['random', 'strong'] });
    expect(result.moves).toBeGreaterThan(3);
    expect(result.totals).toHaveLength(2);
  }, 180_000);
});
