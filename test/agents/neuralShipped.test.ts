// The shipped default model (models/standard): it loads through the registry, plays legally, and in
// a short bench beats intermediate heads-up with duplicate deals (100 games; 1,000 under npm run test:long).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, loadNeuralAgent } from '../../agents/neural.js';
import { runTournament } from '../../agents/tournament/run.js';
import { ACTION_SPACE_VERSION } from '../../env/gym/actionLayout.js';
import { OBSERVATION_VERSION } from '../../env/gym/observation.js';
import { YanivEnv } from '../../env/gym/yanivEnv.js';
import { playerView } from '../../env/rules/view.js';

const LONG = process.env.YANIV_PROPERTY_RUNS === 'long';
const WORKER = new URL('../../dist/agents/tournament/worker.js', import.meta.url);

describe('the shipped model', () => {
  it(`loads from ${DEFAULT_MODEL} (standard rules, current versions) and decides legally`, async () => {
    const { agent, metadata } = await loadNeuralAgent(undefined);
    expect(metadata.observationVersion).toBe(OBSERVATION_VERSION);
    expect(metadata.actionSpaceVersion).toBe(ACTION_SPACE_VERSION);
    expect(metadata.training).toMatchObject({ rules: { preset: 'standard' }, players: [2], hyperParameters: { adviser: 'strong' } });
    const env = new YanivEnv({ players: 2, seed: 3 });
    let { observation, info } = env.reset();
    for (let step = 0; step < 40 && info.currentPlayer >= 0; step++) {
      const { action, policy } = agent.act({ observation, mask: info.actionMask, view: playerView(env.state, info.currentPlayer) });
      expect(info.actionMask[action]).toBe(1);
      expect(policy?.value).toBeTypeOf('number');
      ({ observation, info } = env.step(action));
    }
  });

  it(`beats intermediate heads-up in a short bench (${LONG ? 1000 : 100} games, duplicate deals)`, async () => {
    if (!existsSync(fileURLToPath(WORKER))) throw new Error('build first: the bench runs in dist/ workers');
    const summary = await runTournament(
      {
        agents: ['neural', 'intermediate'],
        games: LONG ? 1000 : 100,
        players: 2,
        preset: 'standard',
        rules: {},
        seed: 11,
        episode: 'game',
        workers: 2,
      },
      { workerUrl: WORKER },
    );
    const neural = summary.agents[0];
    expect(neural.winRate95.low).toBeGreaterThan(0.5);
  }, 600_000);
});
