/**
 * The learning curve of a run, from its metrics.jsonl: win rates against the evaluation opponents
 * with their 95% intervals, the losses and the value's explained variance, against episodes played. A Vega-Lite spec rendered to
 * SVG (support/vegaSvg.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as vl from 'vega-lite';
import { z } from 'zod';
import { renderVegaLite } from '../support/vegaSvg.js';

export const METRICS_FILE = 'metrics.jsonl';
export const CURVE_FILE = 'curve.svg';

/** The metrics lines the curve reads (the other fields and lines are left alone). */
const evaluationLine = z.looseObject({
  type: z.literal('evaluation'),
  episodes: z.number(),
  results: z.array(
    z.looseObject({ opponent: z.string(), players: z.int(), winRate: z.number(), low: z.number(), high: z.number(), games: z.int() }),
  ),
});
const iterationLine = z.looseObject({
  type: z.literal('iteration'),
  episodes: z.number(),
  phase: z.enum(['imitation', 'ppo']),
  // null: a loss that was not a number (JSON has no NaN).
  loss: z.number().nullable().optional(),
  valueLoss: z.number().nullable().optional(),
  explainedVariance: z.number().nullable().optional(),
  seatExplainedVariance: z.number().nullable().optional(),
});
const valueEvaluationLine = z.looseObject({
  type: z.literal('valueEvaluation'),
  episodes: z.number(),
  seat: z.number().nullable(),
  wholeDeal: z.number().nullable(),
});

