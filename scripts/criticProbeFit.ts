/** The fit phase of criticProbe.ts: predictors trained on most games, explained variances on the rest. */
import { closeSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { readEquityData, shippedEquityFile, solveEquityData } from '../agents/equity/equity.js';
import { type GameEquity, seatEquities } from '../env/gym/equity.js';
import { WHOLE_DEAL_SIZE } from '../env/gym/wholeDeal.js';
import {
  type Data,
  type DecisionMeta,
  N,
  type RoundRecord,
  SEAT_WIDTH,
  absolute,
  compact,
  handValuesNow,
  perSeatInputs,
} from './criticProbeInputs.js';
import { mixSeed, seededRng } from '../env/rules/random.js';
import { totalsAfterRound } from '../env/rules/scoring.js';
import { initBackend } from '../nn/backend.js';
import { ExplainedVarianceSums } from '../training/heldOutValue.js';

const SCALE = 30;
const EPOCHS = Number(process.env.PROBE_EPOCHS ?? 8);

function nextActive(active: boolean[], seat: number): number {
  for (let i = 1; i <= active.length; i++) if (active[(seat + i) % active.length]) return (seat + i) % active.length;
  return seat;
}

/** The seat's equity after the round had these points (absolute seats; null for seats out), as settleRound and tableEquities make it. */
export function endEquity(
  equity: GameEquity,
  round: RoundRecord,
  points: readonly (number | null)[],
  winner: number,
  seat: number,
): number {
  const { rules } = equity;
  const wasActive = points.map((p) => p !== null);
  if (rules.gameEnd !== 'lastSurvivor') throw new Error('the probe handles games to the last survivor only');
  const { totals, eliminated } = totalsAfterRound(rules, round.startTotals.slice(0, N), wasActive, points);
  const active = wasActive.map((a, s) => a && !eliminated.includes(s));
  const left = active.filter(Boolean).length;
  if (left === 1) return active[seat] ? 1 : 0;
  if (left === 0) {
    const seats = wasActive.flatMap((a, s) => (a ? [s] : []));
    const low = seats.reduce((best, s) => (totals[s] < totals[best] ? s : best), seats[0]);
    return low === seat ? 1 : 0;
  }
  if (!active[seat]) return 0;
  const starter =
    rules.nextStarter === 'rotate'
      ? nextActive(active, nextActive(active, round.dealer))
      : active[winner]
        ? winner
        : nextActive(active, winner);
  return seatEquities(equity, totals, active, starter)[seat];
}

class Mlp {
  readonly vars: tf.Variable[] = [];
  /** Per-seat inputs: the net scores each seat's block with shared weights (winner logit, then its points' bins). */
  perSeat = false;
  constructor(sizes: number[], seed: number) {
    for (let i = 0; i + 1 < sizes.length; i++) {
      const std = Math.sqrt(2 / sizes[i]) * (i + 2 === sizes.length ? 0.1 : 1);
      this.vars.push(tf.variable(tf.randomNormal([sizes[i], sizes[i + 1]], 0, std, 'float32', seed + i)));
      this.vars.push(tf.variable(tf.zeros([sizes[i + 1]])));
    }
  }
  apply(x: tf.Tensor2D): tf.Tensor2D {
    if (!this.perSeat) return this.dense(x);
    const rows = x.shape[0];
    const y = this.dense(x.reshape([rows * N, x.shape[1] / N])).reshape([rows, N, 1 + BINS]);
    return tf.concat([y.slice([0, 0, 0], [-1, -1, 1]).reshape([rows, N]), y.slice([0, 0, 1], [-1, -1, BINS]).reshape([rows, N * BINS])], 1);
  }
  private dense(x: tf.Tensor2D): tf.Tensor2D {
    let h = x;
    for (let i = 0; i < this.vars.length; i += 2) {
      h = tf.add(tf.matMul(h, this.vars[i] as tf.Tensor2D), this.vars[i + 1]);
      if (i + 2 < this.vars.length) h = tf.relu(h);
    }
    return h;
  }
}

function rowsTensor(data: Data, rows: ArrayLike<number>, from: number, to: number): tf.Tensor2D {
  const w = data.width;
  const out = new Float32Array((to - from) * w);
  for (let k = from; k < to; k++) out.set(data.features.subarray(rows[k] * w, (rows[k] + 1) * w), (k - from) * w);
  return tf.tensor2d(out, [to - from, w]);
}

/** Targets of the points net: [winner one-hot ×4 (relative), points/SCALE ×4, mask ×4 (active, not winner), active ×4]. */
function pointsTargets(m: DecisionMeta): number[] {
  const r = m.round.result;
  const out = new Array<number>(16).fill(0);
  for (let j = 0; j < N; j++) {
    const s = absolute(m, j);
    const p = r.points[s];
    out[j] = s === r.winner ? 1 : 0;
    if (p !== null && s !== r.winner) {
      out[4 + j] = p / SCALE;
      out[8 + j] = 1;
    }
    out[12 + j] = p !== null ? 1 : 0;
  }
  return out;
}

type Kind = 'return' | 'points' | 'dist';

/** Point bins of the distributional net: 0 .. BINS − 1 (the last one holds that many or more). */
const BINS = 81;
const SAMPLES = Number(process.env.PROBE_SAMPLES ?? 16);
const outWidthOf = (kind: Kind) => (kind === 'return' ? 1 : kind === 'points' ? 8 : 4 + N * BINS);
const targetWidthOf = (kind: Kind) => (kind === 'return' ? 1 : 16);

function loss(kind: Kind, out: tf.Tensor2D, target: tf.Tensor2D): tf.Scalar {
  if (kind === 'return') return tf.losses.meanSquaredError(target, out);
  if (kind === 'dist') return distLoss(out, target);
  const logits = tf.add(out.slice([0, 0], [-1, 4]), tf.mul(tf.sub(1, target.slice([0, 12], [-1, 4])), -1e4));
  const ce = tf.losses.softmaxCrossEntropy(target.slice([0, 0], [-1, 4]), logits);
  const mask = target.slice([0, 8], [-1, 4]);
  const se = tf.sum(tf.mul(mask, tf.square(tf.sub(out.slice([0, 4], [-1, 4]), target.slice([0, 4], [-1, 4])))));
  return tf.add<tf.Scalar>(ce, tf.div(se, tf.maximum(tf.sum(mask), 1)));
}

function predict(net: Mlp, data: Data, rows: Int32Array): Float32Array[] {
  const outs: Float32Array[] = [];
  for (let from = 0; from < rows.length; from += 4096) {
    const to = Math.min(rows.length, from + 4096);
    const y = tf.tidy(() => net.apply(rowsTensor(data, rows, from, to)));
    const values = Float32Array.from(y.dataSync());
    const width = y.shape[1];
    for (let k = 0; k < to - from; k++) outs.push(values.slice(k * width, (k + 1) * width));
    y.dispose();
  }
  return outs;
}

/** The equity-mapped values of the points net's outputs: [plug-in of the expected points, mixture over the round's winner]. */
function pointsValues(equity: GameEquity, m: DecisionMeta, out: Float32Array): [number, number] {
  const r = m.round.result;
  const active = Array.from({ length: N }, (_, j) => r.points[absolute(m, j)] !== null);
  const logits = Array.from({ length: N }, (_, j) => (active[j] ? out[j] : -Infinity));
  const top = Math.max(...logits);
  const weights = logits.map((l) => Math.exp(l - top));
  const sum = weights.reduce((a, b) => a + b, 0);
  const p = weights.map((w) => w / sum);
  const cond = Array.from({ length: N }, (_, j) => Math.max(0, out[4 + j] * SCALE));
  const start = m.round.eqStart[m.seat];
  const pointsIf = (winner: number) =>
    Array.from({ length: N }, (_, s) => {
      const j = (s - m.seat + N) % N;
      if (!active[j]) return null;
      return j === winner ? 0 : Math.round(cond[j]);
    });
  const plug = Array.from({ length: N }, (_, s) => {
    const j = (s - m.seat + N) % N;
    return active[j] ? Math.round((1 - p[j]) * cond[j]) : null;
  });
  const plugWinner = absolute(m, p.indexOf(Math.max(...p)));
  const plugIn = endEquity(equity, m.round, plug, plugWinner, m.seat) - start;
  let mixture = 0;
  for (let j = 0; j < N; j++)
    if (active[j] && p[j] > 1e-4) mixture += p[j] * endEquity(equity, m.round, pointsIf(j), absolute(m, j), m.seat);
  return [plugIn, mixture - start];
}

function explained(metas: DecisionMeta[], rows: Int32Array, values: ArrayLike<number>, seed: number): string {
  const sums = new ExplainedVarianceSums();
  for (let k = 0; k < rows.length; k++) {
    const m = metas[rows[k]];
    if (k === 0 || m.segmentStart) sums.next();
    sums.add(values[k], m.realised);
  }
  const [lo, hi] = sums.interval(seededRng(mixSeed(seed, 7)));
  return `${sums.explained().toFixed(3)} (${lo.toFixed(3)}–${hi.toFixed(3)})`;
}

function trainNet(kind: Kind, data: Data, train: Int32Array, evaluate: (net: Mlp, epoch: number) => void): void {
  const outWidth = outWidthOf(kind);
  const perSeat = data.width === N * SEAT_WIDTH;
  const hidden = data.width === WHOLE_DEAL_SIZE || perSeat ? [256, 128] : [64, 64];
  const net = perSeat
    ? new Mlp([SEAT_WIDTH, ...hidden, 1 + BINS], 17)
    : new Mlp([data.width, ...hidden, outWidth], kind === 'return' ? 11 : 13);
  net.perSeat = perSeat;
  const optimizer = tf.train.adam(Number(process.env.PROBE_LR ?? 5e-4));
  const rng = seededRng(kind === 'return' ? 3 : 4);
  const order = Array.from(train);
  const targets = order.map((i) => (kind === 'return' ? [data.metas[i].realised] : pointsTargets(data.metas[i])));
  const index = new Map(order.map((row, k) => [row, k]));
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(uniformFloat64(rng) * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let total = 0;
    let steps = 0;
    for (let from = 0; from + 256 <= order.length; from += 256) {
      const cost = optimizer.minimize(
        () => {
          const x = rowsTensor(data, order, from, from + 256);
          const y = tf.tensor2d(
            order.slice(from, from + 256).flatMap((row) => targets[index.get(row) as number]),
            [256, targetWidthOf(kind)],
          );
          return loss(kind, net.apply(x), y);
        },
        true,
        net.vars,
      );
      total += (cost as tf.Scalar).dataSync()[0];
      cost?.dispose();
      steps++;
    }
    console.log(`${kind} epoch ${epoch}: train loss ${(total / steps).toFixed(5)}`);
    evaluate(net, epoch);
  }
}

function loadData(dir: string): Data {
  const { metas } = JSON.parse(readFileSync(path.join(dir, 'meta.json')).toString()) as { metas: DecisionMeta[] };
  const features = new Float32Array(metas.length * WHOLE_DEAL_SIZE);
  const fd = openSync(path.join(dir, 'features.f32'), 'r');
  const bytes = new Uint8Array(features.buffer);
  for (let at = 0; at < bytes.length;) at += readSync(fd, bytes, at, Math.min(1 << 30, bytes.length - at), at);
  closeSync(fd);
  return { features, metas, width: WHOLE_DEAL_SIZE };
}

/** Train, validation and test rows, split by game. */
export function splitRows(metas: DecisionMeta[]): { train: Int32Array; val: Int32Array; test: Int32Array } {
  const part = (m: DecisionMeta) => (m.game % 20 < 5 ? 'test' : m.game % 20 < 8 ? 'val' : 'train');
  const rowsOf = (name: string) => Int32Array.from(metas.flatMap((m, i) => (part(m) === name ? [i] : [])));
  return { train: rowsOf('train'), val: rowsOf('val'), test: rowsOf('test') };
}

export async function fit(dir: string): Promise<void> {
  await initBackend('auto');
  const whole = loadData(dir);
  const data = process.env.PROBE_COMPACT ? compact(whole) : process.env.PROBE_SEATS ? perSeatInputs(whole) : whole;
  console.log(`inputs per decision: ${data.width}`);
  const { metas } = data;
  const equity = solveEquityData(readEquityData(shippedEquityFile('standard', N)));
  const split = splitRows(metas);
  const { val, test } = split;
  // PROBE_TRAIN_EVERY=k trains on one training game in k (a learning curve).
  const every = Number(process.env.PROBE_TRAIN_EVERY ?? 1);
  const train = split.train.filter((i) => Math.floor(metas[i].game / 20) % every === 0);
  const games = (rows: Int32Array) => new Set(Array.from(rows, (i) => metas[i].game)).size;
  console.log(
    `decisions train ${train.length} (${games(train)} games), val ${val.length} (${games(val)}), test ${test.length} (${games(test)})`,
  );
  const truth = (rows: Int32Array) =>
    Array.from(rows, (i) => {
      const m = metas[i];
      return endEquity(equity, m.round, m.round.result.points, m.round.result.winner, m.seat) - m.round.eqStart[m.seat];
    });
  const t = truth(test);
  const worst = Math.max(...Array.from(test, (i, k) => Math.abs(t[k] - metas[i].realised)));
  console.log(`ceiling (true points through the map): test ${explained(metas, test, t, 1)}; largest |V − R| ${worst.toExponential(2)}`);
  console.log(
    `seat value head: test ${explained(
      metas,
      test,
      Array.from(test, (i) => metas[i].seatValue),
      1,
    )}, val ${explained(
      metas,
      val,
      Array.from(val, (i) => metas[i].seatValue),
      1,
    )}`,
  );
  for (const kind of (process.env.PROBE_KINDS ?? 'points,return').split(',') as Kind[]) {
    trainNet(kind, data, train, (net, epoch) => {
      for (const [name, rows] of [
        ['val', val],
        ['test', test],
      ] as const) {
        const outs = predict(net, data, rows);
        if (kind === 'dist') {
          const values = outs.map((o, k) => distValue(equity, metas[rows[k]], o));
          const known = outs.map((o, k) => distValue(equity, metas[rows[k]], o, true));
          // PROBE_DUMP=1: the values by row, for `criticProbe rollouts` to set beside the rollout critic.
          if (process.env.PROBE_DUMP === '1')
            writeFileSync(path.join(dir, `critic-dist-${name}-${epoch}.json`), JSON.stringify({ rows: Array.from(rows), values }));
          console.log(
            `  ${epoch} ${name} points distribution ${explained(metas, rows, values, 1)}; with the true winner ${explained(metas, rows, known, 1)}`,
          );
        } else if (kind === 'return')
          console.log(
            `  ${epoch} ${name} return-regression ${explained(
              metas,
              rows,
              outs.map((o) => o[0]),
              1,
            )}`,
          );
        else {
          const pairs = outs.map((o, k) => pointsValues(equity, metas[rows[k]], o));
          console.log(
            `  ${epoch} ${name} points plug-in ${explained(
              metas,
              rows,
              pairs.map((p) => p[0]),
              1,
            )}; points mixture ${explained(
              metas,
              rows,
              pairs.map((p) => p[1]),
              1,
            )}`,
          );
        }
      }
    });
  }
}

/** Least squares a + b·V on the train rows, applied to the rows given. */
function calibrated(train: number[], trainR: number[], values: number[]): number[] {
  const n = train.length;
  const mv = train.reduce((a, b) => a + b, 0) / n;
  const mr = trainR.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (train[i] - mv) * (trainR[i] - mr);
    sxx += (train[i] - mv) ** 2;
  }
  const b = sxx > 0 ? sxy / sxx : 0;
  return values.map((v) => mr + b * (v - mv));
}

