// tfjs section of `npm run bench`: training step (stock vs fast matmul), batched inference, decision latency.
import os from 'node:os';
import * as tf from '@tensorflow/tfjs';
import Table from 'cli-table3';
import { describeBackend, initBackend, parseBackendChoice, type BackendInfo } from '../nn/backend.js';
import { FastAdam } from '../training/fastAdam.js';
import { evaluateLogitsValue, evaluatePolicyValue, evaluatePolicyValueWithPenalty } from '../nn/inference.js';
import { buildNetwork, type Network, type PolicyValueConfig } from '../nn/networks.js';
import { policyValueTrainStep } from '../training/policyValueStep.js';
import { policyValueLoss, trainStep } from '../training/losses.js';
import { installWasmFastMatMul, uninstallWasmFastMatMul } from '../nn/wasmFastMatMul.js';

const OBS = 400;
const HIDDEN = [256, 256];
const ACTIONS = 512;
const TRAIN_BATCH = 256;

/** Median milliseconds per call of fn over `reps` calls, after `warmup` calls. */
function medianMs(fn: () => void, reps: number, warmup = 3): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function randomData(size: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 32 - 0.5;
  }
  return out;
}

/** Time of one plain (untransposed, cached-operand) matmul of [m, k]·[k, n]. */
function plainMatMulMs(m: number, k: number, n: number): number {
  const a = tf.tensor2d(randomData(m * k, 1), [m, k]);
  const b = tf.tensor2d(randomData(k * n, 2), [k, n]);
  const ms = medianMs(() => {
    const c = tf.matMul(a, b);
    c.dataSync();
    c.dispose();
  }, 15);
  tf.dispose([a, b]);
  return ms;
}

/** The matmuls of one training step of the MLP: forward x·W, weight gradients Xᵀ·dY, input gradients dY·Wᵀ (not for the first layer). */
function stepMatMulMs(batch: number): number {
  const widths = [OBS, ...HIDDEN, ACTIONS];
  let total = 0;
  for (let i = 0; i + 1 < widths.length; i++) {
    const [inW, outW] = [widths[i], widths[i + 1]];
    total += plainMatMulMs(batch, inW, outW);
    total += plainMatMulMs(inW, batch, outW);
    if (i > 0) total += plainMatMulMs(batch, outW, inW);
  }
  return total;
}

function forwardMatMulMs(batch: number): number {
  const widths = [OBS, ...HIDDEN, ACTIONS];
  let total = 0;
  for (let i = 0; i + 1 < widths.length; i++) total += plainMatMulMs(batch, widths[i], widths[i + 1]);
  return total;
}

function trainingBatch(rows: number): { tensors: tf.Tensor2D[]; dispose: () => void } {
  const mask = new Float32Array(rows * ACTIONS);
  const target = new Float32Array(rows * ACTIONS);
  for (let r = 0; r < rows; r++) {
    for (let a = 0; a < ACTIONS; a++) mask[r * ACTIONS + a] = (r * 7 + a * 13) % 5 === 0 ? 0 : 1;
    const pick = (r * 31) % ACTIONS;
    mask[r * ACTIONS + pick] = 1;
    target[r * ACTIONS + pick] = 1;
  }
  const tensors = [
    tf.tensor2d(randomData(rows * OBS, 3), [rows, OBS]),
    tf.tensor2d(mask, [rows, ACTIONS]),
    tf.tensor2d(target, [rows, ACTIONS]),
    tf.tensor2d(randomData(rows, 4), [rows, 1]),
  ];
  return { tensors, dispose: () => tf.dispose(tensors) };
}

function policyValueNet(): Network<PolicyValueConfig> {
  return buildNetwork({ kind: 'policy-value', observationSize: OBS, actionCount: ACTIONS, hiddenUnits: HIDDEN, seed: 1 });
}

interface StepTimes {
  /** MLP trained with plain softmax cross-entropy on its logits, through trainStep. */
  mlpMs: number;
  /** Policy-value loss through trainStep (autodiff). */
  policyValueMs: number;
  /** Policy-value loss through policyValueTrainStep (hand-written backward); FastAdam only. */
  handMs?: number;
}

/** Median step times with the given optimizer; the variants run interleaved, so machine load hits them alike. */
function trainingStepMs(reps: number, adam: 'tfjs' | 'fast'): StepTimes {
  const net = policyValueNet();
  const optimizer = adam === 'tfjs' ? tf.train.adam(1e-3) : new FastAdam({ kind: 'adam', learningRate: 1e-3 });
  const { tensors, dispose } = trainingBatch(TRAIN_BATCH);
  const [observations, legalMask, targetPolicy, targetValue] = tensors;
  const batch = { observations, legalMask, targetPolicy, targetValue };
  const run = (loss: () => tf.Scalar) => () => {
    const value = trainStep(optimizer, net.model, loss);
    value.dataSync();
    value.dispose();
  };
  const variants: Record<string, () => void> = {
    mlpMs: run(() =>
      tf.tidy(() => tf.losses.softmaxCrossEntropy<tf.Tensor, tf.Scalar>(targetPolicy, (net.model.apply(observations) as tf.Tensor[])[0])),
    ),
    policyValueMs: run(() => policyValueLoss(net, batch)),
  };
  if (optimizer instanceof FastAdam) variants.handMs = () => policyValueTrainStep(net, batch, optimizer);
  const times = interleavedMedians(variants, reps);
  dispose();
  optimizer.dispose();
  net.model.dispose();
  return times as unknown as StepTimes;
}

