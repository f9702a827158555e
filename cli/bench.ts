// `yaniv bench`: a tournament between agents, with seat rotation, duplicate deals and
// statistics to publish (a table on the terminal, JSON with --json).
import { availableParallelism } from 'node:os';
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import Table from 'cli-table3';
import { SingleBar } from 'cli-progress';
import { z } from 'zod';
import { AGENT_NAMES, AgentSpecError, agentMismatch, parseAgentSpec } from '../agents/registry.js';
import { DEFAULT_MAX_TURNS } from '../agents/tournament/match.js';
import { type TournamentConfig, runTournament } from '../agents/tournament/run.js';
import type { TournamentSummary } from '../agents/tournament/stats.js';
import { MAX_PLAYERS, MIN_PLAYERS } from '../env/index.js';
import { type RuleFlags, describeRuleChoice, readRuleSelection, ruleOptions } from './ruleOptions.js';

const agentList = z.string().transform((text, ctx) => {
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'name at least one agent' });
  for (const name of names) {
    try {
      parseAgentSpec(name);
    } catch (error) {
      if (!(error instanceof AgentSpecError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  }
  return names;
});

const distinctAgents = agentList.refine((names) => new Set(names).size === names.length, { message: 'name each agent once' });

const wholeNumber = (flag: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.string().transform((text, ctx) => {
    const n = Number(text);
    if (!/^-?\d+$/.test(text.trim()) || n < min || n > max) {
      ctx.addIssue({
        code: 'custom',
        message: `${flag} must be a whole number ${max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`} (got ${JSON.stringify(text)})`,
      });
    }
    return n;
  });

/** The flags of `yaniv bench`, each described; validated once, errors name the flag. */
export const benchFlagsSchema = z.object({
  agents: distinctAgents.describe('Comma-separated agent specs (name, name:ARG, name?key=value).'),
  games: wholeNumber('--games', 1).describe('Games per lineup (rounded up to whole sets of seat rotations).'),
  players: wholeNumber('--players', MIN_PLAYERS, MAX_PLAYERS).describe('Seats at each table.'),
  seed: wholeNumber('--seed', -(2 ** 31), 2 ** 31 - 1).describe('Tournament seed: the same seed gives the same result.'),
  episode: z.enum(['round', 'game'], { error: '--episode must be "round" or "game"' }).describe('What counts as one game.'),
  workers: wholeNumber('--workers', 1, 64).describe('Worker threads.'),
  maxTurns: wholeNumber('--max-turns', 1).describe(
    'Turns after which a game is stopped unfinished (a guard against agents that never end a round).',
  ),
  json: z.string().optional().describe('Write the summary as JSON to this file ("-" for standard output).'),
  saveRecords: z.string().optional().describe('Write every game as a yaniv-record/1 file into this folder.'),
  progress: z.boolean().describe('Show a progress bar.'),
  lineup: agentList
    .optional()
    .describe('One table seat by seat (agents may repeat), e.g. neural,strong,strong,strong; replaces --agents and --players.'),
});

/** The flags validated (the rule flags by cli/ruleOptions.ts); a bad one throws naming it. */
export function parseBenchFlags(raw: Record<string, unknown> & RuleFlags): TournamentConfig & { json?: string; progress: boolean } {
  const parsed = benchFlagsSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues.map((i) => i.message).join('; '));
  const { lineup, ...flags } = parsed.data;
  if (lineup) {
    flags.agents = [...new Set(lineup)];
    flags.players = lineup.length;
    if (lineup.length < MIN_PLAYERS || lineup.length > MAX_PLAYERS)
      throw new InvalidArgumentError(`--lineup must name ${MIN_PLAYERS} to ${MAX_PLAYERS} seats (got ${lineup.length})`);
  }
  return { ...flags, ...readRuleSelection(raw, flags.players), ...(lineup ? { lineup } : {}) };
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
  const command = new Command('bench')
    .description('Play a tournament between agents: seat rotation, duplicate deals, win rates with 95% intervals, head-to-head and Elo')
    .addOption(new Option('--agents <list>', `comma-separated agents (${AGENT_NAMES.join(', ')})`).default('strong,intermediate'))
    .addOption(new Option('--games <n>', 'games per lineup').default('1000'))
    .addOption(new Option('--players <n>', 'players per table (2–8)').default('2'));
  return ruleOptions(command)
    .addOption(new Option('--seed <n>', 'tournament seed').default('1'))
    .addOption(new Option('--episode <kind>', 'round or game').choices(['round', 'game']).default('game'))
    .addOption(new Option('--workers <n>', 'worker threads').default(String(availableParallelism())))
    .addOption(new Option('--max-turns <n>', 'turns after which a game stops unfinished').default(String(DEFAULT_MAX_TURNS)))
    .option('--json <file>', 'write the summary as JSON ("-" for standard output)')
    .option('--save-records <dir>', 'write every game as a yaniv-record/1 file')
    .option(
      '--lineup <list>',
      'one table seat by seat, agents may repeat (e.g. neural,strong,strong,strong: one neural seat against three strong); replaces --agents and --players',
    )
    .option('--no-progress', 'hide the progress bar')
    .action(async (raw: Record<string, unknown> & RuleFlags) => {
      const config = parseBenchFlags(raw);
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
