// `yaniv rate`: a rating tournament among agent specs (duplicate deals, seat rotation, the lineups
// spread evenly; on worker threads or `yaniv worker`s through Redis) and the ratings fitted from it
// (agents/tournament/rating.ts): a table, JSON whose `config` and `results` are the same bytes for
// the same seed, and a ladder chart.
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import Table from 'cli-table3';
import type * as vl from 'vega-lite';
import { modelLines, resolveAgent } from '../agents/resolve.js';
import { RATE_FLAGS, type RateOptions, rateOptionsSchema } from '../agents/tournament/benchOptions.js';
import { type RatedGame, type RatingFit, fitRatings } from '../agents/tournament/rating.js';
import { type TournamentConfig, playGames } from '../agents/tournament/run.js';
import { spreadSchedule } from '../agents/tournament/schedule.js';
import { summarize } from '../agents/tournament/stats.js';
import { mixSeed } from '../env/rules/random.js';
import { schemaFlags } from '../support/schemaFlags.js';
import { renderVegaLite } from '../support/vegaSvg.js';
import { playWithProgress } from './bench.js';
import { type RuleFlags, describeRuleChoice, readRuleSelection, ruleOptions } from './ruleOptions.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues } from './schemaOptions.js';

const FLAGS = schemaFlags(rateOptionsSchema, RATE_FLAGS);
/** Draws the order of the lineups (apart from the games' own seeds). */
const SCHEDULE_SEED = 3;

/** The tournament of a rating and its anchor. */
export type RatingConfig = TournamentConfig & Pick<RateOptions, 'anchor' | 'anchorRating'>;
export type RateConfig = RatingConfig & RateOptions;

/** The flags validated (the rule flags by cli/ruleOptions.ts); a bad one throws naming it. */
export function parseRateFlags(values: Record<string, unknown>, ruleFlags: RuleFlags): RateConfig {
  const options = readSchemaOptions(rateOptionsSchema, FLAGS, values);
  const selection = readRuleSelection(ruleFlags, options.players);
  if (!options.agents.includes(options.anchor))
    throw new InvalidArgumentError(`--anchor ${options.anchor} is not one of --agents (${options.agents.join(',')})`);
  // Each agent as it plays at this table: one that cannot (a level that does not ship for it) is named now.
  for (const spec of options.agents) resolveAgent(spec, { ...selection, players: options.players });
  return { ...options, ...selection };
}

/** The tournament's games and the ratings fitted to them. */
export async function rate(config: RatingConfig, options: Parameters<typeof playGames>[2] = {}) {
  const { anchor: _anchor, anchorRating: _rating, ...tournament } = config;
  const scheduled = spreadSchedule(config.agents, config.players, config.games, mixSeed(config.seed, SCHEDULE_SEED));
  // The tournament alone: a Redis job carries it to workers that play any bench's games.
  const played = await playGames(tournament, scheduled, options);
  const rated: RatedGame[] = played.flatMap(({ seats, result }, i) =>
    result.truncated ? [] : [{ seats, ranks: result.seats.map((s) => s.rank), group: scheduled[i].deal }],
  );
  const fit = fitRatings(config.agents, rated, { anchor: config.anchor, anchorRating: config.anchorRating });
  const summary = summarize(config.agents, played);
  return { fit, truncatedGames: summary.truncatedGames, summary };
}

export function formatRatings(fit: RatingFit, microsPerDecision: Record<string, number>): string {
  const table = new Table({
    head: ['#', 'agent', 'rating', '95% interval', '±', 'games', 'first places', 'µs/decision'],
    style: { head: [], border: [], compact: true },
  });
  fit.ratings.forEach((r, i) =>
    table.push([
      i + 1,
      r.agent,
      r.rating.toFixed(0),
      r.agent === fit.anchor ? 'anchor' : `${r.low.toFixed(0)}–${r.high.toFixed(0)}`,
      r.agent === fit.anchor ? '' : (r.high - r.rating).toFixed(0),
      r.games,
      r.games ? `${((100 * r.firsts) / r.games).toFixed(1)}%` : '–',
      (microsPerDecision[r.agent] ?? 0).toFixed(1),
    ]),
  );
  return table.toString();
}

