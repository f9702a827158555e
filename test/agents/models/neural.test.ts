// The neural agent: never an illegal action under any preset and table size (random tiny
// networks), the policy and value it returns, batched decisions equal to single ones, sampling,
// model folders, and refusing a model saved for other versions.
import { trainingRecord } from '../modelFixtures.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adviserLeads, loadNeuralAgent, neuralAgent, resolveModelDir } from '../../../agents/models/neural.js';
import { packageRoot } from '../../../agents/models/modelFolder.js';
import { parseAgentSpec } from '../../../agents/registry.js';
import { createAgentFor } from '../../../agents/resolve.js';
import { playMatch } from '../../../agents/tournament/match.js';
import { ACTION_FEATURES_VERSION, ACTION_FEATURE_SIZE, ADVISER_FEATURE, actionFeatureWidth } from '../../../env/gym/actionFeatures.js';
import { ACTION_COUNT, ACTION_SPACE_VERSION } from '../../../env/gym/actionLayout.js';
import type { DecisionInput } from '../../../env/gym/agent.js';
import { OBSERVATION_SIZE, OBSERVATION_VERSION } from '../../../env/gym/observation.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';
import { MAX_PLAYERS, MIN_PLAYERS, PRESET_NAMES, resolveRules } from '../../../env/rules/rules.js';
import { playerView } from '../../../env/rules/view.js';
import { initBackend } from '../../../nn/backend.js';
import { buildNetwork, setGateBias, type Network, type PolicyValueConfig } from '../../../nn/networks.js';
import { saveNetwork } from '../../../nn/persistence.js';

const RUNS = process.env.YANIV_PROPERTY_RUNS === 'long' ? 10 : 1;
const tiny = (seed: number, actionFeatures = 0): Network<PolicyValueConfig> =>
  buildNetwork({
    kind: 'policy-value',
    observationSize: OBSERVATION_SIZE,
    actionCount: ACTION_COUNT,
    hiddenUnits: [6],
    actionFeatures,
    seed,
  });
let folder = '';