/** Values from the hands as they are at the decision, through the equity map (no learning). */
export function oracles(dir: string): void {
  const data = loadData(dir);
  const { metas, features } = data;
  const equity = solveEquityData(readEquityData(shippedEquityFile('standard', N)));
  const split = splitRows(metas);
  const rules: Record<string, (m: DecisionMeta, row: number) => number> = {
    'round ends now, lowest hand wins': (m, row) => {
      const now = handValuesNow(features, row);
      const pts = Array.from({ length: N }, (_, s) => (m.round.result.points[s] === null ? null : now[(s - m.seat + N) % N]));
      const live = pts.flatMap((p, s) => (p === null ? [] : [s]));
      const winner = live.reduce((best, s) => ((pts[s] as number) < (pts[best] as number) ? s : best), live[0]);
      pts[winner] = 0;
      return endEquity(equity, m.round, pts, winner, m.seat) - m.round.eqStart[m.seat];
    },
    'the true winner at 0, the others their hands now': (m, row) => {
      const now = handValuesNow(features, row);
      const w = m.round.result.winner;
      const pts = Array.from({ length: N }, (_, s) => (m.round.result.points[s] === null ? null : s === w ? 0 : now[(s - m.seat + N) % N]));
      return endEquity(equity, m.round, pts, w, m.seat) - m.round.eqStart[m.seat];
    },
    'the true winner and the true points of the others, the seat its hand now': (m, row) => {
      const now = handValuesNow(features, row);
      const w = m.round.result.winner;
      const pts = m.round.result.points.map((p, s) => (p === null ? null : s === m.seat && s !== w ? now[0] : p));
      return endEquity(equity, m.round, pts, w, m.seat) - m.round.eqStart[m.seat];
    },
  };
  for (const [name, rule] of Object.entries(rules)) {
    const v = (rows: Int32Array) => Array.from(rows, (i) => rule(metas[i], i));
    const trainV = v(split.train);
    const trainR = Array.from(split.train, (i) => metas[i].realised);
    const testV = v(split.test);
    console.log(
      `${name}: test raw ${explained(metas, split.test, testV, 1)}, calibrated ${explained(metas, split.test, calibrated(trainV, trainR, testV), 1)}`,
    );
  }
}

