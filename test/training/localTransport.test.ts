// The in-process transport: the weight store keeps the latest version and the league's, the bus
// hands out rounds of one part per actor in actor order (asking 1 + lag ahead first), drops and
// counts parts the learner cannot use; and real inline actors behind it play each part with the
// weights published last before it was asked for.
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork, getFlatWeights } from '../../nn/networks.js';
import { startInProcessTransport } from '../../training/actor.js';
import { parseOpponentMix } from '../../training/league.js';
import { LocalTrajectoryBus, LocalWeightStore } from '../../training/localTransport.js';
import type { ActorInit } from '../../training/messages.js';
import { emptyRolloutStats, emptyTrajectoryBatch } from '../../training/trajectory.js';
import type { TrajectoryPart } from '../../training/transport.js';

const part = (actor: string, weightsVersion: number, count = 3, kind: 'ppo' | 'imitation' = 'ppo'): TrajectoryPart => ({
  actor,
  weightsVersion,
  mode: kind === 'ppo' ? { kind } : { kind, teacherPlays: true },
  trajectories: emptyTrajectoryBatch(count, kind === 'imitation'),
  stats: emptyRolloutStats(),
});
const always = { samples: 10, usable: () => true };

describe('local weight store', () => {
  it('keeps the latest version and the league, and refuses the others', async () => {
    const store = new LocalWeightStore();
    expect(await store.latest()).toBeNull();
    const w = (x: number) => Float32Array.from([x]);
    await store.publish({ version: 0, mode: { kind: 'ppo' }, league: [] }, w(0), []);
    await store.publish({ version: 1, mode: { kind: 'ppo' }, league: [0] }, w(1), [{ id: 0, episodes: 0, weights: w(0) }]);
    await store.publish({ version: 2, mode: { kind: 'ppo' }, league: [0] }, w(2), [{ id: 0, episodes: 0, weights: w(0) }]);
    expect(await store.latest()).toEqual({ version: 2, mode: { kind: 'ppo' }, league: [0] });
    expect(Array.from(await store.fetch(2))).toEqual([2]);
    expect(Array.from(await store.fetch(0))).toEqual([0]);
    await expect(store.fetch(1)).rejects.toThrow(/weights version 1 is neither the latest nor in the league/);
  });
});

describe('local trajectory bus', () => {
  it('asks 1 + lag parts ahead first, then one per take, and returns a round in actor order', async () => {
    const demands: number[] = [];
    const bus = new LocalTrajectoryBus(['a', 'b'], 1, (samples) => demands.push(samples));
    await bus.put(part('b', 0));
    await bus.put(part('a', 0));
    const first = await bus.take(always);
    expect(demands).toEqual([5, 5]);
    expect(first.parts.map((p) => p.actor)).toEqual(['a', 'b']);
    await bus.ack(first);
    const next = bus.take(always);
    await bus.put(part('a', 1));
    await bus.put(part('b', 1));
    expect((await next).parts.map((p) => p.weightsVersion)).toEqual([1, 1]);
    expect(demands).toEqual([5, 5, 5]);
    await bus.ack(await Promise.resolve(first));
    await expect(bus.ack(first)).rejects.toThrow(/ack without a take/);
  });

  it('drops and counts unusable parts and parts of another mode, and takes another round when nothing is left', async () => {
    let demands = 0;
    const bus = new LocalTrajectoryBus(['a', 'b'], 0, () => demands++);
    for (const p of [part('a', 0, 4), part('b', 1, 2), part('a', 5, 7), part('b', 6, 3, 'imitation')]) await bus.put(p);
    const taken = await bus.take({ samples: 4, usable: (p) => p.weightsVersion >= 5 });
    expect(taken.parts.map((p) => p.weightsVersion)).toEqual([5]);
    expect(taken.stale).toEqual({ parts: 3, decisions: 9 });
    expect(demands).toBe(2);
  });

  it('rejects a waiting take when an actor fails', async () => {
    const bus = new LocalTrajectoryBus(['a'], 0, () => undefined);
    const waiting = bus.take(always);
    bus.fail(new Error('actor 0: boom'));
    await expect(waiting).rejects.toThrow(/boom/);
  });
});

describe('in-process actors', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('play each part with the weights published last before it was asked for (lag 1)', async () => {
    const network = buildNetwork({
      kind: 'policy-value',
      observationSize: OBSERVATION_SIZE,
      actionCount: ACTION_COUNT,
      hiddenUnits: [4],
      seed: 1,
    });
    const init = (actor: number): ActorInit => ({
      actor,
      backend: 'wasm',
      network: network.config,
      teacher: null,
      setup: {
        players: [2],
        games: 2,
        env: { preset: 'standard', rules: {}, episode: 'round', reward: 'zeroSum', rewardScale: 0.01, maxTurns: 20 },
        returnHorizon: 'round',
        opponents: parseOpponentMix('self=1'),
        seed: actor + 1,
      },
    });
    const transport = await startInProcessTransport([init(0), init(1)], { inline: true, lag: 1 });
    try {
      const header = (version: number) => ({ version, mode: { kind: 'ppo' as const }, league: [] });
      await transport.weights.publish(header(0), getFlatWeights(network.model), []);
      const first = await transport.bus.take({ samples: 20, usable: () => true });
      expect(first.parts.map((p) => [p.actor, p.weightsVersion])).toEqual([
        ['0', 0],
        ['1', 0],
      ]);
      expect(first.parts.every((p) => p.trajectories.count >= 10)).toBe(true);
      await transport.weights.publish(header(1), getFlatWeights(network.model), []);
      await transport.bus.ack(first);
      // Asked for before version 1: played with version 0; the next one with version 1.
      expect((await transport.bus.take({ samples: 20, usable: () => true })).parts.map((p) => p.weightsVersion)).toEqual([0, 0]);
      expect((await transport.bus.take({ samples: 20, usable: () => true })).parts.map((p) => p.weightsVersion)).toEqual([1, 1]);
    } finally {
      await transport.close();
      network.model.dispose();
    }
  });
});