beforeAll(async () => {
  await initBackend('wasm');
  folder = mkdtempSync(path.join(tmpdir(), 'yaniv-neural-'));
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('neural agent', () => {
  it('never picks an illegal action, under every preset and table size, greedy or sampling (random tiny networks)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PRESET_NAMES),
        fc.integer({ min: MIN_PLAYERS, max: MAX_PLAYERS }),
        fc.integer({ min: 0, max: 1000 }),
        fc.boolean(),
        fc.boolean(),
        (preset, players, seed, greedy, quick) => {
          const overrides = quick ? { quickDiscard: true, slapdown: true } : {};
          const rules = resolveRules({ preset, rules: overrides, players });
          const net = tiny(seed);
          const agents = Array.from({ length: players }, (_, seat) => neuralAgent(net, { greedy: greedy || seat % 2 === 0 }));
          // playMatch throws on an illegal action; a round of 40 whole turns covers turn, draw and after-draw steps.
          const result = playMatch({
            rules,
            preset,
            overrides,
            agents,
            dealSeed: seed,
            agentSeed: seed + 1,
            episode: 'round',
            maxTurns: 40,
          });
          expect(result.turns).toBeGreaterThan(0);
          net.model.dispose();
        },
      ),
      { numRuns: 40 * RUNS, seed: 23 },
    );
  });

  for (const scoring of [0, ACTION_FEATURE_SIZE])
    it(`returns the policy over the legal actions, best first, and the value; actBatch decides as act does${scoring ? ' (an action-scoring network)' : ''}`, () => {
      const net = tiny(4, scoring);
      const agent = neuralAgent(net);
      const env = new YanivEnv({ players: 3, seed: 5 });
      let { observation, info } = env.reset();
      const inputs: DecisionInput[] = [];
      for (let step = 0; step < 12; step++) {
        const input = { observation: observation.slice(), mask: info.actionMask.slice(), view: playerView(env.state, info.currentPlayer) };
        inputs.push(input);
        const decision = agent.act(input);
        const policy = decision.policy!;
        expect([...policy.actions].sort((a, b) => a - b)).toEqual(Array.from(info.legalIds.subarray(0, info.legalCount)));
        expect(policy.actions[0]).toBe(decision.action);
        expect(policy.scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
        for (let i = 1; i < policy.scores.length; i++) expect(policy.scores[i]).toBeLessThanOrEqual(policy.scores[i - 1]);
        expect(Number.isFinite(policy.value)).toBe(true);
        ({ observation, info } = env.step(decision.action));
      }
      const batched = agent.actBatch!(inputs);
      batched.forEach((d, i) => {
        const single = agent.act(inputs[i]);
        expect(d.action).toBe(single.action);
        d.policy!.scores.forEach((p, j) => expect(p).toBeCloseTo(single.policy!.scores[j], 6));
        expect(d.policy!.value).toBeCloseTo(single.policy!.value!, 6);
      });
      net.model.dispose();
    });

  it('samples from the policy with its own seed when greedy is off', () => {
    const net = tiny(8);
    const env = new YanivEnv({ players: 2, seed: 1 });
    const { observation, info } = env.reset();
    const input = { observation, mask: info.actionMask, view: playerView(env.state, info.currentPlayer) };
    const sampler = neuralAgent(net, { greedy: false });
    const draws = (seed: number) => {
      sampler.reset(seed);
      return Array.from({ length: 30 }, () => sampler.act(input).action);
    };
    expect(draws(3)).toEqual(draws(3));
    expect(new Set(draws(3)).size).toBeGreaterThan(1);
    draws(4).forEach((a) => expect(info.actionMask[a]).toBe(1));
    net.model.dispose();
  });

  it('loads a model folder or a run folder (best/, then checkpoint/) through neural:PATH', async () => {
    const net = tiny(9);
    const run = path.join(folder, 'run');
    const versions = { observationVersion: OBSERVATION_VERSION, actionSpaceVersion: ACTION_SPACE_VERSION, training: trainingRecord() };
    await saveNetwork(net, path.join(run, 'checkpoint'), versions);
    expect(resolveModelDir(run)).toBe(path.join(run, 'checkpoint'));
    await saveNetwork(net, path.join(run, 'best'), versions);
    expect(resolveModelDir(run)).toBe(path.join(run, 'best'));
    expect(() => resolveModelDir(path.join(folder, 'nothing'))).toThrow(/no model in/);
    const agent = await createAgentFor(`neural:${run}?greedy=0`, { players: 2 });
    expect(agent.name).toBe('neural');
    expect(() => parseAgentSpec('neural?greedy=maybe')).not.toThrow();
    await expect(createAgentFor('neural:x?greedy=maybe', { players: 2 })).rejects.toThrow(/greedy must be 1, 0, true or false/);
    await expect(createAgentFor('neural:x?temperature=2', { players: 2 })).rejects.toThrow(/no parameter "temperature"/);
    net.model.dispose();
  });

  it('a relative model path is also looked for in the package', () => {
    expect(resolveModelDir('models/standard')).toBe(path.join(packageRoot(), 'models', 'standard'));
  });

  it('refuses a model saved for another observation or action-space version, naming both', async () => {
    const net = tiny(10);
    await saveNetwork(net, path.join(folder, 'old-obs'), { observationVersion: 'yaniv-obs/0', actionSpaceVersion: ACTION_SPACE_VERSION });
    await expect(loadNeuralAgent(path.join(folder, 'old-obs'))).rejects.toThrow(
      `observation version differs: saved "yaniv-obs/0", expected "${OBSERVATION_VERSION}"`,
    );
    await saveNetwork(net, path.join(folder, 'old-actions'), {
      observationVersion: OBSERVATION_VERSION,
      actionSpaceVersion: 'yaniv-actions/0',
    });
    await expect(loadNeuralAgent(path.join(folder, 'old-actions'))).rejects.toThrow(
      `action-space version differs: saved "yaniv-actions/0", expected "${ACTION_SPACE_VERSION}"`,
    );
    net.model.dispose();
  });

  it("a model trained with an adviser loads it from its metadata; with a large bias on the adviser's feature it plays the adviser's moves", async () => {
    const net = tiny(11, actionFeatureWidth(true));
    setGateBias(net, new Map([[ADVISER_FEATURE.index, 60]]));
    const versions = {
      observationVersion: OBSERVATION_VERSION,
      actionSpaceVersion: ACTION_SPACE_VERSION,
      actionFeaturesVersion: ACTION_FEATURES_VERSION,
    };
    const training = trainingRecord({ players: [3], hyperParameters: { adviser: 'strong' } });
    await saveNetwork(net, path.join(folder, 'advised'), { ...versions, training });
    const agent = await createAgentFor(`neural:${path.join(folder, 'advised')}`, { players: 2 });
    const strong = await createAgentFor('strong', { players: 2 });
    const env = new YanivEnv({ players: 3 });
    let step: { observation: Float32Array; info: { actionMask: Uint8Array; currentPlayer: number } } = env.reset({ seed: 5 });
    let decisions = 0;
    while (step.info.currentPlayer >= 0 && decisions < 300) {
      const view = playerView(env.state, step.info.currentPlayer);
      const input: DecisionInput = { observation: step.observation, mask: step.info.actionMask, view };
      const chosen = agent.act(input).action;
      expect(chosen).toBe(strong.act(input).action);
      expect(agent.actBatch?.([input, input]).map((d) => d.action)).toEqual([chosen, chosen]);
      step = env.step(chosen);
      decisions++;
    }
    expect(decisions).toBeGreaterThan(50);
    // The same network without its adviser named: refused, naming what is missing.
    await saveNetwork(net, path.join(folder, 'unadvised'), versions);
    await expect(loadNeuralAgent(path.join(folder, 'unadvised'))).rejects.toThrow(/reads an adviser's choice \(10 action features/);
    net.model.dispose();
  });
  it("lets its adviser's choice lead while more seats are in play than it trained at, and plays its own pick below (own=N moves the line)", async () => {
    const net = tiny(12, actionFeatureWidth(true));
    const versions = {
      observationVersion: OBSERVATION_VERSION,
      actionSpaceVersion: ACTION_SPACE_VERSION,
      actionFeaturesVersion: ACTION_FEATURES_VERSION,
    };
    await saveNetwork(net, path.join(folder, 'headsUp'), {
      ...versions,
      training: trainingRecord({ players: [2], hyperParameters: { adviser: 'strong' } }),
    });
    const strong = await createAgentFor('strong', { players: 2 });
    /** Over a 4-seat game's first decisions: how often the agent's pick differs from strong's, and checks on each policy. */
    const differences = async (spec: string): Promise<number> => {
      const agent = await createAgentFor(spec, { players: 2 });
      const env = new YanivEnv({ players: 4 });
      let step: { observation: Float32Array; info: { actionMask: Uint8Array; currentPlayer: number } } = env.reset({ seed: 6 });
      let differ = 0;
      for (let decisions = 0; decisions < 200 && step.info.currentPlayer >= 0; decisions++) {
        const input: DecisionInput = {
          observation: step.observation,
          mask: step.info.actionMask,
          view: playerView(env.state, step.info.currentPlayer),
        };
        const { action, policy } = agent.act(input);
        expect(policy?.actions[0]).toBe(action);
        expect(policy?.scores.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 5);
        expect(agent.actBatch?.([input]).map((d) => d.action)).toEqual([action]);
        if (action !== strong.act(input).action) differ++;
        step = env.step(action);
      }
      return differ;
    };
    // Four seats in play, trained at two: strong leads every decision.
    expect(await differences(`neural:${path.join(folder, 'headsUp')}`)).toBe(0);
    // The same network's own picks (own=4): a random network differs from strong.
    expect(await differences(`neural:${path.join(folder, 'headsUp')}?own=4`)).toBeGreaterThan(10);
    net.model.dispose();
  });
  it("raises the adviser's choice just above the network's top probability, keeping the others' ratios", () => {
    const led = adviserLeads([3, 5, 9], [0.6, 0.3, 0.1], 9);
    expect(led.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 12);
    expect(led[2]).toBeGreaterThan(led[0]);
    expect(led[0] / led[1]).toBeCloseTo(2, 12);
    // Already the top, or not legal: unchanged.
    expect(adviserLeads([3, 5], [0.7, 0.3], 3)).toEqual([0.7, 0.3]);
    expect(adviserLeads([3, 5], [0.7, 0.3], 4)).toEqual([0.7, 0.3]);
  });
});