/** Winner cross-entropy plus, for each seat in the round that did not win, the cross-entropy of its points' bin. */
function distLoss(out: tf.Tensor2D, target: tf.Tensor2D): tf.Scalar {
  const active = target.slice([0, 12], [-1, 4]);
  const logits = tf.add(out.slice([0, 0], [-1, 4]), tf.mul(tf.sub(1, active), -1e4));
  const ce = tf.losses.softmaxCrossEntropy(target.slice([0, 0], [-1, 4]), logits);
  const mask = target.slice([0, 8], [-1, 4]);
  const bins = tf.clipByValue(tf.round(tf.mul(target.slice([0, 4], [-1, 4]), SCALE)), 0, BINS - 1).toInt();
  let sum: tf.Tensor = tf.scalar(0);
  for (let j = 0; j < N; j++) {
    const lj = out.slice([0, 4 + j * BINS], [-1, BINS]);
    const onehot = tf.oneHot(bins.slice([0, j], [-1, 1]).reshape([-1]), BINS);
    const each = tf.losses.softmaxCrossEntropy(onehot, lj, undefined, undefined, tf.Reduction.NONE);
    sum = tf.add(sum, tf.sum(tf.mul(each, mask.slice([0, j], [-1, 1]).reshape([-1]))));
  }
  return tf.add<tf.Scalar>(ce, tf.div(sum, tf.maximum(tf.sum(mask), 1)));
}

