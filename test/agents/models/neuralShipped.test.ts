// Every shipped model (models/*, agents/models/catalog.ts): it loads through the registry with the
// adviser its card names, names its rules and table sizes, plays legally, and in a short bench
// beats intermediate at each size it was trained for, under its rules, with duplicate deals
// (100 games; 1,000 under npm run test:long).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shippedModels } from '../../../agents/models/catalog.js';
import { packageRoot } from '../../../agents/models/modelFolder.js';
import { createAgentFor } from '../../../agents/resolve.js';
import { runTournament } from '../../../agents/tournament/run.js';
import { MODEL_CONTRACT } from '../../../env/gym/modelContract.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';
import { PRESET_NAMES } from '../../../env/index.js';
import { playerView } from '../../../env/rules/view.js';
import { readMetadata } from '../../../nn/persistence.js';

const LONG = process.env.YANIV_PROPERTY_RUNS === 'long';
const WORKER = new URL('../../../dist/agents/tournament/worker.js', import.meta.url);

describe.each(shippedModels().map((entry) => [entry.folder, entry] as const))('the shipped model %s', (folder, { card }) => {
  it('loads through the registry (the current contract, its adviser), names its rules and sizes, and decides legally', async () => {
    const metadata = await readMetadata(path.join(packageRoot(), folder), MODEL_CONTRACT);
    expect(metadata.observationVersion).toBe(MODEL_CONTRACT.observationVersion);
    expect(PRESET_NAMES).toContain(card.rules.preset);
    expect(card.players.length).toBeGreaterThan(0);
    const agent = await createAgentFor(`neural:${folder}`, { players: 2 });
    const players = card.players[0];
    const env = new YanivEnv({ players, seed: 3, preset: card.rules.preset, rules: card.rules.rules });
    let { observation, info } = env.reset();
    for (let step = 0; step < 40 && info.currentPlayer >= 0; step++) {
      const { action, policy } = agent.act({ observation, mask: info.actionMask, view: playerView(env.state, info.currentPlayer) });
      expect(info.actionMask[action]).toBe(1);
      expect(policy?.value).toBeTypeOf('number');
      ({ observation, info } = env.step(action));
    }
  });

  it.each(card.players)(
    `beats intermediate in a short bench at %i seats under its rules (${LONG ? 1000 : 100} games, duplicate deals)`,
    async (players) => {
      if (!existsSync(fileURLToPath(WORKER))) throw new Error('build first: the bench runs in dist/ workers');
      const summary = await runTournament(
        {
          agents: [`neural:${folder}`, 'intermediate'],
          // One seat against intermediate in every other seat.
          lineup: [`neural:${folder}`, ...Array.from({ length: players - 1 }, () => 'intermediate')],
          games: LONG ? 1000 : 100,
          players,
          preset: card.rules.preset,
          rules: card.rules.rules,
          seed: 11,
          episode: 'game',
          workers: 2,
        },
        { workerUrl: WORKER },
      );
      const neural = summary.agents[0];
      // Par is 1/players: a seat that beats intermediate wins more than its share.
      expect(neural.winRate95.low).toBeGreaterThan(1 / players);
    },
    600_000,
  );
});
