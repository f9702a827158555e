/**
 * The rollout critic probed by criticProbe.ts (issue 44 item 2, step 2): at a learner decision the
 * critic knows every hand and the deck order, so it may play the round out (training/rolloutCritic.ts:
 * the strong playout at every seat from a copy of the true state, valued as the "equity" reward).
 * Variants differ in what they randomise: nothing (the deck as dealt: one deterministic future),
 * the deck below the next 8 cards (what the whole-deal input shows), each turn with probability ε,
 * or both.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GameEquity } from '../env/gym/equity.js';
import { DECK_LOOKAHEAD } from '../env/gym/wholeDeal.js';
import { mixSeed, seededRng } from '../env/rules/random.js';
import type { GameState } from '../env/rules/state.js';
import { ExplainedVarianceSums } from '../training/heldOutValue.js';
import { rolloutValues } from '../training/rolloutCritic.js';
import type { DecisionMeta } from './criticProbeInputs.js';
import { splitRows } from './criticProbeFit.js';

export interface RolloutVariant {
  name: string;
  rollouts: number;
  shuffle: boolean;
  epsilon: number;
}

/** The variants, in the order their values are stored (each `rollouts` values). */
export const ROLLOUT_VARIANTS: readonly RolloutVariant[] = [
  { name: 'strong, deck as dealt', rollouts: 1, shuffle: false, epsilon: 0 },
  { name: 'strong, deck shuffled below the next 8', rollouts: 16, shuffle: true, epsilon: 0 },
  { name: 'strong ε=0.1, deck as dealt', rollouts: 16, shuffle: false, epsilon: 0.1 },
  { name: 'strong ε=0.3, deck as dealt', rollouts: 16, shuffle: false, epsilon: 0.3 },
  { name: 'strong ε=0.1, shuffled below the next 8', rollouts: 64, shuffle: true, epsilon: 0.1 },
];

/** Every variant's rollout values (equity after the round − at its start), in ROLLOUT_VARIANTS order; `micros` gains each variant's time. */
export function probeRolloutValues(state: GameState, equity: GameEquity, seed: number, micros: number[]): number[] {
  const out: number[] = [];
  ROLLOUT_VARIANTS.forEach((variant, v) => {
    const t0 = performance.now();
    const options = { rollouts: variant.rollouts, epsilon: variant.epsilon, shuffleBelow: variant.shuffle ? DECK_LOOKAHEAD : null };
    out.push(...rolloutValues(state, equity, options, mixSeed(seed, v)));
    micros[v] += (performance.now() - t0) * 1000;
  });
  return out;
}

/** Each variant's mean over its first k rollouts, for k = 1, 4, 16, 64 (as far as it has them). */
function columns(metas: DecisionMeta[]): { name: string; values: (m: DecisionMeta) => number }[] {
  const out: { name: string; values: (m: DecisionMeta) => number }[] = [];
  let offset = 0;
  for (const variant of ROLLOUT_VARIANTS) {
    const at = offset;
    for (const k of [1, 4, 16, 64].filter((k) => k <= variant.rollouts))
      out.push({
        name: `${variant.name}, K=${k}`,
        values: (m) => (m.rollouts as number[]).slice(at, at + k).reduce((a, b) => a + b, 0) / k,
      });
    offset += variant.rollouts;
  }
  if (metas.length > 0 && (metas[0].rollouts as number[]).length !== offset)
    throw new Error('the rollouts stored do not match ROLLOUT_VARIANTS');
  return out;
}

function explained(metas: DecisionMeta[], rows: readonly number[], values: readonly number[]): string {
  const sums = new ExplainedVarianceSums();
  rows.forEach((i, k) => {
    if (k === 0 || metas[i].segmentStart) sums.next();
    sums.add(values[k], metas[i].realised);
  });
  const [lo, hi] = sums.interval(seededRng(mixSeed(1, 7)));
  return `${sums.explained().toFixed(3)} (${lo.toFixed(3)}–${hi.toFixed(3)})`;
}

