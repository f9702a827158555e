// The training transport contract (training/transport.ts), one suite run against every
// implementation (test/training/transport.test.ts): parts put by three actors come out of a take,
// in put order, with at least the samples asked for; a part the learner cannot use, or of another
// mode than the take's first, is dropped and counted; an acknowledged take is never delivered
// again; the weight store keeps the latest version and the league's. Where the transport can
// (Redis): a take a learner died with is delivered again to the next, and an unreadable entry is
// counted and skipped.
import { afterEach, describe, expect, it } from 'vitest';
import { type RemoteRun, currentFormats } from '../../training/redisTransport.js';
import type { CollectMode } from '../../training/rollout.js';
import { emptyRolloutStats, emptyTrajectoryBatch } from '../../training/trajectory.js';
import type { TrajectoryBus, TrajectoryPart, WeightStore } from '../../training/transport.js';

/** The actors of every case, in the order a round takes them. */
export const ACTORS = ['a', 'b', 'c'] as const;

/** One run's two ends, with the hooks a transport offers beyond the contract. */
export interface TransportUnderTest {
  /** The learner's end. */
  readonly bus: TrajectoryBus;
  readonly weights: WeightStore;
  /** The actors' end (another connection where the transport has them). */
  readonly actors: Pick<TrajectoryBus, 'put'>;
  /** A new learner on the same run, as after the first died without acknowledging (where it can be). */
  nextLearner?(): Promise<Pick<TrajectoryBus, 'take' | 'ack'>>;
  /** Puts an entry no actor could have written (where the transport can hold one). */
  putUnreadable?(): Promise<void>;
  close(): Promise<void>;
}

export function samplePart(actor: string, weightsVersion = 0, decisions = 3, kind: CollectMode['kind'] = 'ppo'): TrajectoryPart {
  return {
    actor,
    weightsVersion,
    mode: kind === 'ppo' ? { kind } : { kind, teacherPlays: true },
    trajectories: emptyTrajectoryBatch(decisions, kind === 'imitation'),
    stats: emptyRolloutStats(),
  };
}

/** A run's config as a learner writes it (the transport stores it; actors read it). */
export const SAMPLE_RUN: RemoteRun = {
  formats: currentFormats('obs', 'actions'),
  network: { kind: 'policy-value', observationSize: 4, actionCount: 3, hiddenUnits: [2], actionFeatures: 0, activation: 'relu' },
  setup: {
    players: [2],
    games: 1,
    env: { preset: 'standard', rules: {}, episode: 'game', reward: 'zeroSum', rewardScale: 1, maxTurns: 100 },
    returnHorizon: 'game',
    opponents: [{ spec: 'self', weight: 1 }],
  },
  teacher: null,
  partSamples: 3,
  maxBacklog: 10,
};

const weightsOf = (x: number) => Float32Array.from([x, x + 0.5]);

export function transportContract(name: string, open: () => Promise<TransportUnderTest>): void {
  describe(`training transport contract: ${name}`, () => {
    let transport: TransportUnderTest | null = null;
    const start = async () => (transport = await open());
    afterEach(async () => {
      await transport?.close();
      transport = null;
    });

    it('a take holds the parts put, in put order, with at least the samples asked; acknowledged, never again', async () => {
      const { bus, actors } = await start();
      for (const actor of ACTORS) await actors.put(samplePart(actor, 0, 2));
      const taken = await bus.take({ samples: 6, usable: () => true });
      expect(taken.parts.map((p) => p.actor)).toEqual([...ACTORS]);
      expect(taken.stale).toEqual({ parts: 0, decisions: 0 });
      expect(taken.bad).toBe(0);
      await bus.ack(taken);
      for (const actor of ACTORS) await actors.put(samplePart(actor, 1, 2));
      const next = await bus.take({ samples: 6, usable: () => true });
      expect(next.parts.map((p) => [p.actor, p.weightsVersion])).toEqual(ACTORS.map((actor) => [actor, 1]));
      await bus.ack(next);
    });

    it('drops and counts a part the learner cannot use, and one of another mode than the take', async () => {
      const { bus, actors } = await start();
      await actors.put(samplePart('a', 0, 4));
      await actors.put(samplePart('b', 5, 2));
      await actors.put(samplePart('c', 5, 3, 'imitation'));
      const taken = await bus.take({ samples: 2, usable: (part) => part.weightsVersion >= 5 });
      expect(taken.parts.map((p) => [p.actor, p.weightsVersion, p.mode.kind])).toEqual([['b', 5, 'ppo']]);
      expect(taken.stale).toEqual({ parts: 2, decisions: 7 });
      await bus.ack(taken);
    });

    it('the weight store keeps the latest version and the league, and refuses a version long gone', async () => {
      const { weights } = await start();
      expect(await weights.latest()).toBeNull();
      const snapshot = { id: 0, episodes: 0, weights: weightsOf(0) };
      await weights.publish({ version: 0, mode: { kind: 'ppo' }, league: [] }, weightsOf(0), []);
      for (let version = 1; version <= 5; version++)
        await weights.publish({ version, mode: { kind: 'imitation', teacherPlays: false }, league: [0] }, weightsOf(version), [snapshot]);
      expect(await weights.latest()).toEqual({ version: 5, mode: { kind: 'imitation', teacherPlays: false }, league: [0] });
      expect(Array.from(await weights.fetch(5))).toEqual([5, 5.5]);
      expect(Array.from(await weights.fetch(0))).toEqual([0, 0.5]);
      await expect(weights.fetch(1)).rejects.toThrow(/weights version 1/);
    });

    it('a take the learner died with is delivered again to the next learner', async (context) => {
      const { bus, actors } = await start();
      if (!transport?.nextLearner) return context.skip('this transport does not outlive its learner');
      for (const actor of ACTORS) await actors.put(samplePart(actor, 0, 2));
      const unacknowledged = await bus.take({ samples: 6, usable: () => true });
      expect(unacknowledged.parts).toHaveLength(3);
      const next = await transport.nextLearner();
      const again = await next.take({ samples: 6, usable: () => true });
      expect(again.parts.map((p) => p.actor)).toEqual([...ACTORS]);
      await next.ack(again);
    });

    it('an entry no actor could have written is counted as bad and skipped', async (context) => {
      const { bus, actors } = await start();
      if (!transport?.putUnreadable) return context.skip('this transport cannot hold a foreign entry');
      await transport.putUnreadable();
      for (const actor of ACTORS) await actors.put(samplePart(actor, 0, 2));
      const taken = await bus.take({ samples: 6, usable: () => true });
      expect(taken.bad).toBe(1);
      expect(taken.parts.map((p) => p.actor)).toEqual([...ACTORS]);
      await bus.ack(taken);
    });
  });
}
