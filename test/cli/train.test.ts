// `yaniv train` through the real entry point with a tiny network: a run writes a checkpoint that
// neural:PATH loads and plays a legal game with; --resume continues the episode count and the
// metrics; bad flags are a clear error (exit 2); `yaniv plot` redraws the curve; `yaniv
// average-models` writes a model soup.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentFor } from '../../agents/resolve.js';
import { playMatch } from '../../agents/tournament/match.js';
import { resolveRules } from '../../env/rules/rules.js';
import { initBackend } from '../../nn/backend.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
let folder = '';

beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm run build, or npm test which builds)`);
  folder = mkdtempSync(path.join(tmpdir(), 'yaniv-train-'));
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

function yaniv(...args: string[]) {
  const child = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** Small enough to run in seconds: a tiny network, a few games, episodes of one round cut at 30 turns. */
const TINY = [
  '--hidden-units',
  '8',
  '--games-per-actor',
  '4',
  '--rollout-samples',
  '128',
  '--minibatch-size',
  '64',
  '--max-turns',
  '30',
  '--imitation-episodes',
  '2',
  '--episode',
  'round',
  '--eval-every',
  '0',
  '--eval-games',
  '2',
  '--backend',
  'wasm',
];

const metricLines = (dir: string) =>
  readFileSync(path.join(dir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const trainerState = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, 'checkpoint', 'trainer.json'), 'utf8')) as {
    episodes: number;
    iteration: number;
    commandLines: string[][];
  };

describe('yaniv train', () => {
  it('trains a tiny network, whose checkpoint neural:PATH loads and plays a legal game with, and resumes', async () => {
    const run = path.join(folder, 'run');
    const first = yaniv('train', '--episodes', '4', '--out', run, '--rule', 'slapdown=true', ...TINY);
    expect(first.stderr).toMatch(/finished at \d+ episodes/);
    expect(first.code).toBe(0);
    for (const file of [
      'checkpoint/model.json',
      'checkpoint/optimizer.bin',
      'checkpoint/trainer.json',
      'best/model.json',
      'metrics.jsonl',
      'curve.svg',
    ]) {
      expect(existsSync(path.join(run, file)), file).toBe(true);
    }
    const metadata = JSON.parse(readFileSync(path.join(run, 'checkpoint', 'metadata.json'), 'utf8')) as {
      training: Record<string, unknown>;
    };
    expect(metadata.training).toMatchObject({ rules: { preset: 'standard' }, players: [2], episode: 'round' });
    // The run's rules, overrides included (the actors and the evaluation play under them).
    expect(metadata.training.rules).toEqual({ preset: 'standard', rules: { slapdown: true } });
    expect(metadata.training.episodes).toBeGreaterThanOrEqual(4);
    expect(metadata.training.hyperParameters).toMatchObject({ hiddenUnits: [8], rolloutSamples: 128 });
    expect((metadata.training.commandLines as string[][])[0]).toContain('--episodes');
    expect(readFileSync(path.join(run, 'curve.svg'), 'utf8')).toMatch(/^<svg/);
    const before = trainerState(run);
    const lines = metricLines(run);
    expect(lines.filter((l) => l.type === 'iteration').length).toBe(before.iteration);
    expect(lines.some((l) => l.type === 'evaluation')).toBe(true);

    // The checkpoint plays through the registry.
    await initBackend('wasm');
    const agent = await createAgentFor(`neural:${path.join(run, 'checkpoint')}`, { players: 2 });
    const random = await createAgentFor('random', { players: 2 });
    const result = playMatch({
      rules: resolveRules({ players: 2 }),
      preset: 'standard',
      overrides: {},
      agents: [agent, random],
      dealSeed: 1,
      agentSeed: 2,
      episode: 'round',
      maxTurns: 50,
    });
    expect(result.turns).toBeGreaterThan(0);

    // Resume: the count and the metrics go on from the checkpoint.
    const second = yaniv('train', '--resume', '--episodes', String(before.episodes + 4), '--out', run, '--eval-games', '0');
    expect(second.code).toBe(0);
    const after = trainerState(run);
    expect(after.episodes).toBeGreaterThanOrEqual(before.episodes + 4);
    expect(after.iteration).toBeGreaterThan(before.iteration);
    expect(after.commandLines.length).toBe(2);
    const iterations = metricLines(run)
      .filter((l) => l.type === 'iteration')
      .map((l) => l.iteration as number);
    expect(iterations).toEqual(Array.from({ length: after.iteration }, (_, i) => i + 1));

    // The rules are the run's identity: a resume may not change them.
    const changed = yaniv('train', '--resume', '--out', run, '--rule', 'quickDiscard=true');
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/--rule cannot change on --resume \(the run has \{"slapdown":true\}, given \{"quickDiscard":true\}\)/);

    // A resume without --episodes keeps the run's target: nothing left to play, one more checkpoint.
    const third = yaniv('train', '--resume', '--out', run, '--eval-games', '0');
    expect(third.code).toBe(0);
    expect(trainerState(run).episodes).toBe(after.episodes);

    // Redraw the curve elsewhere.
    const plotted = yaniv('plot', run, '--out', path.join(folder, 'curve.svg'));
    expect(plotted.code).toBe(0);
    expect(readFileSync(path.join(folder, 'curve.svg'), 'utf8')).toMatch(/^<svg/);
  });

  it("--adviser from --init-from a model without the head: the head is added with the adviser's bias, the model names its adviser, and a resume may not change it", async () => {
    const base = path.join(folder, 'base');
    expect(yaniv('train', '--episodes', '2', '--out', base, ...TINY).code).toBe(0);
    const run = path.join(folder, 'advised');
    const trained = yaniv(
      'train',
      '--episodes',
      '4',
      '--out',
      run,
      '--init-from',
      path.join(base, 'checkpoint'),
      '--adviser',
      'strong',
      '--adviser-bias',
      '5',
      ...TINY,
    );
    expect(trained.stderr).toMatch(/finished at \d+ episodes/);
    const metadata = JSON.parse(readFileSync(path.join(run, 'checkpoint', 'metadata.json'), 'utf8')) as {
      network: { actionFeatures: number };
      training: { hyperParameters: { adviser: string; adviserBias: number } };
    };
    expect(metadata.network.actionFeatures).toBe(10);
    expect(metadata.training.hyperParameters).toMatchObject({ adviser: 'strong', adviserBias: 5 });
    await initBackend('wasm');
    const agent = await createAgentFor(`neural:${path.join(run, 'checkpoint')}`, { players: 2 });
    const result = playMatch({
      rules: resolveRules({ players: 2 }),
      preset: 'standard',
      overrides: {},
      agents: [agent, await createAgentFor('random', { players: 2 })],
      dealSeed: 1,
      agentSeed: 2,
      episode: 'round',
      maxTurns: 50,
    });
    expect(result.turns).toBeGreaterThan(0);
    const changed = yaniv('train', '--resume', '--out', run, '--adviser', 'intermediate');
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/--adviser cannot change on --resume: the network exists/);
    // A model that already scores actions from the game's 9 features cannot grow the adviser's.
    const scored = path.join(folder, 'scored');
    expect(yaniv('train', '--episodes', '2', '--out', scored, '--action-scoring', 'true', ...TINY).code).toBe(0);
    const refused = yaniv(
      'train',
      '--episodes',
      '2',
      '--out',
      path.join(folder, 'refused'),
      '--init-from',
      path.join(scored, 'checkpoint'),
      '--adviser',
      'strong',
      ...TINY,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the model scores actions from 9 features, this run's network from 10/);
  });

  it('--critic whole-deal: the critic trains beside the policy, lives in the checkpoint only, is measured on held-out games and resumes', () => {
    const run = path.join(folder, 'critic');
    const args = ['--out', run, '--critic', 'whole-deal', '--value-eval-games', '2', ...TINY];
    const first = yaniv('train', '--episodes', '6', ...args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /held-out explained variance at iteration 0 \(\d+ games, \d+ decisions\): seat value -?[\d.]+ \(-?[\d.]+–-?[\d.]+\), whole-deal critic -?[\d.]+ \(/,
    );
    for (const file of ['checkpoint/critic/model.json', 'checkpoint/critic/optimizer.bin', 'checkpoint/critic/metadata.json'])
      expect(existsSync(path.join(run, file)), file).toBe(true);
    // The model the servers load keeps its contract: no critic beside it; its card names the critic that trained it.
    expect(existsSync(path.join(run, 'best', 'critic'))).toBe(false);
    const best = JSON.parse(readFileSync(path.join(run, 'best', 'metadata.json'), 'utf8')) as {
      network: { observationSize: number };
      training: { hyperParameters: { critic: string } };
    };
    expect(best.training.hyperParameters.critic).toBe('whole-deal');
    const lines = metricLines(run);
    const ppo = lines.filter((l) => l.type === 'iteration' && l.phase === 'ppo');
    expect(ppo.length).toBeGreaterThan(0);
    for (const line of ppo) expect(line).toHaveProperty('criticLoss');
    const held = lines.filter((l) => l.type === 'valueEvaluation');
    expect(held.length).toBeGreaterThanOrEqual(2);
    for (const line of held) expect(typeof line.wholeDeal).toBe('number');
    const before = trainerState(run);
    const second = yaniv('train', '--resume', '--episodes', String(before.episodes + 4), '--out', run);
    expect(second.code, second.stderr).toBe(0);
    expect(
      metricLines(run).filter((l) => l.type === 'iteration' && (l.iteration as number) > before.iteration && l.criticLoss !== undefined)
        .length,
    ).toBeGreaterThan(0);
  });

  it('--critic rollout: the actors play each round out, the held-out figures name it, no critic network is saved; it needs --reward equity', () => {
    const run = path.join(folder, 'rollout-critic');
    const args = ['--out', run, '--critic', 'rollout', '--critic-rollouts', '2', '--reward', 'equity', '--value-eval-games', '2', ...TINY];
    const first = yaniv('train', '--episodes', '6', ...args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /held-out explained variance at iteration 0 \(\d+ games, \d+ decisions\): seat value -?[\d.]+ \(.*\), rollout critic -?[\d.]+ \(/,
    );
    expect(existsSync(path.join(run, 'checkpoint', 'critic'))).toBe(false);
    const lines = metricLines(run);
    const ppo = lines.filter((l) => l.type === 'iteration' && l.phase === 'ppo');
    expect(ppo.length).toBeGreaterThan(0);
    for (const line of ppo) expect(line).toHaveProperty('seatExplainedVariance');
    for (const line of lines.filter((l) => l.type === 'valueEvaluation')) expect(typeof line.wholeDeal).toBe('number');
    const refused = yaniv('train', '--episodes', '2', '--out', path.join(folder, 'rollout-refused'), '--critic', 'rollout', ...TINY);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--critic rollout .* needs --reward equity/);
  });

  it('rejects bad and unknown flags with exit 2 and a message naming them', () => {
    const out = path.join(folder, 'bad');
    const cases: [string[], RegExp][] = [
      [['--episodes', '4', '--learning-rate', '-1'], /--learning-rate: must be a positive number/],
      [['--episodes', '4', '--hidden-units', '8,x'], /--hidden-units/],
      [['--episodes', '4', '--target-kl', 'none', '--actor-lag', '2'], /--actor-lag: must be 0 or 1/],
      [['--episodes', 'many'], /--episodes/],
      [['--episodes', '4', '--players', '2,9'], /--players: must be table sizes from 2 to 8, one or a list like 2,4 \(got "2,9"\)/],
      [['--episodes', '4', '--opponents', 'wizard=1'], /unknown agent "wizard"/],
      [['--episodes', '4', '--rules', 'klingon'], /unknown preset "klingon"/],
      [['--episodes', '4', '--reward', 'points'], /--reward: must be one of/],
      [['--episodes', '4', '--frobnicate'], /unknown option '--frobnicate'/],
      [['--out', out], /--episodes is required/],
      [['--episodes', '4', '--resume'], /--resume: no checkpoint/],
    ];
    for (const [flags, message] of cases) {
      const result = yaniv('train', '--out', out, ...flags);
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr, flags.join(' ')).toMatch(message);
    }
    expect(yaniv('plot', path.join(folder, 'nowhere')).code).toBe(2);
  });

  it('average-models: answers --help, averages shipped models into a folder neural:PATH plays, and names a missing folder (exit 2)', async () => {
    expect(yaniv('average-models', '--help').stdout).toMatch(/model\s+soup/);
    const soup = path.join(folder, 'soup');
    const made = yaniv('average-models', 'models/standard-4', 'models/standard-3', '--out', soup);
    expect(made.stderr).toBe('');
    expect(made.stdout).toMatch(/averaged .*standard-4, .*standard-3 into/);
    await initBackend('wasm');
    const agent = await createAgentFor(`neural:${soup}`, { players: 2 });
    const strong = await createAgentFor('strong', { players: 2 });
    const result = playMatch({
      rules: resolveRules({ players: 3 }),
      preset: 'standard',
      overrides: {},
      agents: [agent, strong, strong],
      dealSeed: 1,
      agentSeed: 2,
      episode: 'round',
      maxTurns: 100,
    });
    expect(result.turns).toBeGreaterThan(0);
    const missing = yaniv('average-models', 'models/standard', path.join(folder, 'nowhere'), '--out', soup);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^yaniv: no model in .*nowhere/);
    expect(yaniv('average-models', 'models/standard', '--bogus').code).toBe(2);
  });

  it('says what an episode is in --help', () => {
    const help = yaniv('train', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/An episode is one whole game/);
    expect(help.stdout).toMatch(/--gae-lambda/);
  });
});
