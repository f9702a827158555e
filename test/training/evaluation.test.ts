// The trainer's periodic evaluation plays under the run's rules (preset and overrides), not the defaults.
import { trainingRecord } from '../agents/modelFixtures.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_COUNT, ACTION_SPACE_VERSION } from '../../env/gym/actionLayout.js';
import { OBSERVATION_SIZE, OBSERVATION_VERSION } from '../../env/gym/observation.js';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork } from '../../nn/networks.js';
import { saveNetwork } from '../../nn/persistence.js';
import { type EvaluationRequest, evaluate } from '../../training/evaluation.js';

let folder = '';
let model = '';

beforeAll(async () => {
  await initBackend('wasm');
  folder = mkdtempSync(path.join(tmpdir(), 'yaniv-eval-'));
  model = path.join(folder, 'model');
  const net = buildNetwork({
    kind: 'policy-value',
    observationSize: OBSERVATION_SIZE,
    actionCount: ACTION_COUNT,
    hiddenUnits: [4],
    seed: 1,
  });
  await saveNetwork(net, model, {
    observationVersion: OBSERVATION_VERSION,
    actionSpaceVersion: ACTION_SPACE_VERSION,
    training: trainingRecord(),
  });
  net.model.dispose();
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const request = (rules: Record<string, unknown>): EvaluationRequest => ({
  model,
  matchups: [{ opponent: 'intermediate', players: 2 }],
  games: 2,
  seed: 1,
  env: { preset: 'pagat', rules, episode: 'round' },
  backend: 'wasm',
});

describe('evaluate', () => {
  it("plays under the run's rule overrides: a bad one is refused, a good one is played", async () => {
    await expect(evaluate(request({ yanivThreshold: 99 }))).rejects.toThrow(/rule option "yanivThreshold" must be an integer from 0 to 30/);
    const [result] = await evaluate(request({ slapdown: true, handSize: 4 }));
    expect(result).toMatchObject({ opponent: 'intermediate', players: 2, games: 2 });
  });
});