/** The lines a schema reads. */
function linesOf<T>(lines: readonly Record<string, unknown>[], schema: z.ZodType<T>): T[] {
  return lines.flatMap((line) => {
    const parsed = schema.safeParse(line);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The lines of metrics.jsonl (blank or unreadable lines, e.g. one cut by a kill, are skipped). */
export function readMetrics(dir: string): Record<string, unknown>[] {
  const file = path.join(dir, METRICS_FILE);
  if (!existsSync(file)) return [];
  const lines: Record<string, unknown>[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut short by a killed process.
    }
  }
  return lines;
}

/** The win-rate points: one per evaluation and opponent, with its 95% interval. */
function winRateRows(lines: readonly Record<string, unknown>[]) {
  return linesOf(lines, evaluationLine).flatMap((line) =>
    line.results.map((r) => ({
      episodes: line.episodes,
      matchup: r.players > 2 ? `vs ${r.players - 1} × ${r.opponent} (1 of ${r.players} seats)` : `vs ${r.opponent}, heads-up`,
      winRate: r.winRate,
      low: r.low,
      high: r.high,
      games: r.games,
    })),
  );
}

/** The loss points: each iteration's total loss and, under PPO, its value error (losses that were not numbers left out). */
function lossRows(lines: readonly Record<string, unknown>[]) {
  return linesOf(lines, iterationLine)
    .flatMap((line) => [
      {
        episodes: line.episodes,
        series: line.phase === 'imitation' ? 'imitation: cross-entropy + value error' : 'PPO: total loss',
        value: line.loss ?? NaN,
      },
      ...(line.valueLoss !== undefined ? [{ episodes: line.episodes, series: 'PPO: value error', value: line.valueLoss ?? NaN }] : []),
    ])
    .filter((row) => Number.isFinite(row.value));
}

/**
 * The explained-variance points: each PPO iteration's on its training batch (the advantages' value:
 * the seat head's, or the whole-deal critic's, and then the seat head's beside it) and each held-out
 * evaluation's (heldOutValue.ts).
 */
function explainedVarianceRows(lines: readonly Record<string, unknown>[]) {
  const batch = linesOf(lines, iterationLine).flatMap((line) => [
    { episodes: line.episodes, series: "training batch: the advantages' value", value: line.explainedVariance ?? NaN, heldOut: false },
    { episodes: line.episodes, series: 'training batch: seat value head', value: line.seatExplainedVariance ?? NaN, heldOut: false },
  ]);
  const heldOut = linesOf(lines, valueEvaluationLine).flatMap((line) => [
    { episodes: line.episodes, series: 'held-out games: seat value head', value: line.seat ?? NaN, heldOut: true },
    { episodes: line.episodes, series: 'held-out games: whole-deal critic', value: line.wholeDeal ?? NaN, heldOut: true },
  ]);
  return [...batch, ...heldOut].filter((row) => Number.isFinite(row.value));
}

/** The x axis both panels share: episodes played, from 0 to the last line's. */
type EpisodeAxis = { field: 'episodes'; type: 'quantitative'; title: string; scale: { domain: number[] } };

/** One panel of the curve's column. */
type Panel = Extract<vl.TopLevelSpec, { vconcat: unknown }>['vconcat'][number];

/** The upper panel: the win rates as lines over their interval bands, and the even line at 50%. */
function winRatePanel(values: ReturnType<typeof winRateRows>, x: EpisodeAxis): Panel {
  const color = { field: 'matchup', type: 'nominal', title: null } as const;
  return {
    width: 640,
    height: 260,
    title: 'win rate, greedy, duplicate deals (band: 95% Wilson interval)',
    data: { values },
    layer: [
      {
        mark: { type: 'errorband', opacity: 0.2 },
        encoding: { x, y: { field: 'low', type: 'quantitative', title: 'win rate' }, y2: { field: 'high' }, color },
      },
      {
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'winRate', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%' }, title: 'win rate' },
          color,
          tooltip: [
            { field: 'winRate', format: '.1%' },
            { field: 'low', format: '.1%' },
            { field: 'high', format: '.1%' },
            { field: 'games' },
          ],
        },
      },
      {
        data: { values: [{ y: 0.5 }] },
        mark: { type: 'rule', strokeDash: [4, 4], color: 'gray' },
        encoding: { y: { field: 'y', type: 'quantitative' } },
      },
    ],
  };
}

/** The lower panel: the losses per iteration. */
function lossPanel(values: ReturnType<typeof lossRows>, x: EpisodeAxis): Panel {
  return {
    width: 640,
    height: 180,
    title: 'loss per iteration',
    data: { values },
    mark: { type: 'line', strokeWidth: 1 },
    encoding: {
      x,
      y: { field: 'value', type: 'quantitative', title: 'loss' },
      color: { field: 'series', type: 'nominal', title: null },
    },
  };
}

/** The bottom panel: explained variance of the return, per training batch (lines) and on held-out games (points). */
function explainedVariancePanel(values: ReturnType<typeof explainedVarianceRows>, x: EpisodeAxis): Panel {
  const encoding = {
    x,
    y: { field: 'value', type: 'quantitative', title: '1 − Var(R − V)/Var(R)' },
    color: { field: 'series', type: 'nominal', title: null },
  } as const;
  return {
    width: 640,
    height: 160,
    title: 'explained variance of the return',
    data: { values },
    layer: [
      { transform: [{ filter: '!datum.heldOut' }], mark: { type: 'line', strokeWidth: 1 }, encoding },
      { transform: [{ filter: 'datum.heldOut' }], mark: { type: 'point', filled: true, size: 50 }, encoding },
    ],
  };
}

/** The Vega-Lite spec of the curve: the win rates above the losses, on one episode axis. */
export function curveSpec(lines: readonly Record<string, unknown>[], title: string): vl.TopLevelSpec {
  const last = Math.max(1, ...lines.map((l) => (typeof l.episodes === 'number' ? l.episodes : 0)));
  // Both panels on the same episode axis, from 0.
  const x: EpisodeAxis = { field: 'episodes', type: 'quantitative', title: 'episodes played', scale: { domain: [0, last] } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    vconcat: [winRatePanel(winRateRows(lines), x), lossPanel(lossRows(lines), x), explainedVariancePanel(explainedVarianceRows(lines), x)],
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
    config: { legend: { orient: 'right', labelLimit: 320 } },
  };
}

/** Renders the curve of the metrics lines to an SVG string. */
export function renderCurve(lines: readonly Record<string, unknown>[], title: string): Promise<string> {
  return renderVegaLite(curveSpec(lines, title));
}

/** Reads DIR/metrics.jsonl and writes DIR/curve.svg (or `out`); returns the file written. */
export async function writeCurve(dir: string, out = path.join(dir, CURVE_FILE)): Promise<string> {
  const svg = await renderCurve(readMetrics(dir), `yaniv train: ${path.basename(path.resolve(dir))}`);
  writeFileSync(out, svg);
  return out;
}
