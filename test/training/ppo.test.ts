// The algorithms' parts against values computed by hand: GAE and Monte-Carlo targets on a
// three-step trajectory, advantage normalisation, imitation targets, the opponent mix and the
// snapshot pool; and the PPO and imitation updates lowering their loss on a fixed batch.
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { seededRng } from '../../env/rules/random.js';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork } from '../../nn/networks.js';
import { DEFAULT_HYPER_PARAMETERS } from '../../training/config.js';
import { FastAdam } from '../../training/fastAdam.js';
import { imitationTargets, imitationUpdate } from '../../training/imitation.js';
import { OpponentMixError, SnapshotPool, drawOpponent, parseOpponentMix } from '../../training/league.js';
import { computeAdvantages, normalize, ppoUpdate } from '../../training/ppo.js';
import { type TrajectoryBatch, emptyTrajectoryBatch } from '../../training/rollout.js';

/** A three-step stream: rewards 0, 0, 1 (the return ends at the third), values 0.5, 0.6, 0.8. */
const threeSteps = {
  count: 3,
  rewards: Float32Array.from([0, 0, 1]),
  values: Float32Array.from([0.5, 0.6, 0.8]),
  nextValues: Float32Array.from([0.6, 0.8, 0]),
  dones: Uint8Array.from([0, 0, 1]),
  segmentEnds: Uint8Array.from([0, 0, 1]),
};

describe('advantages and targets', () => {
  it('GAE on a three-step trajectory, by hand', () => {
    // γ = 0.9, λ = 0.8: δ = (0 + 0.9·0.6 − 0.5, 0 + 0.9·0.8 − 0.6, 1 + 0 − 0.8) = (0.04, 0.12, 0.2).
    // A₃ = 0.2, A₂ = 0.12 + 0.72·0.2 = 0.264, A₁ = 0.04 + 0.72·0.264 = 0.23008.
    const { advantages, returns } = computeAdvantages(threeSteps, 0.9, 0.8);
    [0.23008, 0.264, 0.2].forEach((a, k) => expect(advantages[k]).toBeCloseTo(a, 6));
    expect(returns[0]).toBeCloseTo(0.73008, 6);
    expect(returns[1]).toBeCloseTo(0.864, 6);
    expect(returns[2]).toBeCloseTo(1, 6);
  });

  it('λ = 1, γ = 1 gives the Monte-Carlo return to the end of the round', () => {
    const { returns } = computeAdvantages(threeSteps, 1, 1);
    expect(Array.from(returns).map((r) => +r.toFixed(6))).toEqual([1, 1, 1]);
  });

  it('stops at a done and at a segment end (bootstrapping there)', () => {
    // Two streams of two: the first ends its return, the second is cut by the batch edge with next value 0.4.
    const t = {
      count: 4,
      rewards: Float32Array.from([0, 1, 0, 0]),
      values: Float32Array.from([0.2, 0.3, 0.1, 0.2]),
      nextValues: Float32Array.from([0.3, 0, 0.2, 0.4]),
      dones: Uint8Array.from([0, 1, 0, 0]),
      segmentEnds: Uint8Array.from([0, 1, 0, 1]),
    };
    const { advantages } = computeAdvantages(t, 1, 1);
    expect(advantages[1]).toBeCloseTo(0.7, 6);
    expect(advantages[0]).toBeCloseTo(0.1 + 0.7, 6);
    expect(advantages[3]).toBeCloseTo(0.2, 6);
    expect(advantages[2]).toBeCloseTo(0.1 + 0.2, 6);
  });

  it('normalises to mean 0 and deviation 1', () => {
    const n = normalize(Float32Array.from([1, 2, 3, 4]));
    expect(n.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 6);
    expect(Math.sqrt(n.reduce((a, b) => a + b * b, 0) / 4)).toBeCloseTo(1, 5);
    expect(Array.from(normalize(Float32Array.from([2, 2])))).toEqual([0, 0]);
  });
});

describe('league', () => {
  it('reads spec=weight mixes, the weight after the last "="', () => {
    expect(parseOpponentMix('self=3, strong=1')).toEqual([
      { spec: 'self', weight: 0.75 },
      { spec: 'strong', weight: 0.25 },
    ]);
    expect(parseOpponentMix('rollout?samples=8=0.5,past=0.5').map((s) => s.spec)).toEqual(['rollout?samples=8', 'past']);
    expect(parseOpponentMix('self=1,strong=0')).toEqual([{ spec: 'self', weight: 1 }]);
  });

  it('names the bad entry', () => {
    expect(() => parseOpponentMix('')).toThrow(OpponentMixError);
    expect(() => parseOpponentMix('strong')).toThrow(/"strong" is not spec=weight/);
    expect(() => parseOpponentMix('strong=x')).toThrow(/not spec=weight/);
    expect(() => parseOpponentMix('strong=-1')).toThrow(/weight ≥ 0/);
    expect(() => parseOpponentMix('wizard=1')).toThrow(/unknown agent "wizard"/);
    expect(() => parseOpponentMix('self=1,self=2')).toThrow(/twice/);
    expect(() => parseOpponentMix('self=0')).toThrow(/sum to 0/);
  });

  it('draws by weight, "past" falling back to "self" while the pool is empty', () => {
    const mix = parseOpponentMix('self=1,past=1,strong=2');
    const rng = seededRng(4);
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const spec = drawOpponent(mix, rng, true);
      counts.set(spec, (counts.get(spec) ?? 0) + 1);
    }
    expect((counts.get('strong') ?? 0) / 4000).toBeCloseTo(0.5, 1);
    expect((counts.get('past') ?? 0) / 4000).toBeCloseTo(0.25, 1);
    expect(drawOpponent(parseOpponentMix('past=1'), rng, false)).toBe('self');
  });

  it('a full pool keeps its first snapshot and drops the oldest after it', () => {
    const pool = new SnapshotPool(3);
    const w = new Float32Array(1);
    expect([1, 2, 3].flatMap((id) => pool.add({ id, episodes: id, weights: w }))).toEqual([]);
    expect(pool.add({ id: 4, episodes: 4, weights: w })).toEqual([2]);
    expect(pool.add({ id: 5, episodes: 5, weights: w })).toEqual([3]);
    expect(pool.snapshots.map((s) => s.id)).toEqual([1, 4, 5]);
    expect(new SnapshotPool(0).add({ id: 1, episodes: 0, weights: w })).toEqual([]);
  });
});