/** The ladder: each agent's rating with its 95% interval, best at the top. */
export function ladderSpec(fit: RatingFit, title: string): vl.TopLevelSpec {
  const values = fit.ratings.map((r) => ({ agent: r.agent, rating: r.rating, low: r.low, high: r.high }));
  const y = { field: 'agent', type: 'nominal' as const, sort: fit.ratings.map((r) => r.agent), title: null };
  const x = {
    field: 'rating',
    type: 'quantitative' as const,
    scale: { zero: false },
    title: `rating (${fit.anchor} = ${fit.anchorRating})`,
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 520,
    height: { step: 22 },
    data: { values },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { y, x: { ...x, field: 'low' }, x2: { field: 'high' } } },
      {
        mark: { type: 'point', filled: true, size: 60 },
        encoding: { y, x, tooltip: [{ field: 'agent' }, { field: 'rating', format: '.0f' }] },
      },
      { mark: { type: 'text', align: 'left', dx: 8, dy: -8, fontSize: 10 }, encoding: { y, x, text: { field: 'rating', format: '.0f' } } },
    ],
  };
}

export function rateCommand(): Command {
  const command = new Command('rate').description(
    'Rate agents on one scale: a tournament (duplicate deals, seat rotation, lineups spread evenly) and Elo ratings with 95% intervals (Bradley–Terry heads-up, Plackett–Luce at 3–8 seats), one agent anchored',
  );
  return ruleOptions(addSchemaOptions(command, FLAGS)).action(async (ruleFlags: RuleFlags, cmd: Command) => {
    const { json, chart, progress, redis, jobGames, ...config } = parseRateFlags(schemaOptionValues(cmd, FLAGS), ruleFlags);
    for (const line of modelLines(config.agents.map((agent) => resolveAgent(agent, config)))) process.stderr.write(`yaniv rate: ${line}\n`);
    const {
      result: outcome,
      seconds,
      where,
    } = await playWithProgress({ progress, redis, jobGames, command: 'rate' }, (options) => rate(config, options));
    const { fit, truncatedGames, summary } = outcome;
    const microsPerDecision = Object.fromEntries(summary.agents.map((a) => [a.agent, a.microsPerDecision]));
    const { workers, ...deciding } = config;
    const report = {
      config: deciding,
      results: { ...fit, truncatedGames },
      run: {
        ...(where !== undefined ? { redis: where } : { workers }),
        seconds,
        gamesPerSecond: summary.games / seconds,
        microsPerDecision,
      },
    };
    const title = `yaniv rate: ${config.players} players, ${describeRuleChoice(config)}, ${fit.games} games, seed ${config.seed}`;
    if (chart) writeFileSync(chart, await renderVegaLite(ladderSpec(fit, title)));
    if (json === '-') {
      process.stdout.write(JSON.stringify(report, null, 2) + '\n');
      return;
    }
    console.log(
      `${summary.games} games (${config.agents.length} agents, ${config.players} players, ${describeRuleChoice(config)}, ${config.episode}s, seed ${config.seed}) in ${seconds.toFixed(1)} s; ${fit.model === 'bradley-terry' ? 'Bradley–Terry' : 'Plackett–Luce'} fit, ${config.anchor} = ${config.anchorRating}, 95% intervals clustered by duplicate deal\n`,
    );
    console.log(formatRatings(fit, microsPerDecision));
    if (truncatedGames > 0) console.log(`\n${truncatedGames} games hit the turn cap unfinished and are left out of the fit.`);
    if (json) writeFileSync(json, JSON.stringify(report, null, 2) + '\n');
  });
}