/** Median ms per call of each function, calling them in turn `reps` times after 3 warm-up rounds. */
function interleavedMedians(variants: Record<string, () => void>, reps: number): Record<string, number> {
  const names = Object.keys(variants);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < reps + 3; i++) {
    for (const name of names) {
      const t0 = performance.now();
      variants[name]();
      if (i >= 3) times[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(names.map((n) => [n, times[n].sort((a, b) => a - b)[Math.floor(reps / 2)]]));
}

interface InferenceTimes {
  /** Bare forward pass, logits and value read back. */
  bare: number;
  /** evaluatePolicyValue, every action legal (Float32Array mask). */
  full: number;
  /** evaluatePolicyValue with a sparse Uint8Array mask, about 16 legal actions a row, as the env gives. */
  sparse: number;
  /** The previous path (penalty built in JS and uploaded, clip, add, softmax), same mask as full. */
  penalty: number;
}

/** Median ms of the inference variants, interleaved; without `variants`, only bare and full (as the decision latency has always been measured). */
function inferenceMs(net: Network<PolicyValueConfig>, batch: number, reps: number, variants = true): InferenceTimes {
  const observations = randomData(batch * OBS, 5);
  const mask = new Float32Array(batch * ACTIONS).fill(1);
  const sparse = new Uint8Array(batch * ACTIONS);
  for (let i = 0; i < sparse.length; i++) sparse[i] = (Math.imul(i, 2654435761) >>> 0) % 32 === 0 ? 1 : 0;
  const base = { bare: () => evaluateLogitsValue(net, observations), full: () => evaluatePolicyValue(net, observations, mask) };
  const extra = {
    sparse: () => evaluatePolicyValue(net, observations, sparse),
    penalty: () => evaluatePolicyValueWithPenalty(net, observations, mask),
  };
  const t = interleavedMedians(variants ? { ...base, ...extra } : base, reps);
  return { bare: t.bare, full: t.full, sparse: t.sparse ?? NaN, penalty: t.penalty ?? NaN };
}

const fmt = (x: number, digits = 2): string => x.toFixed(digits);
const perSecond = (rows: number, ms: number): string => Math.round((rows * 1000) / ms).toLocaleString('en-US');

export async function run(): Promise<void> {
  const choice = parseBackendChoice(process.env.YANIV_TF_BACKEND ?? 'auto');
  const info: BackendInfo = await initBackend(choice);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`${describeBackend(info)} — ${cpu} (set YANIV_TF_BACKEND=node|wasm|cpu to choose)`);
  const wasm = info.backend === 'wasm';

  const matmulMs = stepMatMulMs(TRAIN_BATCH);
  const steps = new Table({ head: ['training step, 400-256-256-512, batch 256', 'ms / step', 'samples/s', '× plain matmuls'] });
  const addStep = (label: string, ms: number): void => {
    steps.push([label, fmt(ms), perSecond(TRAIN_BATCH, ms), fmt(ms / matmulMs)]);
  };
  steps.push(['its 8 matmuls at the plain-matmul rate', fmt(matmulMs), perSecond(TRAIN_BATCH, matmulMs), '1.00']);
  if (wasm) {
    uninstallWasmFastMatMul();
    const stock = trainingStepMs(5, 'tfjs');
    installWasmFastMatMul();
    const fastTf = trainingStepMs(20, 'tfjs');
    const fast = trainingStepMs(20, 'fast');
    const hand = fast.handMs ?? NaN;
    addStep('stock tfjs, softmax cross-entropy (tfjs Adam)', stock.mlpMs);
    addStep('fast matmul, softmax cross-entropy (tfjs Adam)', fastTf.mlpMs);
    addStep('fast matmul, softmax cross-entropy (FastAdam)', fast.mlpMs);
    addStep('stock tfjs, policy-value net, masked loss', stock.policyValueMs);
    addStep('fast matmul, policy-value, autodiff, tfjs Adam', fastTf.policyValueMs);
    addStep('fast matmul, policy-value, autodiff, FastAdam', fast.policyValueMs);
    addStep('policyValueTrainStep (hand backward, FastAdam)', hand);
    steps.push(['speed-up over stock: softmax CE, FastAdam', `${fmt(stock.mlpMs / fast.mlpMs, 1)}×`, '', '']);
    steps.push(['speed-up over stock: policy-value, hand step', `${fmt(stock.policyValueMs / hand, 1)}×`, '', '']);
  } else {
    const step = trainingStepMs(10, 'fast');
    addStep('softmax cross-entropy (FastAdam)', step.mlpMs);
    addStep('policy-value net, masked loss (FastAdam)', step.policyValueMs);
    addStep('policyValueTrainStep (hand backward, FastAdam)', step.handMs ?? NaN);
  }
  console.log(steps.toString());

  const net = policyValueNet();
  const inference = new Table({
    head: ['inference, 400-256-256-512 + value', 'ms / batch', 'samples/s', 'plain-matmul samples/s', 'share'],
  });
  for (const [batch, reps] of [
    [1, 400],
    [64, 100],
    [1024, 20],
  ] as const) {
    const { bare, full, sparse, penalty } = inferenceMs(net, batch, reps);
    const plainMs = forwardMatMulMs(batch);
    const row = (label: string, ms: number): void => {
      inference.push([
        `batch ${batch}, ${label}`,
        fmt(ms, 3),
        perSecond(batch, ms),
        perSecond(batch, plainMs),
        `${Math.round((100 * plainMs) / ms)}%`,
      ]);
    };
    row('bare forward (logits + value)', bare);
    row('evaluatePolicyValue', full);
    row('evaluatePolicyValue, sparse Uint8Array mask', sparse);
    row('previous path (uploaded penalty)', penalty);
  }
  console.log(inference.toString());
  const latency = inferenceMs(net, 1, 2000, false).full;
  console.log(`single decision (batch 1, policy + value, masked softmax, read back): ${fmt(latency, 3)} ms median`);
  net.model.dispose();
}