describe('updates on a fixed batch', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  /** A small batch of synthetic decisions: a few legal actions each, one stream ending its return every 4 rows. */
  const networkOf = (hidden: number, seed: number) =>
    buildNetwork({ kind: 'policy-value', observationSize: OBSERVATION_SIZE, actionCount: ACTION_COUNT, hiddenUnits: [hidden], seed });

  function syntheticBatch(count: number): TrajectoryBatch {
    const rng = seededRng(9);
    const u = () => (rng.next() >>> 0) / 2 ** 32;
    const batch = emptyTrajectoryBatch(count, true);
    batch.observations.forEach((_, i) => (batch.observations[i] = u() < 0.05 ? 1 : 0));
    for (let k = 0; k < count; k++) {
      const legal = [0, 1, 2, 3].map((j) => (k * 37 + j * 101) % ACTION_COUNT);
      legal.forEach((a) => (batch.masks[k * ACTION_COUNT + a] = 1));
      batch.actions[k] = legal[k % 4];
      batch.teacherActions![k] = legal[(k + 1) % 4];
      batch.logProbs[k] = Math.log(0.25);
      batch.dones[k] = k % 4 === 3 ? 1 : 0;
      batch.rewards[k] = batch.dones[k] ? (k % 8 === 3 ? 1 : -1) : 0;
    }
    batch.segmentEnds[count - 1] = 1;
    return batch;
  }

  it('imitation: the masked cross-entropy to the teacher falls, and labelled rows are the ones used', () => {
    const net = networkOf(16, 2);
    const batch = syntheticBatch(64);
    batch.teacherActions![5] = -1;
    expect(imitationTargets(batch, 1).rows.length).toBe(63);
    const optimizer = new FastAdam({ kind: 'adam', learningRate: 0.01 });
    const hp = { ...DEFAULT_HYPER_PARAMETERS, minibatchSize: 32, imitationEpochs: 1 };
    const first = imitationUpdate(net, optimizer, batch, hp, seededRng(1)).loss;
    let last = first;
    for (let i = 0; i < 10; i++) last = imitationUpdate(net, optimizer, batch, hp, seededRng(1)).loss;
    expect(last).toBeLessThan(first * 0.5);
    optimizer.dispose();
    net.model.dispose();
  });

  it("PPO: the clipped objective's loss falls over updates on the same batch", () => {
    const net = networkOf(16, 3);
    const batch = syntheticBatch(64);
    const optimizer = new FastAdam({ kind: 'adam', learningRate: 0.003 });
    const hp = { ...DEFAULT_HYPER_PARAMETERS, minibatchSize: 64, epochs: 1, targetKl: null, clip: 10 };
    const losses: number[] = [];
    for (let i = 0; i < 15; i++) losses.push(ppoUpdate(net, optimizer, batch, hp, seededRng(1)).loss);
    expect(losses[losses.length - 1]).toBeLessThan(losses[0] - 0.1);
    optimizer.dispose();
    net.model.dispose();
  });

  it('PPO: a minibatch of forced moves (one legal action, the same in every row) updates like any other', () => {
    const net = networkOf(8, 4);
    const batch = syntheticBatch(65);
    // The last row, alone in its minibatch of the shuffled order or not, is a forced move; so is a whole batch of them.
    const forced = emptyTrajectoryBatch(3, false);
    for (let k = 0; k < 3; k++) {
      forced.masks[k * ACTION_COUNT + 7] = 1;
      forced.actions[k] = 7;
      forced.logProbs[k] = 0;
      forced.rewards[k] = k - 1;
      forced.dones[k] = 1;
    }
    forced.segmentEnds[2] = 1;
    const optimizer = new FastAdam({ kind: 'adam', learningRate: 0.003 });
    const hp = { ...DEFAULT_HYPER_PARAMETERS, minibatchSize: 64, epochs: 1, targetKl: null };
    expect(Number.isFinite(ppoUpdate(net, optimizer, forced, hp, seededRng(2)).loss)).toBe(true);
    expect(Number.isFinite(ppoUpdate(net, optimizer, batch, hp, seededRng(2)).loss)).toBe(true);
    optimizer.dispose();
    net.model.dispose();
  });
});
