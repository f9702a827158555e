/**
 * Rollout action values — the data of the action-value phase (`actionValuePhase.ts`).
 *
 * For a position of real play, each legal action's value under `strong`'s continuation: the action
 * applied to a copy of the TRUE state (every hand and the deck order), then the round played out
 * by the strong-like state playout (agents/playout.ts) at every seat, and the seat's game equity
 * read where the round ends (1 or 0 if the game ends there). All the actions of a position are
 * valued on the same deck order (common random numbers), so their differences are far less noisy
 * than the values.
 *
 * Seeing the true state is not cheating here: each position's hidden cards are the ones real play
 * dealt, drawn from their real distribution given what the seat saw. A network regressed on these
 * values from the seat's observation learns E[value | what the seat knows, action] — the action's
 * value against strong with the hidden cards weighed as the play reveals them, which
 * determinised worlds drawn uniformly from the unseen cards do not (README, "Learning to win").
 * Playing the best of them is one step of policy improvement over strong (Bertsekas's rollout
 * algorithm), learnt instead of searched, so it costs nothing at play time.
 */
import * as tf from '@tensorflow/tfjs';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { createAgent } from '../agents/registry.js';
import { playoutRoundStrong } from '../agents/playout.js';
import { ACTION_CONTEXT_SIZE, writeActionContext } from '../env/gym/actionFeatures.js';
import { applyActionId } from '../env/gym/actionApply.js';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { MaskScratch, writeActionMask } from '../env/gym/actionMask.js';
import type { Agent } from '../env/gym/agent.js';
import { type GameEquity, tableEquities } from '../env/gym/equity.js';
import { OBSERVATION_SIZE, encodeObservation } from '../env/gym/observation.js';
import { newGame, startRound } from '../env/rules/engine.js';
import { seededRng } from '../env/rules/random.js';
import type { Rules } from '../env/rules/rules.js';
import { type GameState, PHASE_GAME_OVER, cloneState, isRoundOver } from '../env/rules/state.js';
import { playerView } from '../env/rules/view.js';
import type { Network, PolicyValueConfig } from '../nn/networks.js';
import type { FastAdam } from './fastAdam.js';
import { MinibatchBuffers, gatherInputs, shuffledIndices } from './minibatch.js';
import { actionValueTrainStep } from './policyValueStep.js';
import { type TrajectoryBatch, emptyTrajectoryBatch } from './trajectory.js';

/** Most legal actions a position has (the discard ids of a full hand and a Yaniv call, or every take and the deck). */
export const MAX_LEGAL = 128;
/** Values are P(win) in percentage points: a logit unit is one point of a game. */
export const VALUE_SCALE = 100;
/** Turns a rollout plays at most before it reads the round as unfinished (the equity at the round's start). */
const ROLLOUT_TURNS = 200;
/** Turns after which a game of the collection is dropped for a new one. */
const MAX_GAME_TURNS = 5000;

const equities = new Float64Array(8);

/** The seat's equity (× VALUE_SCALE) once the round in `s` is over, or as the round began if the playout was cut. */
function leafValue(s: GameState, seat: number, equity: GameEquity): number {
  tableEquities(equity, s, isRoundOver(s) ? s.nextStarter : s.starter, equities);
  return equities[seat] * VALUE_SCALE;
}

/**
 * Each legal action's value at the state's mover (`ids[0 .. count)` → `out[0 .. count)`): the action
 * on a copy of the state, the round played out by the strong-like playout, the mover's equity then.
 */
export function valueActions(state: GameState, ids: Int16Array, count: number, equity: GameEquity, out: Float32Array): void {
  const seat = state.current;
  for (let i = 0; i < count; i++) {
    const s = cloneState(state);
    applyActionId(s, ids[i], null);
    if (!isRoundOver(s)) playoutRoundStrong(s, ROLLOUT_TURNS);
    out[i] = leafValue(s, seat, equity);
  }
}

/** Positions with their legal actions' values: trajectory columns (observation, mask, context, adviser) and the values in legal-id order. */
export interface ValuedPositions {
  batch: TrajectoryBatch;
  /** [count × MAX_LEGAL]: row r's legal actions' values, ascending id order. */
  values: Float32Array;
  /** [count]: the value head's target: the adviser's action's value less the seat's equity at the round's start, in P(win) (as the "equity" reward's value). */
  adviserValues: Float32Array;
}

export interface CollectOptions {
  rules: Rules;
  players: number;
  /** Positions wanted (those with one legal action are skipped). */
  positions: number;
  seed: number;
  /** Share of the moves played at random instead of the adviser's, so the positions also cover what a deviating player reaches. */
  explore: number;
  equity: GameEquity;
  /** Called every 1,000 positions. */
  progress?: (done: number) => void;
}