/** Least squares of R on [1, ...features] over the rows: the coefficients. */
function leastSquares(features: number[][], targets: number[]): number[] {
  const d = features[0].length + 1;
  const a = Array.from({ length: d }, () => new Array<number>(d + 1).fill(0));
  features.forEach((f, k) => {
    const x = [1, ...f];
    for (let i = 0; i < d; i++) {
      for (let j = 0; j < d; j++) a[i][j] += x[i] * x[j];
      a[i][d] += x[i] * targets[k];
    }
  });
  for (let i = 0; i < d; i++) {
    a[i][i] += 1e-9;
    for (let r = i + 1; r < d; r++) {
      const f = a[r][i] / a[i][i];
      for (let c = i; c <= d; c++) a[r][c] -= f * a[i][c];
    }
  }
  const w = new Array<number>(d).fill(0);
  for (let i = d - 1; i >= 0; i--) w[i] = (a[i][d] - a[i].slice(i + 1, d).reduce((s, x, j) => s + x * w[i + 1 + j], 0)) / a[i][i];
  return w;
}

/** Reads the learned points critic's values that `fit` dumped at an epoch (PROBE_DUMP=1), by row. */
function criticValues(dir: string, epoch: string | undefined): Map<number, number> | null {
  if (!epoch) return null;
  const map = new Map<number, number>();
  for (const name of ['val', 'test']) {
    const file = path.join(dir, `critic-dist-${name}-${epoch}.json`);
    const { rows, values } = JSON.parse(readFileSync(file).toString()) as { rows: number[]; values: number[] };
    rows.forEach((r, k) => map.set(r, values[k]));
  }
  return map;
}

/** The report: each variant's explained variance on the val and test games, the learned critic's, and blends fitted on val. */
export function rolloutReport(dir: string, criticEpoch?: string): void {
  const meta = JSON.parse(readFileSync(path.join(dir, 'meta.json')).toString()) as {
    metas: DecisionMeta[];
    rolloutMicros?: number[];
    rolloutDecisions?: number;
  };
  const metas = meta.metas;
  const split = splitRows(metas);
  const critic = criticValues(dir, criticEpoch);
  const withRollouts = (rows: Int32Array) => Array.from(rows).filter((i) => metas[i].rollouts && (!critic || critic.has(i)));
  const val = withRollouts(split.val);
  const test = withRollouts(split.test);
  const games = (rows: number[]) => new Set(rows.map((i) => metas[i].game)).size;
  console.log(`val ${val.length} decisions of ${games(val)} games, test ${test.length} of ${games(test)}`);
  if (meta.rolloutMicros && meta.rolloutDecisions)
    ROLLOUT_VARIANTS.forEach((v, i) =>
      console.log(
        `  ${v.name}: ${((meta.rolloutMicros as number[])[i] / (meta.rolloutDecisions as number)).toFixed(0)} µs a decision for ${v.rollouts}`,
      ),
    );
  const rowsOf = { val, test };
  const line = (name: string, value: (m: DecisionMeta, i: number) => number) =>
    console.log(
      `${name}: val ${explained(
        metas,
        val,
        val.map((i) => value(metas[i], i)),
      )}, test ${explained(
        metas,
        test,
        test.map((i) => value(metas[i], i)),
      )}`,
    );
  line('seat value head', (m) => m.seatValue);
  if (critic) line('learned points critic', (_, i) => critic.get(i) as number);
  const cols = columns(metas);
  for (const c of cols) line(c.name, c.values);
  // Blends: R on [the rollout column(, the learned critic)], fitted on val, judged on test.
  for (const c of cols.filter((c) => /K=(1|4|16|64)$/.test(c.name))) {
    const features = (i: number) => (critic ? [c.values(metas[i]), critic.get(i) as number] : [c.values(metas[i])]);
    const w = leastSquares(
      rowsOf.val.map(features),
      rowsOf.val.map((i) => metas[i].realised),
    );
    const predict = (i: number) => features(i).reduce((s, x, j) => s + x * w[j + 1], w[0]);
    console.log(
      `  blend ${critic ? 'with the learned critic ' : ''}(fitted on val, weights ${w.map((x) => x.toFixed(3)).join(' ')}) ${c.name}: test ${explained(metas, test, test.map(predict))}`,
    );
  }
}
