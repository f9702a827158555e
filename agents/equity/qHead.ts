/**
 * The model's own evaluation of a move (issue 41 item 2): a small head on the frozen trunk of a
 * shipped policy-value network that gives, for each move, the chance the seat to move wins the
 * game after it and the points the round adds to its total — for every candidate from one pass
 * of the trunk. Its inputs for move `a` are the trunk's top hidden layer (the same for every
 * move: its part of the first layer is computed once), the policy head's own logit for `a`, the
 * move's action features (env/gym/actionFeatures.ts, the hand it leaves) and its move kind;
 * one hidden layer, then two outputs: the chance to win (a logistic) and the points / 50.
 *
 * It reads only the seat's observation and view (nothing hidden). It is trained
 * (scripts/qheadTrain.ts) on positions of play with the judge's playouts as the teacher
 * (scripts/qheadData.ts): its chance to win is as played out, and is shown through the table's
 * calibration map like the playouts' (agents/equity/calibrationMap.ts). A model folder ships it
 * as `qhead.json` beside its weights, named by its card (agents/models/modelCard.ts `qHead`).
 */
import { z } from 'zod';
import { ACTION_RANGE_LIST } from '../../env/gym/actionLayout.js';
import { ACTION_CONTEXT_SIZE, ACTION_FEATURE_SIZE, actionContextOfView, writeActionFeatures } from '../../env/gym/actionFeatures.js';
import type { PlayerView } from '../../env/rules/view.js';
import { type GameEquity, seatEquities } from '../../env/gym/equity.js';
import { type Dense as DenseWeights, denseForward } from '../../nn/denseForward.js';

/** The format of qhead.json (its inputs' layout is part of it). */
export const Q_HEAD_VERSION = 'yaniv-qhead/1';
/** The file in a model folder. */
export const Q_HEAD_FILE = 'qhead.json';

/** Points are learnt and given in these units. */
const POINTS_SCALE = 50;
/** The policy logit enters scaled down to the other inputs' range. */
const LOGIT_SCALE = 0.1;

/**
 * Inputs per move beyond the trunk's: the seat's game equity as the round began (as a logit: the
 * chance to win is learnt as a change of it), the move's policy logit, its action features, its
 * move kind (one-hot over the action ranges).
 */
export const Q_HEAD_MOVE_INPUTS = 2 + ACTION_FEATURE_SIZE + ACTION_RANGE_LIST.length;
/** Equities are kept this far from 0 and 1 before their logit. */
const EQUITY_FLOOR = 1e-3;

const denseSchema = z
  .strictObject({
    inputs: z.number().int().positive(),
    units: z.number().int().positive(),
    kernel: z.array(z.number()).describe('[inputs, units], row after row'),
    bias: z.array(z.number()),
  })
  .refine((d) => d.kernel.length === d.inputs * d.units && d.bias.length === d.units, {
    message: 'kernel must hold inputs × units numbers and bias units',
  });

/** What the head was measured at on held-out positions (percentage points of the chance to win, points). */
const heldOutSchema = z.looseObject({
  positions: z.number().int().nonnegative(),
  /** The 95% quantile of the absolute error of a move's chance against the teacher: the interval shown. */
  win95: z.number().min(0).max(1),
  points95: z.number().min(0),
});

export const qHeadFileSchema = z.strictObject({
  version: z.literal(Q_HEAD_VERSION, { error: `must be ${Q_HEAD_VERSION}` }),
  /** The trunk's top width the head reads (the model's last hidden layer). */
  trunkUnits: z.number().int().positive(),
  layers: z.tuple([denseSchema, denseSchema]),
  /**
   * Moves whose chances differ by no more than this are shown as about the same, not ranked: the
   * 95% quantile of the head's error on the difference between two moves of one position.
   */
  margin: z.number().min(0).max(1),
  heldOut: heldOutSchema,
});

export type QHeadFile = z.output<typeof qHeadFileSchema>;
type Dense = QHeadFile['layers'][number];

/** The logit of a chance, kept finite. */
export function equityLogit(p: number): number {
  const q = Math.min(Math.max(p, EQUITY_FLOOR), 1 - EQUITY_FLOOR);
  return Math.log(q / (1 - q));
}

/**
 * The seat's game equity as the round began: every total, who is in, who started. A total below 0 (a
 * client may send one: the view allows start totals of any sign) is at least as far from elimination
 * as 0, and the equity starts at 0: 0 stands for it.
 */
