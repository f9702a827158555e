// `yaniv bench`: a tournament between agents, with seat rotation, duplicate deals and
// statistics to publish (a table on the terminal, JSON with --json).
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import Table from 'cli-table3';
import { SingleBar } from 'cli-progress';
import { agentMismatch } from '../agents/registry.js';
import { BENCH_FLAGS, type BenchOptions, benchOptionsSchema } from '../agents/tournament/benchOptions.js';
import { type TournamentConfig, runTournament } from '../agents/tournament/run.js';
import type { TournamentSummary } from '../agents/tournament/stats.js';
import { MAX_PLAYERS, MIN_PLAYERS } from '../env/index.js';
import { schemaFlags } from '../env/rules/schemaFlags.js';
import { type RuleFlags, describeRuleChoice, readRuleSelection, ruleOptions } from './ruleOptions.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues } from './schemaOptions.js';

const FLAGS = schemaFlags(benchOptionsSchema, BENCH_FLAGS);

/** The flags validated (the rule flags by cli/ruleOptions.ts); a bad one throws naming it. */
export function parseBenchFlags(values: Record<string, unknown>, ruleFlags: RuleFlags): TournamentConfig & Omit<BenchOptions, 'lineup'> {
  const options = readSchemaOptions(benchOptionsSchema, FLAGS, values);
  const { lineup } = options;
  if (lineup) {
    options.agents = [...new Set(lineup)];
    options.players = lineup.length;
    if (lineup.length < MIN_PLAYERS || lineup.length > MAX_PLAYERS)
      throw new InvalidArgumentError(`--lineup must name ${MIN_PLAYERS} to ${MAX_PLAYERS} seats (got ${lineup.length})`);
  }
  return { ...options, ...readRuleSelection(ruleFlags, options.players) };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const num = (x: number, digits = 2) => x.toFixed(digits);

export function formatSummary(summary: TournamentSummary): string {
  const table = new Table({
    head: [
      'agent',
      'games',
      'unfinished',
      'win rate (95% CI)',
      'penalty/round',
      'Yaniv/game',
      'Yaniv ok',
      'Assaf suffered/game',
      'Assaf caused/game',
      'milestone pts/game',
      'rounds/game',
      'µs/decision',
    ],
    style: { head: [], border: [], compact: true },
  });
  for (const a of summary.agents) {
    table.push([
      a.agent,
      a.games,
      a.unfinished,
      `${pct(a.winRate)} (${pct(a.winRate95.low)}–${pct(a.winRate95.high)})`,
      num(a.meanRoundPenalty),
      num(a.yanivCallsPerGame),
      pct(a.yanivSuccessRate),
      num(a.assafSufferedPerGame),
      num(a.assafCausedPerGame),
      num(a.milestonePointsPerGame, 1),
      num(a.meanRoundsPerGame, 1),
      num(a.microsPerDecision, 1),
    ]);
  }
  const lines = [table.toString()];
  if (summary.agents.length > 2) {
    const names = summary.agents.map((a) => a.agent);
    const h2h = new Table({ head: ['finished ahead of →', ...names], style: { head: [], border: [], compact: true } });
    names.forEach((name, i) =>
      h2h.push([name, ...names.map((_, j) => (i === j || !summary.headToHead.meetings[i][j] ? '–' : pct(summary.headToHead.score[i][j])))]),
    );
    lines.push('', h2h.toString());
    lines.push(
      '',
      'Elo: ' +
        Object.entries(summary.elo)
          .sort((a, b) => b[1] - a[1])
          .map(([n, e]) => `${n} ${e.toFixed(0)}`)
          .join(', '),
    );
  }
  if (summary.truncatedGames > 0) {
    lines.push(
      '',
      `${summary.truncatedGames} of ${summary.games} games hit the turn cap unfinished (agents that never end a round?): counted under "unfinished", left out of every other figure.`,
    );
  }
  return lines.join('\n');
}

/** A warning for each neural agent that plays rules or a table size its model was not trained for. */
export function modelWarnings(config: Pick<TournamentConfig, 'agents' | 'preset' | 'rules' | 'players'>): string[] {
  return config.agents.flatMap((spec) => {
    const mismatch = agentMismatch(spec, config.preset, config.rules, config.players);
    return mismatch ? [`${spec} ${mismatch}`] : [];
  });
}

export function benchCommand(): Command {
  const command = new Command('bench').description(
    'Play a tournament between agents: seat rotation, duplicate deals, win rates with 95% intervals, head-to-head and Elo',
  );
  return ruleOptions(addSchemaOptions(command, FLAGS)).action(async (ruleFlags: RuleFlags, cmd: Command) => {
    const config = parseBenchFlags(schemaOptionValues(cmd, FLAGS), ruleFlags);
    for (const warning of modelWarnings(config)) process.stderr.write(`yaniv bench: warning: ${warning}\n`);
    const started = Date.now();
    const bar =
      config.progress && process.stderr.isTTY
        ? new SingleBar({ format: 'games {bar} {value}/{total} | {rate} games/s | ETA {eta_formatted}', hideCursor: true })
        : null;
    const summary = await runTournament(config, {
      onProgress: (done, total) => {
        if (!bar) return;
        if (done === 1) bar.start(total, 0, { rate: '0' });
        bar.update(done, { rate: (done / ((Date.now() - started) / 1000)).toFixed(0) });
      },
    });
    bar?.stop();
    const seconds = (Date.now() - started) / 1000;
    const report = {
      config: { ...config, progress: undefined, json: undefined },
      seconds,
      gamesPerSecond: summary.games / seconds,
      ...summary,
    };
    if (config.json === '-') {
      process.stdout.write(JSON.stringify(report, null, 2) + '\n');
      return;
    }
    console.log(
      `${summary.games} games (${(config.lineup ?? config.agents).join(' vs ')}, ${config.players} players, ${describeRuleChoice(config)}, ${config.episode}s, seed ${config.seed}) in ${seconds.toFixed(1)} s — ${(summary.games / seconds).toFixed(1)} games/s on ${config.workers} workers\n`,
    );
    console.log(formatSummary(summary));
    if (config.json) writeFileSync(config.json, JSON.stringify(report, null, 2) + '\n');
  });
}
