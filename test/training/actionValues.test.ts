// Rollout action values (training/actionValues.ts): each legal action valued on a copy of the true
// state, the state left untouched, the same values again for the same state, a Yaniv call valued by
// the outcome it really has; the collected positions' columns agree with each other.
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { shippedEquity } from '../../agents/equity.js';
import { ACTION_COUNT, YANIV_ACTION } from '../../env/gym/actionLayout.js';
import { MaskScratch, writeActionMask } from '../../env/gym/actionMask.js';
import { tableEquities } from '../../env/gym/equity.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { callYaniv } from '../../env/rules/engine.js';
import { resolveRules } from '../../env/rules/rules.js';
import { cloneState } from '../../env/rules/state.js';
import { initBackend } from '../../nn/backend.js';
import { buildNetwork } from '../../nn/networks.js';
import { FastAdam } from '../../training/fastAdam.js';
import { MAX_LEGAL, VALUE_SCALE, actionValueUpdate, collectValuedPositions, valueActions } from '../../training/actionValues.js';
import { randomPositions } from '../env/gym/envPositions.js';

const equity = shippedEquity('standard');

describe('rollout action values', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('values every legal action on a copy (the state untouched, the same values twice), each a P(win) in points', () => {
    const scratch = new MaskScratch();
    const mask = new Uint8Array(ACTION_COUNT);
    const ids = new Int16Array(ACTION_COUNT);
    const [first, second] = [new Float32Array(MAX_LEGAL), new Float32Array(MAX_LEGAL)];
    let calls = 0;
    for (const state of randomPositions({ players: 2 }, 31, 400)) {
      const count = writeActionMask(state, scratch, mask, 0, ids, 0);
      if (count < 2) continue;
      const before = JSON.stringify(cloneState(state), (_, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v));
      valueActions(state, ids, count, equity, first);
      valueActions(state, ids, count, equity, second);
      expect(JSON.stringify(state, (_, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v))).toBe(before);
      expect(Array.from(second.subarray(0, count))).toEqual(Array.from(first.subarray(0, count)));
      for (const value of first.subarray(0, count)) expect(value >= 0 && value <= VALUE_SCALE).toBe(true);
      const call = Array.from(ids.subarray(0, count)).indexOf(YANIV_ACTION);
      if (call >= 0) {
        // A call ends the round at once: its value is the mover's equity after that round, as it really turns out.
        const after = cloneState(state);
        callYaniv(after);
        const out = new Float64Array(2);
        tableEquities(equity, after, after.nextStarter, out);
        expect(first[call]).toBeCloseTo(out[state.current] * VALUE_SCALE, 3);
        calls++;
      }
    }
    expect(calls).toBeGreaterThan(0);
  });

  it("collects positions whose columns agree: legal adviser actions, a value per legal action, the value head's target from the adviser's", async () => {
    const rules = resolveRules({ players: 2 });
    const data = await collectValuedPositions({ rules, players: 2, positions: 300, seed: 3, explore: 0.2, equity });
    const { batch } = data;
    expect(batch.count).toBe(300);
    for (let r = 0; r < batch.count; r++) {
      const mask = batch.masks.subarray(r * ACTION_COUNT, (r + 1) * ACTION_COUNT);
      const legal = mask.reduce((n, m) => n + m, 0);
      expect(legal).toBeGreaterThanOrEqual(2);
      expect(mask[batch.adviserActions[r]]).toBe(1);
      const values = data.values.subarray(r * MAX_LEGAL, r * MAX_LEGAL + legal);
      expect(values.every((v) => v >= 0 && v <= VALUE_SCALE)).toBe(true);
      expect(batch.observations.subarray(r * OBSERVATION_SIZE, (r + 1) * OBSERVATION_SIZE).some((x) => x !== 0)).toBe(true);
      expect(Math.abs(data.adviserValues[r])).toBeLessThanOrEqual(1);
    }
  });

  it('the regression lowers its loss on the positions it fits', async () => {
    const rules = resolveRules({ players: 2 });
    const data = await collectValuedPositions({ rules, players: 2, positions: 256, seed: 4, explore: 0.2, equity });
    const net = buildNetwork({
      kind: 'policy-value',
      observationSize: OBSERVATION_SIZE,
      actionCount: ACTION_COUNT,
      hiddenUnits: [16],
      seed: 2,
    });
    const optimizer = new FastAdam({ kind: 'adam', learningRate: 3e-3 });
    const losses: number[] = [];
    const tensors: number[] = [];
    actionValueUpdate(net, optimizer, data, {
      epochs: 30,
      minibatchSize: 64,
      valueWeight: 1,
      maxGradNorm: null,
      random: () => 0.5,
      onEpoch: (_, loss) => {
        losses.push(loss);
        tensors.push(tf.memory().numTensors);
      },
    });
    // Flat once the optimizer's slots exist.
    expect(new Set(tensors.slice(1)).size).toBe(1);
    expect(losses.at(-1)).toBeLessThan(losses[0] * 0.7);
    optimizer.dispose();
    net.model.dispose();
  });
});
