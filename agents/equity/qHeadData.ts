/**
 * The q head's training positions (scripts/qheadData.ts writes them, one JSON line each;
 * scripts/qheadTrain.ts reads them): the seat's observation (sparse: it is mostly 0), the moves
 * weighed, the teacher's figures for them (the judge's playouts with a large budget, as played
 * out) and the advice's own budget's beside them, and whether the seat won the game.
 */
import { z } from 'zod';

const figuresSchema = z.strictObject({
  win: z.array(z.number().min(0).max(1)),
  points: z.array(z.number().min(0)),
});

export const qHeadSampleSchema = z.strictObject({
  game: z.number().int().nonnegative(),
  players: z.number().int().min(2),
  seat: z.number().int().nonnegative(),
  phase: z.string(),
  /** The observation's nonzero entries: their indices and values. */
  index: z.array(z.number().int().nonnegative()),
  value: z.array(z.number()),
  /** The seat's action context (env/gym/actionFeatures.ts): what the moves' features read of the view. */
  context: z.array(z.number().int()),
  /** The seat's game equity as the round began (totals, who is in, who started): the head's anchor. */
  roundStart: z.number().min(0).max(1),
  candidates: z.array(z.number().int().nonnegative()).min(1),
  /** The judge's playouts with the teacher's budget (32 worlds). */
  teacher: figuresSchema,
  /** The judge's playouts with the advice's budget (8 worlds), other worlds. */
  judged: figuresSchema,
  won: z.boolean(),
});

export type QHeadSample = z.output<typeof qHeadSampleSchema>;

/** An observation's nonzero entries. */
export function sparseObservation(observation: Float32Array): { index: number[]; value: number[] } {
  const index: number[] = [];
  const value: number[] = [];
  observation.forEach((x, i) => {
    if (x !== 0) {
      index.push(i);
      value.push(x);
    }
  });
  return { index, value };
}

/** The observation back from its nonzero entries. */
export function denseObservation(sample: Pick<QHeadSample, 'index' | 'value'>, size: number): Float32Array {
  const out = new Float32Array(size);
  sample.index.forEach((i, k) => (out[i] = sample.value[k]));
  return out;
}

/** Each line of a file of samples, parsed (the line number in the error). */
export function parseQHeadSamples(text: string, file: string): QHeadSample[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const parsed = qHeadSampleSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${i + 1}: ${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`);
      return parsed.data;
    });
}