function softmax(values: ArrayLike<number>, from: number, count: number): number[] {
  let top = -Infinity;
  for (let i = 0; i < count; i++) top = Math.max(top, values[from + i]);
  const e = Array.from({ length: count }, (_, i) => Math.exp(values[from + i] - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** E[equity after the round] − equity now under the distributional net: the winner enumerated, the others' points sampled (stratified) from their bins. */
function distValue(equity: GameEquity, m: DecisionMeta, out: Float32Array, trueWinner = false): number {
  const r = m.round.result;
  const active = Array.from({ length: N }, (_, j) => r.points[absolute(m, j)] !== null);
  const logits = Array.from({ length: N }, (_, j) => (active[j] ? out[j] : -1e9));
  const p = trueWinner ? Array.from({ length: N }, (_, j) => (absolute(m, j) === r.winner ? 1 : 0)) : softmax(logits, 0, N);
  const cdf = Array.from({ length: N }, (_, j) => {
    const probs = softmax(out, 4 + j * BINS, BINS);
    let acc = 0;
    return probs.map((x) => (acc += x));
  });
  const draw = (j: number, u: number) => {
    const c = cdf[j];
    let b = 0;
    while (b < BINS - 1 && c[b] < u) b++;
    return b;
  };
  let value = 0;
  for (let w = 0; w < N; w++) {
    if (!active[w] || p[w] < 1e-3) continue;
    let sum = 0;
    for (let k = 0; k < SAMPLES; k++) {
      const points = Array.from({ length: N }, (_, s) => {
        const j = (s - m.seat + N) % N;
        if (!active[j]) return null;
        if (j === w) return 0;
        // Stratified, a different stratum order per seat.
        return draw(j, (((k * (2 * j + 1) + j) % SAMPLES) + 0.5) / SAMPLES);
      });
      sum += endEquity(equity, m.round, points, absolute(m, w), m.seat);
    }
    value += (p[w] * sum) / SAMPLES;
  }
  const kept = p.reduce((a, x, w) => a + (active[w] && x >= 1e-3 ? x : 0), 0);
  return value / kept - m.round.eqStart[m.seat];
}