export function roundStartEquity(view: PlayerView, equity: GameEquity): number {
  const totals = view.totals.map((total) => Math.max(total, 0));
  return seatEquities(equity, totals, view.active, view.starter)[view.seat];
}

/** A move's inputs beyond the trunk's into out[offset ..): the round-start equity's logit, its policy logit, its action features, its move kind. */
export function writeMoveInputs(
  context: Int16Array,
  anchor: number,
  action: number,
  logit: number,
  out: Float32Array,
  offset: number,
): void {
  out.fill(0, offset, offset + Q_HEAD_MOVE_INPUTS);
  out[offset] = anchor * LOGIT_SCALE;
  out[offset + 1] = logit * LOGIT_SCALE;
  writeActionFeatures(context, 0, action, out, offset + 2);
  const kind = ACTION_RANGE_LIST.findIndex((r) => action >= r.start && action < r.start + r.size);
  out[offset + 2 + ACTION_FEATURE_SIZE + kind] = 1;
}

/** The seat's action context (what the action features read of the view). */
export function moveContext(view: PlayerView): Int16Array {
  return actionContextOfView(view, new Int16Array(ACTION_CONTEXT_SIZE));
}

export interface MoveValues {
  /** P(the seat wins the game) after each move, as the playouts would give it (before calibration). */
  readonly win: number[];
  /** The points each move's round adds to the seat's total. */
  readonly points: number[];
}

/** The head, its weights read once. */
export class QHead {
  private readonly first: Dense;
  private readonly second: Dense;
  /** The first layer's rows that read the trunk (its bias with them), the same numbers as 64-bit arrays. */
  private readonly trunkPart: DenseWeights;
  private readonly state: Float64Array;
  private readonly move = new Float32Array(Q_HEAD_MOVE_INPUTS);

  constructor(readonly file: QHeadFile) {
    [this.first, this.second] = file.layers;
    if (this.first.inputs !== file.trunkUnits + Q_HEAD_MOVE_INPUTS)
      throw new Error(
        `the q head's first layer takes ${this.first.inputs} inputs: ${file.trunkUnits} of the trunk and ${Q_HEAD_MOVE_INPUTS} a move`,
      );
    const { units, kernel, bias } = this.first;
    this.trunkPart = {
      kernel: Float64Array.from(kernel.slice(0, file.trunkUnits * units)),
      bias: Float64Array.from(bias),
      inputs: file.trunkUnits,
      units,
    };
    this.state = new Float64Array(units);
  }

  /**
   * The values of `actions` from the trunk's top layer `h` (one pass: the trunk's part of the
   * first layer is computed once for all of them), the seat's action context (`moveContext`), its
   * round-start equity and each action's policy logit. The chance to win is the logistic of the
   * equity's logit plus the head's first output.
   */
  values(
    h: ArrayLike<number>,
    context: Int16Array,
    roundStart: number,
    actions: readonly number[],
    logit: (action: number) => number,
  ): MoveValues {
    const anchor = equityLogit(roundStart);
    const { kernel, units } = this.first;
    if (h.length !== this.file.trunkUnits) throw new Error(`the q head reads ${this.file.trunkUnits} trunk units, got ${h.length}`);
    denseForward(this.trunkPart, h, this.state);
    const win: number[] = [];
    const points: number[] = [];
    const hidden = new Float64Array(units);
    for (const action of actions) {
      writeMoveInputs(context, anchor, action, logit(action), this.move, 0);
      hidden.set(this.state);
      for (let k = 0; k < this.move.length; k++) {
        const x = this.move[k];
        if (x === 0) continue;
        const row = (h.length + k) * units;
        for (let j = 0; j < units; j++) hidden[j] += x * kernel[row + j];
      }
      const [w, p] = this.output(hidden);
      win.push(1 / (1 + Math.exp(-(anchor + w))));
      points.push(Math.max(0, p * POINTS_SCALE));
    }
    return { win, points };
  }

  /** The second layer over the first's ReLU. */
  private output(hidden: Float64Array): [number, number] {
    const { kernel, bias, units } = this.second;
    const out = [bias[0], bias[1]] as [number, number];
    for (let j = 0; j < hidden.length; j++) {
      const x = hidden[j];
      if (x <= 0) continue;
      for (let u = 0; u < units; u++) out[u] += x * kernel[j * units + u];
    }
    return out;
  }
}

/** The points target in the head's units. */
export function pointsTarget(points: number): number {
  return points / POINTS_SCALE;
}
