/** The probe's decisions and the inputs its networks read (criticProbe.ts, criticProbeFit.ts). */
import { OBS, OBSERVATION_SIZE } from '../env/gym/observation.js';
import { COUNT_SCALE, HAND_VALUE_SCALE } from '../env/gym/observationParts.js';
import { DECK_LOOKAHEAD, WHOLE_DEAL_HIDDEN_SEGMENTS, WHOLE_DEAL_SIZE } from '../env/gym/wholeDeal.js';
import { KIND_COUNT, valueTable } from '../env/rules/cards.js';
import type { RoundResult } from '../env/rules/state.js';

/** Seats at the probe's tables. */
export const N = 4;

/** One ended round as the probe keeps it (absolute seats). */
export interface RoundRecord {
  startTotals: number[];
  eqStart: number[];
  dealer: number;
  result: RoundResult;
}

/** Per decision: what the fit reads (absolute seats). */
export interface DecisionMeta {
  game: number;
  seat: number;
  segmentStart: boolean;
  realised: number;
  seatValue: number;
  round: RoundRecord;
  /** The rollout critic's values (criticProbeRollouts.ts ROLLOUT_VARIANTS order), where computed. */
  rollouts?: number[];
}

export interface Data {
  features: Float32Array;
  metas: DecisionMeta[];
  /** Inputs per decision. */
  width: number;
}

export /** Relative seat j of decision m: absolute (seat + j) % N. */
const absolute = (m: DecisionMeta, j: number) => (m.seat + j) % N;

export /** Each seat's hand value at the decision (relative seats), read back from the whole-deal input. */
function handValuesNow(features: Float32Array, row: number): number[] {
  const at = row * WHOLE_DEAL_SIZE;
  const hidden =
    at + OBSERVATION_SIZE + (WHOLE_DEAL_HIDDEN_SEGMENTS.find((s) => s.name === 'opponentHandValues') as { start: number }).start;
  return [
    Math.round(features[at + OBS.handStats + 1] * HAND_VALUE_SCALE),
    ...[0, 1, 2].map((j) => Math.round(features[hidden + j] * HAND_VALUE_SCALE)),
  ];
}

const COMPACT_PER_SEAT = 4;
const CARD_VALUES = valueTable(10);

/** Few inputs per decision, read from the whole-deal input: per relative seat its hand value, hand size, total and whether it is in; the next 8 cards' values; the phase and the round's progress. */
export function compact(whole: Data): Data {
  const width = N * COMPACT_PER_SEAT + DECK_LOOKAHEAD + 5;
  const out = new Float32Array(whole.metas.length * width);
  const hidden = Object.fromEntries(WHOLE_DEAL_HIDDEN_SEGMENTS.map((s) => [s.name, OBSERVATION_SIZE + s.start]));
  whole.metas.forEach((m, row) => {
    const at = row * WHOLE_DEAL_SIZE;
    const f = whole.features;
    const o = row * width;
    const values = handValuesNow(f, row);
    for (let j = 0; j < N; j++) {
      const s = absolute(m, j);
      let size = f[at + OBS.handStats] * 7;
      if (j > 0) {
        size = 0;
        for (let k = 0; k < KIND_COUNT; k++) size += f[at + hidden.opponentHands + (j - 1) * KIND_COUNT + k] / COUNT_SCALE;
      }
      out[o + j * COMPACT_PER_SEAT] = values[j] / 50;
      out[o + j * COMPACT_PER_SEAT + 1] = size / 7;
      out[o + j * COMPACT_PER_SEAT + 2] = m.round.startTotals[s] / 200;
      out[o + j * COMPACT_PER_SEAT + 3] = m.round.result.points[s] === null ? 0 : 1;
    }
    for (let i = 0; i < DECK_LOOKAHEAD; i++)
      for (let k = 0; k < KIND_COUNT; k++)
        if (f[at + hidden.deckNext + i * KIND_COUNT + k] === 1) out[o + N * COMPACT_PER_SEAT + i] = CARD_VALUES[k] / 10;
    for (let i = 0; i < 3; i++) out[o + N * COMPACT_PER_SEAT + DECK_LOOKAHEAD + i] = f[at + OBS.phase + i];
    for (let i = 0; i < 2; i++) out[o + N * COMPACT_PER_SEAT + DECK_LOOKAHEAD + 3 + i] = f[at + OBS.progress + i];
  });
  return { features: out, metas: whole.metas, width };
}

/** Per seat: its hand's counts per kind, value, size, total, whether it is in, its position (one-hot); then the shared context: the next 8 cards (one-hot), the phase and the round's progress. */
export const SEAT_WIDTH = KIND_COUNT + 4 + N + DECK_LOOKAHEAD * KIND_COUNT + 5;

/** The whole-deal input re-laid seat by seat, for a network that scores the seats with shared weights. */
export function perSeatInputs(whole: Data): Data {
  const width = N * SEAT_WIDTH;
  const out = new Float32Array(whole.metas.length * width);
  const hidden = Object.fromEntries(WHOLE_DEAL_HIDDEN_SEGMENTS.map((s) => [s.name, OBSERVATION_SIZE + s.start]));
  const f = whole.features;
  whole.metas.forEach((m, row) => {
    const at = row * WHOLE_DEAL_SIZE;
    const values = handValuesNow(f, row);
    for (let j = 0; j < N; j++) {
      const o = row * width + j * SEAT_WIDTH;
      const hand = j === 0 ? at + OBS.hand : at + hidden.opponentHands + (j - 1) * KIND_COUNT;
      let size = 0;
      for (let k = 0; k < KIND_COUNT; k++) {
        out[o + k] = f[hand + k];
        size += f[hand + k] / COUNT_SCALE;
      }
      const s = absolute(m, j);
      out[o + KIND_COUNT] = values[j] / 50;
      out[o + KIND_COUNT + 1] = size / 7;
      out[o + KIND_COUNT + 2] = m.round.startTotals[s] / 200;
      out[o + KIND_COUNT + 3] = m.round.result.points[s] === null ? 0 : 1;
      out[o + KIND_COUNT + 4 + j] = 1;
      const c = o + KIND_COUNT + 4 + N;
      out.set(f.subarray(at + hidden.deckNext, at + hidden.deckNext + DECK_LOOKAHEAD * KIND_COUNT), c);
      out.set(f.subarray(at + OBS.phase, at + OBS.phase + 3), c + DECK_LOOKAHEAD * KIND_COUNT);
      out.set(f.subarray(at + OBS.progress, at + OBS.progress + 2), c + DECK_LOOKAHEAD * KIND_COUNT + 3);
    }
  });
  return { features: out, metas: whole.metas, width };
}
