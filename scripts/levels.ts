// Calibrates the levels of `level:K` from `yaniv rate` runs (README, "Levels"), in two steps:
//
//   node dist/scripts/levels.js plan RATE.json --levels 8 --lowest 1150 --out models/levels/standard-2.json
//     RATE.json rated settings `level?temperature=T` beside the best bot: the temperature of each
//     level is read off the measured rating-against-temperature curve (linear in log(1 + T)
//     between the settings rated), for ratings evenly spaced from --lowest to the best bot's.
//   node dist/scripts/levels.js plan RATE.json --from models/levels/standard-5.json --levels 5 --lowest 1476 --out …
//     RATE.json rated the levels of --from themselves (level:1 … level:L, the last the best bot): a
//     re-plan reads their temperatures from that file, where a first measurement spaced them unevenly.
//   node dist/scripts/levels.js publish RATE.json --out models/levels/standard-2.json
//     RATE.json rated level:1 … level:L themselves: their measured ratings replace the planned ones.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LEVELS_FORMAT, type LevelsFile, levelsFileSchema, yanivShareAt } from '../agents/level.js';
import type { RatingFit } from '../agents/tournament/rating.js';

export interface RateReport {
  config: { agents: string[]; games: number; players: number; seed: number; preset: string; rules: Record<string, unknown> };
  results: RatingFit;
}

const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as RateReport;

/** The `yaniv rate` command that made a report. */
export function commandOf({ config, results }: RateReport): string {
  const rules = Object.entries(config.rules).map(([key, value]) => ` --rule ${key}=${String(value)}`);
  return `yaniv rate --agents '${config.agents.join(',')}' --games ${config.games} --players ${config.players} --rules ${config.preset}${rules.join('')} --seed ${config.seed} --anchor ${results.anchor} --anchor-rating ${results.anchorRating}`;
}

/** The temperature whose rating is `target`, by linear interpolation in log(1 + T) over the rated points (falling in T). */
export function temperatureFor(points: readonly { temperature: number; rating: number }[], target: number): number {
  const sorted = [...points].sort((a, b) => a.temperature - b.temperature);
  const x = (t: number) => Math.log1p(t);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [a, b] = [sorted[i], sorted[i + 1]];
    if ((a.rating - target) * (b.rating - target) <= 0 && a.rating !== b.rating) {
      const u = (a.rating - target) / (a.rating - b.rating);
      return Math.expm1(x(a.temperature) + u * (x(b.temperature) - x(a.temperature)));
    }
  }
  throw new Error(
    `no rated temperature brackets the rating ${target.toFixed(0)} (rated: ${sorted.map((p) => `${p.temperature}→${p.rating.toFixed(0)}`).join(', ')})`,
  );
}

/** The temperature a rated agent played: `level?temperature=T`, or `level:K` of the levels file it was rated from (the best bot's own level is T = 0). */
function temperatureOf(agent: string, from: LevelsFile | null): number | undefined {
  const match = /^level\?temperature=([\d.]+)$/.exec(agent);
  if (match) return Number(match[1]);
  return from?.levels.find((l) => `level:${l.level}` === agent)?.temperature;
}

/** The levels read off a rating-against-temperature run: ratings evenly spaced from `lowest` to the best bot's. */
export function plan(report: RateReport, levels: number, lowest: number, best: string, from: LevelsFile | null): LevelsFile {
  const ratings = report.results.ratings;
  const top = ratings.find((r) => r.agent === best || temperatureOf(r.agent, from) === 0);
  if (!top) throw new Error(`${best} was not rated`);
  const points = [
    { temperature: 0, rating: top.rating },
    ...ratings.flatMap((r) => {
      const temperature = temperatureOf(r.agent, from);
      return temperature !== undefined && temperature > 0 ? [{ temperature, rating: r.rating }] : [];
    }),
  ];
  const step = (top.rating - lowest) / (levels - 1);
  return {
    format: LEVELS_FORMAT,
    preset: report.config.preset,
    players: report.config.players,
    best,
    anchor: report.results.anchor,
    anchorRating: report.results.anchorRating,
    ratedBy: `planned from: ${commandOf(report)}`,
    reference: Object.fromEntries(ratings.filter((r) => !r.agent.startsWith('level')).map((r) => [r.agent, Math.round(r.rating)])),
    levels: Array.from({ length: levels }, (_, i) => {
      const rating = lowest + i * step;
      const temperature = i === levels - 1 ? 0 : Number(temperatureFor(points, rating).toFixed(2));
      return {
        level: i + 1,
        temperature,
        yanivShare: yanivShareAt(temperature),
        rating: Math.round(rating),
        low: Math.round(rating),
        high: Math.round(rating),
      };
    }),
  };
}

function publish(report: RateReport, file: LevelsFile): LevelsFile {
  const rated = new Map(report.results.ratings.map((r) => [r.agent, r]));
  return {
    ...file,
    ratedBy: commandOf(report),
    anchor: report.results.anchor,
    anchorRating: report.results.anchorRating,
    reference: Object.fromEntries(
      report.results.ratings.filter((r) => !r.agent.startsWith('level')).map((r) => [r.agent, Math.round(r.rating)]),
    ),
    levels: file.levels.map((level) => {
      const r = rated.get(`level:${level.level}`);
      if (!r) throw new Error(`level:${level.level} was not rated`);
      return { ...level, rating: Math.round(r.rating), low: Math.round(r.low), high: Math.round(r.high) };
    }),
  };
}

if (process.argv[1]?.endsWith('levels.js')) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      levels: { type: 'string', default: '8' },
      lowest: { type: 'string' },
      best: { type: 'string', default: 'neural' },
      from: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const [mode, reportFile] = positionals;
  if (!values.out || !reportFile || (mode !== 'plan' && mode !== 'publish')) {
    console.error(
      'usage: levels.js plan RATE.json --lowest R [--levels 8] [--from LEVELS.json] --out FILE | levels.js publish RATE.json --out FILE',
    );
    process.exit(2);
  }
  const report = readReport(reportFile);
  const levelsIn = (file: string) => levelsFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const file =
    mode === 'plan'
      ? plan(report, Number(values.levels), Number(values.lowest), values.best, values.from ? levelsIn(values.from) : null)
      : publish(report, levelsIn(values.out));
  writeFileSync(values.out, JSON.stringify(levelsFileSchema.parse(file), null, 2) + '\n');
  console.log(file.levels.map((l) => `level:${l.level} T=${l.temperature} yaniv ${l.yanivShare.toFixed(2)} → ${l.rating}`).join('\n'));
}