/** Plays games with `strong` at every seat (with `explore` random moves) and values each position with a choice. */
export async function collectValuedPositions(options: CollectOptions): Promise<ValuedPositions> {
  const { positions, equity } = options;
  const adviser: Agent = await createAgent('strong');
  adviser.reset(options.seed);
  const batch = emptyTrajectoryBatch(positions, false);
  const values = new Float32Array(positions * MAX_LEGAL);
  const adviserValues = new Float32Array(positions);
  const rng = seededRng(options.seed);
  const scratch = new MaskScratch();
  const ids = new Int16Array(ACTION_COUNT);
  const rowValues = new Float32Array(MAX_LEGAL);
  let row = 0;
  let game = 0;
  while (row < positions) {
    const s = newGame({ rules: options.rules, players: options.players, seed: options.seed * 7919 + game++ });
    startRound(s);
    // A turn cap against two players that never end a round (strong's stall penalty makes that rare).
    while (row < positions && s.phase !== PHASE_GAME_OVER && s.turn < MAX_GAME_TURNS) {
      if (isRoundOver(s)) {
        startRound(s);
        continue;
      }
      const mask = batch.masks.subarray(row * ACTION_COUNT, (row + 1) * ACTION_COUNT);
      const count = writeActionMask(s, scratch, mask, 0, ids, 0);
      if (count > MAX_LEGAL) throw new Error(`${count} legal actions: more than MAX_LEGAL (${MAX_LEGAL})`);
      const seat = s.current;
      const observation = batch.observations.subarray(row * OBSERVATION_SIZE, (row + 1) * OBSERVATION_SIZE);
      encodeObservation(s, seat, observation, 0);
      const choice = adviser.act({ observation, mask, view: playerView(s, seat) }).action;
      const played = uniformFloat64(rng) < options.explore ? ids[Math.floor(uniformFloat64(rng) * count)] : choice;
      if (count > 1) {
        valueActions(s, ids, count, equity, rowValues);
        values.set(rowValues.subarray(0, count), row * MAX_LEGAL);
        tableEquities(equity, s, s.starter, equities);
        adviserValues[row] = rowValues[ids.subarray(0, count).indexOf(choice)] / VALUE_SCALE - equities[seat];
        writeActionContext(s, seat, batch.actionContexts, row * ACTION_CONTEXT_SIZE);
        batch.adviserActions[row] = choice;
        batch.actions[row] = choice;
        row++;
        if (row % 1000 === 0) options.progress?.(row);
      } else {
        mask.fill(0);
      }
      applyActionId(s, played, null);
    }
  }
  return { batch, values, adviserValues };
}

export interface ActionValueUpdate {
  epochs: number;
  minibatchSize: number;
  valueWeight: number;
  maxGradNorm: number | null;
  /** Uniform draws in [0, 1), for the shuffles. */
  random: () => number;
  /** After each epoch, with its mean loss. */
  onEpoch?: (epoch: number, loss: number) => void;
}

/** The action-value regression over the positions (policyValueStep.ts actionValueTrainStep), epoch after epoch of shuffled minibatches. */
export function actionValueUpdate(
  net: Network<PolicyValueConfig>,
  optimizer: FastAdam,
  data: ValuedPositions,
  options: ActionValueUpdate,
): number {
  const { batch } = data;
  const buffers = new MinibatchBuffers(options.minibatchSize);
  let loss = Number.NaN;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const order = shuffledIndices(batch.count, options.random);
    let sum = 0;
    let steps = 0;
    for (let from = 0; from < order.length; from += options.minibatchSize) {
      const to = Math.min(order.length, from + options.minibatchSize);
      const { tensors, width } = gatherInputs(batch, order, from, to, buffers, net.config.actionFeatures);
      const columns = tensors.columns.dataSync();
      const centered = new Float32Array((to - from) * width);
      const valueTargets = new Float32Array(to - from);
      for (let k = 0; k < to - from; k++) centerRow(data, order[from + k], columns, centered, k * width);
      for (let k = 0; k < to - from; k++) valueTargets[k] = data.adviserValues[order[from + k]];
      const targets = {
        centeredTargets: tf.tensor2d(centered, [to - from, width]),
        valueTargets: tf.tensor2d(valueTargets, [to - from, 1]),
      };
      sum += actionValueTrainStep(
        net,
        { ...tensors, columns: tensors.columns, ...targets },
        optimizer,
        options.valueWeight,
        options.maxGradNorm,
      );
      steps++;
      tf.dispose([tensors.observations, tensors.legalMask, tensors.columns, targets.centeredTargets, targets.valueTargets]);
      if (tensors.actionFeatures) tensors.actionFeatures.dispose();
    }
    loss = sum / steps;
    options.onEpoch?.(epoch, loss);
  }
  return loss;
}

/** Row r's legal actions' values (ascending ids) at their columns, less their mean; 0 at the columns not legal in the row. */
function centerRow(data: ValuedPositions, r: number, columns: ArrayLike<number>, out: Float32Array, at: number): void {
  const mask = data.batch.masks;
  let j = 0;
  let sum = 0;
  for (let c = 0; c < columns.length; c++) {
    if (!mask[r * ACTION_COUNT + columns[c]]) continue;
    const value = data.values[r * MAX_LEGAL + j++];
    out[at + c] = value;
    sum += value;
  }
  const mean = sum / j;
  for (let c = 0; c < columns.length; c++) if (mask[r * ACTION_COUNT + columns[c]]) out[at + c] -= mean;
}
