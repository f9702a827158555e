/**
 * PPO with action masking over the fixed action space (the policy-value MLP of nn/networks.ts),
 * the RL phase of `yaniv train`. One iteration, top to bottom:
 *
 * 1. Rollout (rollout.ts, in the actor threads): the learner's seats in a league of games take
 *    their actions by sampling its masked softmax, batched over every game; each decision is
 *    recorded with log p(action) and the value, rewards are the env's zero-sum round rewards.
 * 2. Advantages and targets (`computeAdvantages`): GAE(λ) per stream, stopping at the end of the
 *    return (a round end by default) and at the batch's edge; value targets R = A + V.
 * 3. Update (`ppoUpdate`): a few epochs of shuffled minibatches of the clipped surrogate, an
 *    entropy bonus and a value error (`ppoTrainStep`: gradients by hand, global-norm clip, Adam),
 *    stopped early when the approximate KL to the acting policy passes `targetKl`.
 *
 * The actors play one weights version behind the learner by default (`actorLag`), which the
 * probability ratio accounts for: r = π_new(a) / π_acting(a).
 */
import * as tf from '@tensorflow/tfjs';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { Rng } from '../env/rules/random.js';
import type { Network, PolicyValueConfig } from '../nn/networks.js';
import type { HyperParameters } from './config.js';
import type { FastAdam } from './fastAdam.js';
import { MinibatchBuffers, gatherInputs, gatherValues, shuffledIndices } from './minibatch.js';
import { PPO_STATS, type PpoStats, ppoTrainStep } from './policyValueStep.js';
import type { TrajectoryBatch } from './rollout.js';

/**
 * GAE(λ) over decisions laid out stream by stream (TrajectoryBatch):
 *   δ_t = r_t + γ·next_t − V_t,   A_t = δ_t + γλ·c_t·A_{t+1},   R_t = A_t + V_t,
 * where next_t is the value of the stream's next decision (0 at the end of the return) and c_t is 0
 * where the return ends (done) or the stream's segment in this batch ends, else 1.
 */
export function computeAdvantages(
  t: Pick<TrajectoryBatch, 'count' | 'rewards' | 'values' | 'nextValues' | 'dones' | 'segmentEnds'>,
  gamma: number,
  lambda: number,
): { advantages: Float32Array; returns: Float32Array } {
  const advantages = new Float32Array(t.count);
  const returns = new Float32Array(t.count);
  let next = 0;
  for (let k = t.count - 1; k >= 0; k--) {
    const delta = t.rewards[k] + gamma * t.nextValues[k] - t.values[k];
    const carries = t.dones[k] === 0 && t.segmentEnds[k] === 0 ? 1 : 0;
    next = delta + gamma * lambda * carries * next;
    advantages[k] = next;
    returns[k] = next + t.values[k];
  }
  return { advantages, returns };
}

/** Shifts and scales to mean 0 and standard deviation 1 (a constant vector becomes 0). */
export function normalize(values: Float32Array): Float32Array {
  const n = values.length;
  if (n === 0) return values;
  let mean = 0;
  for (const v of values) mean += v;
  mean /= n;
  let variance = 0;
  for (const v of values) variance += (v - mean) ** 2;
  const std = Math.sqrt(variance / n);
  return values.map((v) => (v - mean) / (std + 1e-8));
}

export interface PpoUpdateStats extends PpoStats {
  gradNorm: number;
  /** Epochs begun (the last one may have stopped early on the KL). */
  epochs: number;
  minibatches: number;
  stoppedEarly: boolean;
  /** Fraction of the return's variance the values explain, 1 − Var(R − V)/Var(R), before the update. */
  explainedVariance: number;
}

export function explainedVariance(values: ArrayLike<number>, returns: ArrayLike<number>): number {
  const n = values.length;
  const mean = (xs: ArrayLike<number>, f: (i: number) => number) => {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += f(i);
    return s / n;
  };
  const meanR = mean(returns, (i) => returns[i]);
  const varR = mean(returns, (i) => (returns[i] - meanR) ** 2);
  const meanD = mean(returns, (i) => returns[i] - values[i]);
  const varD = mean(returns, (i) => (returns[i] - values[i] - meanD) ** 2);
  return varR === 0 ? Number.NaN : 1 - varD / varR;
}

/**
 * The PPO update on one batch (steps 2 and 3 above). With `targets` (a whole-deal critic's, critic.ts)
 * the advantages and the value head's targets are those, and the explained variance is the critic's.
 */
export function ppoUpdate(
  net: Network<PolicyValueConfig>,
  optimizer: FastAdam,
  batch: TrajectoryBatch,
  hp: HyperParameters,
  rng: Rng,
  targets?: { values: Float32Array; advantages: Float32Array; returns: Float32Array },
): PpoUpdateStats {
  const { advantages, returns } = targets ?? computeAdvantages(batch, hp.gamma, hp.gaeLambda);
  const coefficients = { clip: hp.clip, valueCoef: hp.valueCoef, entropyCoef: hp.entropyCoef };
  const buffers = new MinibatchBuffers(hp.minibatchSize);
  const sums: PpoStats & { gradNorm: number } = { ...(Object.fromEntries(PPO_STATS.map((k) => [k, 0])) as PpoStats), gradNorm: 0 };
  let minibatches = 0;
  let epochs = 0;
  let stoppedEarly = false;
  for (let epoch = 0; epoch < hp.epochs && !stoppedEarly; epoch++) {
    epochs++;
    const order = shuffledIndices(batch.count, () => uniformFloat64(rng));
    for (let from = 0; from < batch.count && !stoppedEarly; from += hp.minibatchSize) {
      const to = Math.min(batch.count, from + hp.minibatchSize);
      let minibatchAdvantages = gatherValues(advantages, order, from, to);
      if (hp.normalizeAdvantages) minibatchAdvantages = normalize(minibatchAdvantages);
      const { tensors: inputs, position } = gatherInputs(batch, order, from, to, buffers, net.config.actionFeatures);
      const tensors = {
        ...inputs,
        actions: tf.tensor1d(
          Int32Array.from(gatherValues(batch.actions, order, from, to), (a) => position[a]),
          'int32',
        ),
        oldLogProbs: tf.tensor1d(gatherValues(batch.logProbs, order, from, to)),
        advantages: tf.tensor1d(minibatchAdvantages),
        returns: tf.tensor1d(gatherValues(returns, order, from, to)),
      };
      try {
        const step = ppoTrainStep(net, tensors, optimizer, coefficients, hp.maxGradNorm);
        for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += step[key];
        minibatches++;
        if (hp.targetKl !== null && step.approxKl > hp.targetKl) stoppedEarly = true;
      } finally {
        tf.dispose(Object.values(tensors));
      }
    }
  }
  const mean = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, minibatches > 0 ? v / minibatches : Number.NaN])) as PpoStats & {
    gradNorm: number;
  };
  return { ...mean, epochs, minibatches, stoppedEarly, explainedVariance: explainedVariance(targets?.values ?? batch.values, returns) };
}
