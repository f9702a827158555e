// Trains a shipped model's q head (agents/equity/qHead.ts) on positions from scripts/qheadData.ts,
// its trunk frozen, and measures it on held-out games (every fifth game of each file) against the
// teacher (the judge's 32-world playouts), the advice's 8-world judge and the games' outcomes:
//   node dist/scripts/qheadTrain.js MODEL_DIR DATA.jsonl...
// writes MODEL_DIR/qhead.json, names it in MODEL_DIR/metadata.json (`qHead`) and prints the figures.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { MODEL_CONTRACT } from '../env/gym/modelContract.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import { initBackend } from '../nn/backend.js';
import { loadNetwork } from '../nn/persistence.js';
import { SinglePolicyValueEvaluator } from '../nn/singleEvaluator.js';
import { METADATA_JSON } from '../nn/modelFiles.js';
import { type QHeadSample, denseObservation, parseQHeadSamples } from '../agents/equity/qHeadData.js';
import {
  Q_HEAD_FILE,
  Q_HEAD_MOVE_INPUTS,
  Q_HEAD_VERSION,
  QHead,
  type QHeadFile,
  equityLogit,
  pointsTarget,
  writeMoveInputs,
} from '../agents/equity/qHead.js';
import { heldOutFigures } from './qheadFigures.js';

const HIDDEN = 32;
const EPOCHS = Number(process.env.QHEAD_EPOCHS ?? 40);

const [dir, ...files] = process.argv.slice(2);
if (!dir || files.length === 0) {
  process.stderr.write('usage: node dist/scripts/qheadTrain.js MODEL_DIR DATA.jsonl...\n');
  process.exit(2);
}

await initBackend('cpu');
const { network } = await loadNetwork(dir, MODEL_CONTRACT);
const trunk = new SinglePolicyValueEvaluator(network);
const trunkUnits = network.config.hiddenUnits[network.config.hiddenUnits.length - 1];
const width = trunkUnits + Q_HEAD_MOVE_INPUTS;

const samples = files.flatMap((file) => parseQHeadSamples(readFileSync(file, 'utf8'), file).map((s) => ({ ...s, file })));
const heldOut = (s: QHeadSample) => s.game % 5 === 4;
const train = samples.filter((s) => !heldOut(s));
const test = samples.filter(heldOut);

/** The rows of a set of positions: one per candidate, the trunk's top layer and the move's inputs; targets the teacher's. */
function rows(set: readonly QHeadSample[]): { x: Float32Array; anchors: Float32Array; y: Float32Array; n: number } {
  const n = set.reduce((sum, s) => sum + s.candidates.length, 0);
  const x = new Float32Array(n * width);
  const anchors = new Float32Array(n * 2);
  const y = new Float32Array(n * 2);
  let r = 0;
  for (const s of set) {
    const h = trunk.trunkOf(denseObservation(s, OBSERVATION_SIZE));
    const context = Int16Array.from(s.context);
    const anchor = equityLogit(s.roundStart);
    s.candidates.forEach((action, i) => {
      x.set(h, r * width);
      writeMoveInputs(context, anchor, action, trunk.baseLogit(h, action), x, r * width + trunkUnits);
      anchors[r * 2] = anchor;
      y[r * 2] = s.teacher.win[i];
      y[r * 2 + 1] = pointsTarget(s.teacher.points[i]);
      r++;
    });
  }
  return { x, anchors, y, n };
}

function loss(yTrue: tf.Tensor, yPred: tf.Tensor): tf.Scalar {
  return tf.tidy(() => {
    const [win, points] = tf.split(yTrue, 2, 1);
    const [winLogit, pointsOut] = tf.split(yPred, 2, 1);
    return tf.add(tf.losses.sigmoidCrossEntropy(win, winLogit), tf.losses.meanSquaredError(points, pointsOut));
  });
}

const data = rows(train);
// The head's two layers, and the round-start equity's logit added to the first output (the head learns the change).
const input = tf.input({ shape: [width] });
const anchorInput = tf.input({ shape: [2] });
const first = tf.layers.dense({ units: HIDDEN, activation: 'relu', kernelInitializer: tf.initializers.glorotUniform({ seed: 41 }) });
const second = tf.layers.dense({ units: 2, kernelInitializer: tf.initializers.glorotUniform({ seed: 42 }) });
const output = tf.layers.add().apply([second.apply(first.apply(input)) as tf.SymbolicTensor, anchorInput]) as tf.SymbolicTensor;
const model = tf.model({ inputs: [input, anchorInput], outputs: output });
model.compile({ optimizer: tf.train.adam(1e-3), loss });
const xs = [tf.tensor2d(data.x, [data.n, width]), tf.tensor2d(data.anchors, [data.n, 2])];
const ys = tf.tensor2d(data.y, [data.n, 2]);
await model.fit(xs, ys, {
  epochs: EPOCHS,
  batchSize: 256,
  shuffle: true,
  verbose: 0,
  callbacks: { onEpochEnd: (epoch, logs) => void (epoch % 10 === 9 && console.log(`epoch ${epoch + 1}: loss ${logs?.loss.toFixed(4)}`)) },
});

const layers = [first, second].map((layer) => {
  const [kernel, bias] = layer.getWeights();
  const [inputs, units] = kernel.shape as [number, number];
  return { inputs, units, kernel: Array.from(kernel.dataSync()), bias: Array.from(bias.dataSync()) };
}) as QHeadFile['layers'];
const draft: QHeadFile = { version: Q_HEAD_VERSION, trunkUnits, layers, margin: 0, heldOut: { positions: 0, win95: 0, points95: 0 } };
const figures = heldOutFigures(new QHead(draft), trunk, test);
const file: QHeadFile = { ...draft, margin: figures.margin, heldOut: figures.heldOut };
writeFileSync(path.join(dir, Q_HEAD_FILE), JSON.stringify(file) + '\n');
const metaFile = path.join(dir, METADATA_JSON);
const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Record<string, unknown>;
meta.qHead = {
  version: Q_HEAD_VERSION,
  file: Q_HEAD_FILE,
  positions: train.length,
  players: [...new Set(samples.map((s) => s.players))].sort((a, b) => a - b),
  teacher: "the judge's playouts, 32 worlds (scripts/qheadData.ts)",
  heldOut: figures.heldOut,
};
writeFileSync(metaFile, JSON.stringify(meta, null, 2) + '\n');
console.log(JSON.stringify({ train: train.length, test: test.length, rows: data.n, margin: figures.margin, ...figures.heldOut }, null, 2));
