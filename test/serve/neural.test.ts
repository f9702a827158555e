// A trained model behind the server: the welcome describes it (versions, network, training), its
// advice equals the neural agent called directly (probabilities over the legal actions, best
// first, and the network's value), and it takes a seat at a table through a whole game.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_COUNT,
  ACTION_SPACE_VERSION,
  OBSERVATION_SIZE,
  OBSERVATION_VERSION,
  YanivEnv,
  encodeView,
  playerView,
  randomLegalAction,
  seededRng,
} from '../../env/index.js';
import { loadNeuralAgent } from '../../agents/models/neural.js';
import { buildNetwork } from '../../nn/networks.js';
import { saveNetwork } from '../../nn/persistence.js';
import type { Msg, RunningServer, ServerMessage } from '../../serve/index.js';
import { type ViewJson, viewToJson } from '../../serve/protocol/viewJson.js';
import { TestClient, chooser, playToEnd, startTestServer } from './helpers.js';

const folder = mkdtempSync(path.join(tmpdir(), 'yaniv-serve-neural-'));
const modelDir = path.join(folder, 'model');
const spec = `neural:${modelDir}`;
let server: RunningServer;
let client: TestClient;

beforeAll(async () => {
  const net = buildNetwork({
    kind: 'policy-value',
    observationSize: OBSERVATION_SIZE,
    actionCount: ACTION_COUNT,
    hiddenUnits: [6],
    seed: 4,
  });
  await saveNetwork(net, modelDir, {
    observationVersion: OBSERVATION_VERSION,
    actionSpaceVersion: ACTION_SPACE_VERSION,
    training: { rules: { preset: 'standard' }, players: [2], episodes: 12 },
  });
  net.model.dispose();
  server = await startTestServer({ agents: [spec, 'strong'] });
  client = await TestClient.connect(server.url);
}, 60_000);
afterAll(async () => {
  await client.close();
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('a neural model served', () => {
  it('is described in the welcome: versions, network and training', async () => {
    const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
    const [neural, strong] = welcome.agents;
    expect(neural).toMatchObject({ name: spec, explains: true, scores: 'probability' });
    expect(neural.model).toMatchObject({
      observationVersion: OBSERVATION_VERSION,
      actionSpaceVersion: ACTION_SPACE_VERSION,
      hiddenUnits: [6],
      rules: { preset: 'standard' },
      players: [2],
      episodes: 12,
      benchmark: null,
    });
    // Trained heads-up on standard, served with standard by default: every other table size is named.
    const mismatch = (neural.model as { mismatch: Record<string, string | null> }).mismatch;
    expect(mismatch['2']).toBeNull();
    expect(mismatch['3']).toMatch(/plays 3 players \(trained on 2\): expect it below its measured strength/);
    expect(Object.keys(mismatch)).toEqual(['2', '3', '4', '5', '6', '7', '8']);
    expect(strong.model).toBeUndefined();
  });

  it('advises as the agent called directly: its policy over the legal actions and its value', async () => {
    const { agent } = await loadNeuralAgent(modelDir);
    const env = new YanivEnv({ players: 3 });
    let { info } = env.reset({ seed: 8 });
    const rng = seededRng(8);
    for (let step = 0; step < 60 && !env.done; step++) {
      const view = playerView(env.state, info.currentPlayer);
      const direct = agent.act({ observation: encodeView(view), mask: info.actionMask, view });
      const advice = await client.request<Msg<'advice'>>({
        type: 'advise',
        agent: spec,
        seed: step,
        view: viewToJson(view, 'standard', {}),
      });
      expect(advice.agentPick.action).toBe(direct.action);
      expect(advice.actions.map((a) => a.action)).toEqual(direct.policy?.actions);
      // The server's worker thread runs the same single-position path: the same numbers to float rounding at most.
      advice.actions.forEach((a, k) => expect(a.score).toBeCloseTo(direct.policy?.scores[k] ?? NaN, 6));
      expect(advice.value).toBeCloseTo(direct.policy?.value ?? NaN, 5);
      ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
    }
  });

  it('gives the same advice bit for bit alone or among concurrent requests (which share a batch)', async () => {
    const env = new YanivEnv({ players: 3 });
    let { info } = env.reset({ seed: 11 });
    const rng = seededRng(11);
    const views: ViewJson[] = [];
    for (let step = 0; step < 8 && !env.done; step++) {
      views.push(viewToJson(playerView(env.state, info.currentPlayer), 'standard', {}));
      ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
    }
    const ask = (view: ViewJson, seed: number) => client.request<Msg<'advice'>>({ type: 'advise', agent: spec, seed, view });
    const alone: Msg<'advice'>[] = [];
    for (const [i, view] of views.entries()) alone.push(await ask(view, i));
    const together = await Promise.all([...views.entries(), ...views.entries()].map(([i, view]) => ask(view, i)));
    const strip = ({ id: _, ...advice }: Msg<'advice'>) => advice;
    together.forEach((advice, k) => expect(strip(advice)).toEqual(strip(alone[k % views.length])));
  });

  it('plays a seat at a table to the end of a game', async () => {
    const created = await client.request<Extract<ServerMessage, { type: 'table_created' }>>({
      type: 'create_table',
      seats: ['client', spec],
      seed: 5,
    });
    expect(created.type).toBe('table_created');
    const over = await playToEnd(client, created.table, chooser(5));
    expect(over.type).toBe('game_over');
  }, 60_000);
});
