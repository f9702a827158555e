/**
 * Imitation warm start (behaviour cloning, then DAgger), the first phase of `yaniv train`. One
 * iteration, top to bottom:
 *
 * 1. Rollout (rollout.ts, in the actor threads): self-play games in which the teacher (`strong` by
 *    default) is asked for its action at every position of the learner's seats. For the first part
 *    of the phase the teacher's actions are played (plain behaviour cloning on the teacher's own
 *    positions); for the last `imitationDaggerShare` the network plays and the teacher only labels
 *    (DAgger: the positions the network reaches itself, where small disagreements would otherwise
 *    compound over a game).
 * 2. Targets (`imitationTargets`): the teacher's action as a one-hot policy target; the value target
 *    is the Monte-Carlo return (GAE with λ = 1) of the played moves, so PPO starts with a value head
 *    that already predicts the round.
 * 3. Update (`imitationUpdate`): epochs of shuffled minibatches of masked cross-entropy + value error
 *    (`policyValueTrainStep`, gradients by hand).
 */
import * as tf from '@tensorflow/tfjs';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import type { Rng } from '../env/rules/random.js';
import type { Network, PolicyValueConfig } from '../nn/networks.js';
import type { HyperParameters } from './config.js';
import type { FastAdam } from './fastAdam.js';
import { MinibatchBuffers, gatherInputs, gatherValues, shuffledIndices } from './minibatch.js';
import { computeAdvantages } from './ppo.js';
import { policyValueTrainStep } from './policyValueStep.js';
import type { TrajectoryBatch } from './rollout.js';

/** Rows that carry a teacher label (a decision recorded before the phase began has none), and their value targets. */
export function imitationTargets(batch: TrajectoryBatch, gamma: number): { rows: Int32Array; returns: Float32Array } {
  const teacher = batch.teacherActions;
  if (teacher === null) throw new Error("an imitation batch needs the teacher's actions");
  const rows: number[] = [];
  for (let k = 0; k < batch.count; k++) if (teacher[k] >= 0) rows.push(k);
  return { rows: Int32Array.from(rows), returns: computeAdvantages(batch, gamma, 1).returns };
}

export interface ImitationUpdateStats {
  loss: number;
  minibatches: number;
}

/** The imitation update on one batch (steps 2 and 3 above). */
export function imitationUpdate(
  net: Network<PolicyValueConfig>,
  optimizer: FastAdam,
  batch: TrajectoryBatch,
  hp: HyperParameters,
  rng: Rng,
): ImitationUpdateStats {
  const { rows, returns } = imitationTargets(batch, hp.gamma);
  const teacher = batch.teacherActions as Int16Array;
  const buffers = new MinibatchBuffers(hp.minibatchSize);
  const target = new Float32Array(hp.minibatchSize * ACTION_COUNT);
  let lossSum = 0;
  let minibatches = 0;
  for (let epoch = 0; epoch < hp.imitationEpochs; epoch++) {
    const shuffled = shuffledIndices(rows.length, () => uniformFloat64(rng));
    const order = shuffled.map((i) => rows[i]);
    for (let from = 0; from < order.length; from += hp.minibatchSize) {
      const to = Math.min(order.length, from + hp.minibatchSize);
      const n = to - from;
      const { tensors: inputs, position, width } = gatherInputs(batch, order, from, to, buffers, net.config.actionFeatures);
      target.fill(0, 0, n * width);
      for (let k = 0; k < n; k++) target[k * width + position[teacher[order[from + k]]]] = 1;
      const tensors = {
        ...inputs,
        targetPolicy: tf.tensor2d(target.subarray(0, n * width), [n, width]),
        targetValue: tf.tensor2d(gatherValues(returns, order, from, to), [n, 1]),
      };
      try {
        lossSum += policyValueTrainStep(net, tensors, optimizer, hp.valueCoef);
        minibatches++;
      } finally {
        tf.dispose(Object.values(tensors));
      }
    }
  }
  return { loss: minibatches > 0 ? lossSum / minibatches : Number.NaN, minibatches };
}
