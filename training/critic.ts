/**
 * The critics that give the advantages in place of the policy's value head: the rollout critic
 * of `--critic rollout` (its values recorded by the actors, rolloutCritic.ts), and the whole-deal
 * critic of `--critic whole-deal` (issue 44 item 2): a value network that reads the
 * seat's observation and what the seat cannot see (env/gym/wholeDeal.ts), trained on the same
 * returns, whose values give the policy's advantages. Training only: it lives in the checkpoint
 * (checkpoint/critic/, with its optimizer, so --resume continues it) and never in a model folder.
 *
 * It is a policy-value MLP of nn/networks.ts with one action: its policy head is inert (a softmax
 * over one action is 1, its cross-entropy and gradient 0), so the network's builder, its fast
 * forward and backward (policyValueStep.ts), its persistence and its checkpoints serve it as they are.
 */
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { OBSERVATION_VERSION } from '../env/gym/observation.js';
import { WHOLE_DEAL_SIZE, WHOLE_DEAL_VERSION, joinWholeDeal } from '../env/gym/wholeDeal.js';
import type { Rng } from '../env/rules/random.js';
import { type Network, type PolicyValueConfig, buildNetwork } from '../nn/networks.js';
import { createOptimizer, loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import type { HyperParameters } from './config.js';
import type { FastAdam } from './fastAdam.js';
import { shuffledIndices } from './minibatch.js';
import { computeAdvantages } from './ppo.js';
import { policyValueForward, policyValueTrainStep } from './policyValueStep.js';
import type { TrajectoryBatch } from './trajectory.js';

/** The critic's folder inside a checkpoint. */
export const CRITIC_DIR = 'critic';

/** What a saved critic reads and writes: the whole deal over this observation, one value. */
export const CRITIC_CONTRACT = Object.freeze({
  observationVersion: `${WHOLE_DEAL_VERSION} over ${OBSERVATION_VERSION}`,
  actionSpaceVersion: 'value-only',
});

/** Rows per forward pass when the critic values a whole batch. */
const CHUNK = 1024;

type CriticBatch = Pick<TrajectoryBatch, 'count' | 'observations' | 'wholeDeal'>;

/** The advantages and value targets the critic's values give a batch, with those values. */
export interface CriticTargets {
  values: Float32Array;
  advantages: Float32Array;
  returns: Float32Array;
}

/** A critic whose values, not the policy's value head, give the advantages (--critic whole-deal or rollout). */
export interface ValueCritic {
  /** Its value of every row of the batch. */
  values(batch: TrajectoryBatch): Float32Array;
  /** The advantages and value targets its values give the batch (`criticTargets`). */
  targets(batch: TrajectoryBatch, gamma: number, lambda: number): CriticTargets;
}

/**
 * GAE(λ) with a critic's values in place of the recorded ones (ppo.ts computeAdvantages). The
 * next value of a row is the critic's value of the stream's next row; at the end of a return 0;
 * where the game was cut short (done 2) or the stream's segment in this batch ends, the row's own
 * value (its next decision is in the next batch, whose whole deal this one does not hold).
 */
export function criticTargets(batch: TrajectoryBatch, values: Float32Array, gamma: number, lambda: number): CriticTargets {
  const nextValues = new Float32Array(batch.count);
  for (let k = 0; k < batch.count; k++) {
    if (batch.dones[k] === 1) nextValues[k] = 0;
    else if (batch.dones[k] !== 0 || batch.segmentEnds[k] === 1) nextValues[k] = values[k];
    else nextValues[k] = values[k + 1];
  }
  const { advantages, returns } = computeAdvantages({ ...batch, values, nextValues }, gamma, lambda);
  return { values, advantages, returns };
}

/** The rollout critic (--critic rollout): the values the actors recorded (training/rolloutCritic.ts); nothing to train or save. */
export const ROLLOUT_CRITIC: ValueCritic = {
  values(batch) {
    if (batch.rolloutValues === null)
      throw new Error('the batch has no rolloutValues column: its actors did not play the rounds out (--critic rollout)');
    return batch.rolloutValues;
  },
  targets(batch, gamma, lambda) {
    return criticTargets(batch, this.values(batch), gamma, lambda);
  },
};

function hiddenOf(batch: CriticBatch): Float32Array {
  if (batch.wholeDeal === null)
    throw new Error('the batch has no wholeDeal column: its actors did not record the whole deal (--critic whole-deal)');
  return batch.wholeDeal;
}

export class Critic implements ValueCritic {
  private constructor(
    readonly network: Network<PolicyValueConfig>,
    private readonly optimizer: FastAdam,
  ) {}

  private static withOptimizer(network: Network<PolicyValueConfig>, hp: HyperParameters): Critic {
    return new Critic(network, createOptimizer({ kind: 'adam', learningRate: hp.criticLearningRate, epsilon: hp.adamEpsilon }).optimizer);
  }

  /**
   * A critic that starts as the policy's value: its trunk and value head copied, the first layer's
   * kernel given zero rows for the hidden features (so it values every deal as the seat's value
   * head does until training moves them). The critic's start at the run's first PPO update
   * (after imitation, or from --init-from's model), and on a resume of a checkpoint without one.
   */
  static fromPolicy(policy: Network<PolicyValueConfig>, hp: HyperParameters): Critic {
    const { hiddenUnits, activation } = policy.config;
    const network = buildNetwork({ kind: 'policy-value', observationSize: WHOLE_DEAL_SIZE, actionCount: 1, hiddenUnits, activation });
    tf.tidy(() => {
      for (const layer of network.model.layers) {
        if (layer.getWeights().length === 0 || layer.name === 'policy_logits') continue;
        const [kernel, bias] = policy.model.getLayer(layer.name).getWeights();
        const extra = WHOLE_DEAL_SIZE - policy.config.observationSize;
        const rows = layer.name === 'trunk_1' ? tf.concat([kernel, tf.zeros([extra, kernel.shape[1] as number])], 0) : kernel;
        layer.setWeights([rows, bias]);
      }
    });
    return Critic.withOptimizer(network, hp);
  }

  /** The critic of a checkpoint folder, with its optimizer. */
  static async load(checkpointDir: string): Promise<Critic> {
    const { network, optimizer } = await loadCheckpoint(path.join(checkpointDir, CRITIC_DIR), CRITIC_CONTRACT);
    return new Critic(network, optimizer);
  }

  /** Writes the critic and its optimizer into `checkpointDir`/critic. */
  async save(checkpointDir: string, training: Record<string, unknown>): Promise<void> {
    const checkpoint = { network: this.network, optimizer: this.optimizer, optimizerConfig: this.optimizer.config };
    await saveCheckpoint(path.join(checkpointDir, CRITIC_DIR), checkpoint, { ...CRITIC_CONTRACT, training });
  }

  /** The critic's value of every row of the batch. */
  values(batch: CriticBatch): Float32Array {
    const hidden = hiddenOf(batch);
    const out = new Float32Array(batch.count);
    for (let from = 0; from < batch.count; from += CHUNK) {
      const to = Math.min(batch.count, from + CHUNK);
      const values = tf.tidy(() => {
        const inputs = tf.tensor2d(joinWholeDeal(batch.observations, hidden, from, to), [to - from, WHOLE_DEAL_SIZE]);
        return policyValueForward(this.network, inputs).value;
      });
      out.set(values.dataSync(), from);
      values.dispose();
    }
    return out;
  }

  targets(batch: TrajectoryBatch, gamma: number, lambda: number): CriticTargets {
    return criticTargets(batch, this.values(batch), gamma, lambda);
  }

  /** `criticEpochs` passes of shuffled minibatches of the mean squared error to `returns`; the mean loss. */
  train(batch: TrajectoryBatch, returns: Float32Array, hp: HyperParameters, rng: Rng): number {
    const hidden = hiddenOf(batch);
    let sum = 0;
    let steps = 0;
    for (let epoch = 0; epoch < hp.criticEpochs; epoch++) {
      const order = shuffledIndices(batch.count, () => uniformFloat64(rng));
      for (let from = 0; from < batch.count; from += hp.minibatchSize) {
        const to = Math.min(batch.count, from + hp.minibatchSize);
        const rows = to - from;
        const tensors = {
          observations: tf.tensor2d(joinWholeDeal(batch.observations, hidden, from, to, order), [rows, WHOLE_DEAL_SIZE]),
          legalMask: tf.ones<tf.Rank.R2>([rows, 1]),
          targetPolicy: tf.ones<tf.Rank.R2>([rows, 1]),
          targetValue: tf.tensor2d(
            Float32Array.from({ length: rows }, (_, i) => returns[order[from + i]]),
            [rows, 1],
          ),
        };
        try {
          sum += policyValueTrainStep(this.network, tensors, this.optimizer, 1);
          steps++;
        } finally {
          tf.dispose(Object.values(tensors));
        }
      }
    }
    return steps > 0 ? sum / steps : Number.NaN;
  }

  dispose(): void {
    this.optimizer.dispose();
    this.network.model.dispose();
  }
}
