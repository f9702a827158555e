// The model's own evaluation of moves (agents/equity/qHead.ts, headOutlook.ts): every candidate's
// chance to win and points from one pass of the trunk, equal to a plain reference that evaluates
// each candidate on its own (the whole input vector through both layers); the judgement from one
// figure per move; the head file's schema.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { OBSERVATION_SIZE, encodeView } from '../../../env/gym/observation.js';
import { legalActionIds } from '../../../env/gym/actionMask.js';
import { equityForTable } from '../../../agents/equity/equityPlayouts.js';
import { type TableHead, headValues, tableHead } from '../../../agents/equity/headOutlook.js';
import { judgeMeans } from '../../../agents/equity/moveOutlook.js';
import {
  Q_HEAD_MOVE_INPUTS,
  equityLogit,
  moveContext,
  qHeadFileSchema,
  roundStartEquity,
  writeMoveInputs,
} from '../../../agents/equity/qHead.js';
import { PHASE_GAME_OVER } from '../../../env/rules/state.js';
import { type PlayerView, playerView } from '../../../env/rules/view.js';
import { MaskScratch, writeActionMask } from '../../../env/gym/actionMask.js';
import { ACTION_COUNT } from '../../../env/gym/actionLayout.js';
import { randomPositions } from '../../env/gym/envPositions.js';
import { resolveRules } from '../../../env/rules/rules.js';

let table: TableHead;

beforeAll(async () => {
  const head = await tableHead({ rules: resolveRules({ players: 2 }), players: 2 });
  if (!head) throw new Error('models/standard ships no q head');
  table = head;
});

/** The reference: one candidate at a time, its whole input vector through both layers. */
function reference(view: PlayerView, action: number): { win: number; points: number } {
  const observation = encodeView(view);
  const h = Float32Array.from(table.trunk.trunkOf(observation));
  const { equity } = equityForTable(view.rules, view.players);
  if (!equity) throw new Error('no equity');
  const anchor = equityLogit(roundStartEquity(view, equity));
  const x = new Float32Array(h.length + Q_HEAD_MOVE_INPUTS);
  x.set(h);
  writeMoveInputs(moveContext(view), anchor, action, table.trunk.baseLogit(h, action), x, h.length);
  const [first, second] = table.head.file.layers;
  const hidden = Array.from({ length: first.units }, (_, j) =>
    Math.max(0, first.bias[j] + Array.from(x).reduce((sum, xi, i) => sum + xi * first.kernel[i * first.units + j], 0)),
  );
  const out = [0, 1].map((u) => second.bias[u] + hidden.reduce((sum, hj, j) => sum + hj * second.kernel[j * second.units + u], 0));
  return { win: 1 / (1 + Math.exp(-(anchor + out[0]))), points: Math.max(0, out[1] * 50) };
}

function legalOf(view: PlayerView, state: Parameters<typeof writeActionMask>[0]): number[] {
  const mask = new Uint8Array(ACTION_COUNT);
  writeActionMask(state, new MaskScratch(), mask, 0);
  return legalActionIds(mask);
}

describe("the model's own evaluation of moves (q head)", () => {
  it('values every candidate from one pass of the trunk, as the plain reference does each on its own, in the same order', () => {
    const states = randomPositions({ players: 2 }, 41, 200).filter((s, i) => i % 10 === 0 && s.phase < 3 && s.phase !== PHASE_GAME_OVER);
    expect(states.length).toBeGreaterThan(10);
    const trunk = vi.spyOn(table.trunk, 'trunkOf');
    for (const s of states) {
      const view = playerView(s, s.current);
      const legal = legalOf(view, s);
      const { equity } = equityForTable(view.rules, view.players);
      if (!equity) throw new Error('no equity');
      trunk.mockClear();
      const values = headValues(table, view, encodeView(view), roundStartEquity(view, equity), legal);
      expect(trunk).toHaveBeenCalledTimes(1);
      const plain = legal.map((action) => reference(view, action));
      values.win.forEach((w, i) => expect(w).toBeCloseTo(plain[i].win, 5));
      values.points.forEach((p, i) => expect(p).toBeCloseTo(plain[i].points, 3));
      const order = (xs: number[]) => xs.map((_, i) => i).sort((a, b) => xs[b] - xs[a] || a - b);
      expect(order(values.win)).toEqual(order(plain.map((p) => p.win)));
    }
    trunk.mockRestore();
  });

  it('reads the observation it is given, of the right size', () => {
    expect(() => table.trunk.trunkOf(new Float32Array(OBSERVATION_SIZE - 1))).toThrow(/inputs/);
  });
});

describe('the judgement from one figure per move (judgeMeans)', () => {
  it('keeps the first unless another is above it by more than the margin, and ties what lies within it', () => {
    expect(judgeMeans([0.5, 0.52, 0.4], 0.05)).toEqual(['suggested', 'same', 'worse']);
    expect(judgeMeans([0.5, 0.6, 0.58, 0.4], 0.05)).toEqual(['worse', 'suggested', 'same', 'worse']);
    expect(judgeMeans([0.5, 0.56, 0.62], 0.05)).toEqual(['worse', 'worse', 'suggested']);
    expect(judgeMeans([0.5], 0.05)).toEqual(['suggested']);
  });
});

describe('the head file (qhead.json)', () => {
  it('is refused with the field named when malformed or of another version', () => {
    const good = table.head.file;
    expect(qHeadFileSchema.safeParse(good).success).toBe(true);
    const other = qHeadFileSchema.safeParse({ ...good, version: 'yaniv-qhead/0' });
    expect(other.success).toBe(false);
    expect(other.error?.issues[0].message).toMatch(/yaniv-qhead\/1/);
    const short = qHeadFileSchema.safeParse({ ...good, layers: [{ ...good.layers[0], bias: [] }, good.layers[1]] });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0].path).toEqual(['layers', 0]);
  });
});
