import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { FastAdam } from '../../training/fastAdam.js';
import { buildNetwork, trainableVariables, type Network } from '../../nn/networks.js';
import { policyValueLoss, trainStep, type PolicyValueBatch } from '../../training/losses.js';

const config: Parameters<typeof buildNetwork>[0] & { kind: 'policy-value' } = {
  kind: 'policy-value',
  observationSize: 6,
  actionCount: 5,
  hiddenUnits: [8, 7],
  seed: 3,
};

function makeBatch(): PolicyValueBatch {
  return {
    observations: tf.randomNormal<tf.Rank.R2>([4, 6], 0, 1, 'float32', 11),
    legalMask: tf.tensor2d([1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1], [4, 5]),
    targetPolicy: tf.tensor2d([0.5, 0.25, 0, 0.25, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0.2, 0.2, 0.2, 0.2, 0.2], [4, 5]),
    targetValue: tf.tensor2d([1, -1, 0.5, 0], [4, 1]),
  };
}

const weightsOf = (net: Network): Float32Array[] =>
  trainableVariables(net.model).map((v) => new Float32Array(v.dataSync() as Float32Array));

function maxRelativeDifference(a: Float32Array[], b: Float32Array[]): number {
  let worst = 0;
  a.forEach((values, i) => values.forEach((x, j) => (worst = Math.max(worst, Math.abs(x - b[i][j]) / (1e-3 + Math.abs(b[i][j]))))));
  return worst;
}

/** Trains two copies of the same network, one with tfjs's Adam and one with FastAdam, and returns their weights after each step. */
function trainBoth(
  steps: number,
  hyper: { learningRate: number; beta1?: number; beta2?: number; epsilon?: number },
): { tfjs: Float32Array[][]; js: Float32Array[][] } {
  const batch = makeBatch();
  const a = buildNetwork(config);
  const b = buildNetwork(config);
  const reference = tf.train.adam(hyper.learningRate, hyper.beta1 ?? 0.9, hyper.beta2 ?? 0.999, hyper.epsilon ?? 1e-7);
  const mine = new FastAdam({ kind: 'adam', ...hyper });
  const tfjs: Float32Array[][] = [];
  const js: Float32Array[][] = [];
  for (let i = 0; i < steps; i++) {
    tf.dispose(trainStep(reference, a.model, () => policyValueLoss(a, batch)));
    tf.dispose(trainStep(mine, b.model, () => policyValueLoss(b, batch)));
    tfjs.push(weightsOf(a));
    js.push(weightsOf(b));
  }
  reference.dispose();
  [a, b].forEach((n) => n.model.dispose());
  tf.dispose(Object.values(batch));
  return { tfjs, js };
}

describe('FastAdam', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });
  afterAll(async () => {
    await initBackend('wasm');
  });

  for (const backend of ['wasm', 'cpu'] as const) {
    it(`follows tf.train.adam step for step (${backend})`, async () => {
      await initBackend(backend);
      for (const hyper of [{ learningRate: 0.05 }, { learningRate: 0.01, beta1: 0.5, beta2: 0.9, epsilon: 1e-4 }]) {
        const { tfjs, js } = trainBoth(8, hyper);
        // The weights move: the comparison is not between two unchanged networks.
        expect(maxRelativeDifference(tfjs[7], tfjs[0])).toBeGreaterThan(1e-2);
        // Every operation is rounded to float32 in tfjs's order, so the weights agree to the bit.
        tfjs.forEach((weights, step) => expect(js[step]).toEqual(weights));
      }
    });
  }

  it('leaves a variable the loss does not reach untouched, as tf.train.adam does', () => {
    const batch = makeBatch();
    const [a, b] = [buildNetwork(config), buildNetwork(config)];
    const reference = tf.train.adam(0.05);
    const mine = new FastAdam({ kind: 'adam', learningRate: 0.05 });
    // The policy loss alone does not reach the value head.
    const policyOnly = (net: Network) => () =>
      tf.tidy(() =>
        tf.losses.softmaxCrossEntropy<tf.Tensor, tf.Scalar>(batch.targetPolicy, (net.model.apply(batch.observations) as tf.Tensor[])[0]),
      );
    for (let i = 0; i < 3; i++) {
      tf.dispose(trainStep(reference, a.model, policyOnly(a)));
      tf.dispose(trainStep(mine, b.model, policyOnly(b)));
      tf.dispose(trainStep(reference, a.model, () => policyValueLoss(a, batch)));
      tf.dispose(trainStep(mine, b.model, () => policyValueLoss(b, batch)));
    }
    expect(weightsOf(b)).toEqual(weightsOf(a));
    reference.dispose();
    mine.dispose();
    [a, b].forEach((n) => n.model.dispose());
    tf.dispose(Object.values(batch));
  });

  it('keeps the tensor count flat over many steps', () => {
    const net = buildNetwork(config);
    const batch = makeBatch();
    const optimizer = new FastAdam({ kind: 'adam', learningRate: 0.01 });
    tf.dispose(trainStep(optimizer, net.model, () => policyValueLoss(net, batch)));
    const before = tf.memory().numTensors;
    for (let i = 0; i < 50; i++) tf.dispose(trainStep(optimizer, net.model, () => policyValueLoss(net, batch)));
    expect(tf.memory().numTensors).toBe(before);
    expect(optimizer.iterations).toBe(51);
    net.model.dispose();
    tf.dispose(Object.values(batch));
  });

  it('picks up weights assigned by someone else between steps', () => {
    const batch = makeBatch();
    const a = buildNetwork(config);
    const b = buildNetwork({ ...config, seed: 4 });
    const optimizer = new FastAdam({ kind: 'adam', learningRate: 0.01 });
    tf.dispose(trainStep(optimizer, a.model, () => policyValueLoss(a, batch)));
    const reference = new FastAdam({ kind: 'adam', learningRate: 0.01 });
    reference.setState(optimizer.getState());
    // Overwrite a's weights with b's: the next step must start from them, not from the optimizer's own last copy.
    a.model.setWeights(b.model.getWeights());
    tf.dispose(trainStep(optimizer, a.model, () => policyValueLoss(a, batch)));
    tf.dispose(trainStep(reference, b.model, () => policyValueLoss(b, batch)));
    expect(weightsOf(a)).toEqual(weightsOf(b));
    [a, b].forEach((n) => n.model.dispose());
    tf.dispose(Object.values(batch));
  });

  it('round-trips its state as copies', () => {
    const optimizer = new FastAdam({ kind: 'adam' });
    const state = {
      iterations: 3,
      accBeta1: Math.fround(0.9 ** 4),
      accBeta2: Math.fround(0.999 ** 4),
      firstMoments: [new Float32Array([1, 2])],
      secondMoments: [new Float32Array([3, 4])],
    };
    optimizer.setState(state);
    state.firstMoments[0][0] = 9;
    expect(optimizer.getState()).toEqual({ ...state, firstMoments: [new Float32Array([1, 2])] });
    expect(() => optimizer.setState({ ...state, secondMoments: [new Float32Array(3)] })).toThrow(/differ in size/);
  });

  it('refuses a config key it does not know, naming it', () => {
    expect(() => new FastAdam({ kind: 'adam', learningrate: 0.1 } as never)).toThrow('optimizer config: Unrecognized key: "learningrate"');
  });
});
