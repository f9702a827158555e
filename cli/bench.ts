// `yaniv bench`: a tournament between agents, with seat rotation, duplicate deals and
// statistics to publish (a table on the terminal, JSON with --json).
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import Table from 'cli-table3';
import { SingleBar } from 'cli-progress';
import { modelLines, resolveAgent } from '../agents/resolve.js';
import { BENCH_FLAGS, type BenchOptions, benchOptionsSchema } from '../agents/tournament/benchOptions.js';
import type { BenchStatus, QueueDispatcher } from '../agents/tournament/queue.js';
import { type RunOptions, type TournamentConfig, runTournament } from '../agents/tournament/run.js';
import { type TournamentSummary, splitRunSpecific } from '../agents/tournament/stats.js';
import { PANEL, type PanelRow, panelResults, runPanel } from '../agents/tournament/panel.js';
import { recordPanelResults } from '../agents/models/modelCard.js';
import { MAX_PLAYERS, MIN_PLAYERS } from '../env/index.js';
import { schemaFlags } from '../support/schemaFlags.js';
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
  const selection = readRuleSelection(ruleFlags, options.players);
  return { ...options, ...selection };
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
      'mean place (95% CI)',
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
      `${num(a.meanPlace, 3)} (${num(a.meanPlace95.low, 3)}–${num(a.meanPlace95.high, 3)})`,
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

export function benchCommand(): Command {
  const command = new Command('bench').description(
    'Play a tournament between agents: seat rotation, duplicate deals, win rates with 95% intervals, head-to-head and Elo',
  );
  return ruleOptions(addSchemaOptions(command, FLAGS)).action(async (ruleFlags: RuleFlags, cmd: Command) => {
    const { json, progress, redis, jobGames, panel, reference, card, ...config } = parseBenchFlags(
      schemaOptionValues(cmd, FLAGS),
      ruleFlags,
    );
    for (const line of modelLines(config.agents.map((agent) => resolveAgent(agent, config))))
      process.stderr.write(`yaniv bench: ${line}\n`);
    if (card && !panel) throw new InvalidArgumentError('--card keeps panel results: use it with --panel');
    if (panel) {
      await benchPanel(config, reference, { progress, redis, jobGames, json, card });
      return;
    }
    const {
      result: summary,
      seconds,
      where: redisWhere,
    } = await playWithProgress({ progress, redis, jobGames, command: 'bench' }, (options) => runTournament(config, options));
    const report = benchReport(config, summary, { seconds, redis: redisWhere });
    if (json === '-') {
      process.stdout.write(JSON.stringify(report, null, 2) + '\n');
      return;
    }
    const where = redis === undefined ? `on ${config.workers} workers` : 'on the workers of the Redis queue';
    console.log(
      `${summary.games} games (${(config.lineup ?? config.agents).join(' vs ')}, ${config.players} players, ${describeRuleChoice(config)}, ${config.episode}s, seed ${config.seed}) in ${seconds.toFixed(1)} s — ${(summary.games / seconds).toFixed(1)} games/s ${where}\n`,
    );
    console.log(formatSummary(summary));
    if (json) writeFileSync(json, JSON.stringify(report, null, 2) + '\n');
  });
}

/** `yaniv bench --panel`: the first agent and the reference, each in one seat against every held-out panel member. */
async function benchPanel(
  config: TournamentConfig,
  reference: string,
  how: { progress: boolean; redis: string | undefined; jobGames: number | undefined; json: string | undefined; card: boolean },
): Promise<void> {
  if (config.agents.length !== 1 || config.lineup)
    throw new InvalidArgumentError(`--panel judges one agent: name it alone in --agents (got ${config.agents.join(',')})`);
  const [subject] = config.agents;
  const cardFolder = how.card ? judgedModelFolder(subject, config) : null;
  const { result: rows, seconds } = await playWithProgress({ ...how, command: 'bench' }, (options) =>
    runPanel(config, subject, reference, options),
  );
  const report = { config: { ...config, workers: undefined, reference, panel: PANEL }, panel: rows, run: { seconds } };
  if (how.json === '-') {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    return;
  }
  console.log(
    `${subject} and ${reference}, each in one seat against ${config.players - 1} of each held-out panel member (${describeRuleChoice(config)}, seed ${config.seed}, ${config.games} games a pairing) in ${seconds.toFixed(1)} s\n`,
  );
  console.log(formatPanel(rows, subject, reference));
  if (how.json) writeFileSync(how.json, JSON.stringify(report, null, 2) + '\n');
  if (cardFolder !== null) {
    const measured = new Date().toISOString().slice(0, 10);
    recordPanelResults(cardFolder, panelResults(rows, config, panelCommand(config, subject, reference), measured));
    console.log(`\nkept in ${cardFolder}'s card (metadata.json, panel)`);
  }
}

/** The folder whose card --card writes: the judged agent must play one model folder at this table. */
function judgedModelFolder(subject: string, config: TournamentConfig): string {
  const { model } = resolveAgent(subject, config);
  if (model === null || model.kind === 'published')
    throw new InvalidArgumentError(
      `--card keeps results in a model's card: ${subject} plays no model folder here (name neural or neural:PATH)`,
    );
  return model.folder;
}

/** The command that measures a panel again, as the card keeps it. */
function panelCommand(config: TournamentConfig, subject: string, reference: string): string {
  const rules = Object.entries(config.rules ?? {}).map(([name, value]) => ` --rule ${name}=${JSON.stringify(value)}`);
  return (
    `yaniv bench --panel --agents '${subject}' --reference '${reference}' --players ${config.players} --games ${config.games}` +
    ` --seed ${config.seed} --rules ${config.preset ?? 'standard'}${rules.join('')}`
  );
}

export function formatPanel(rows: readonly PanelRow[], subject: string, reference: string): string {
  const table = new Table({
    head: ['panel member', `${subject} win rate (95% CI)`, `${reference} win rate (95% CI)`, 'difference, paired (95% CI)', 'mean places'],
    style: { head: [], border: [], compact: true },
  });
  const rate = (a: PanelRow['subject']) => `${pct(a.winRate)} (${pct(a.winRate95.low)}–${pct(a.winRate95.high)})`;
  for (const row of rows) {
    const { mean, low, high } = row.difference;
    const points = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
    table.push([
      row.opponent,
      rate(row.subject),
      rate(row.reference),
      `${points(mean)} (${points(low)} to ${points(high)}) points`,
      `${num(row.subject.meanPlace, 3)} / ${num(row.reference.meanPlace, 3)}`,
    ]);
  }
  return table.toString();
}

/**
 * The JSON of a bench: `config` and `results` depend only on the flags that decide the games (the
 * same seed gives the same bytes, whatever the workers and wherever they ran); `run` holds what
 * is this run's own: where it ran, how long it took, the decision times.
 */
export function benchReport(
  config: TournamentConfig,
  summary: TournamentSummary,
  run: { seconds: number; /** Redacted. */ redis?: string },
) {
  const { workers, saveRecords, ...deciding } = config;
  const { results, runSpecific } = splitRunSpecific(summary);
  return {
    config: deciding,
    results,
    run: {
      ...(run.redis === undefined ? { workers } : { redis: run.redis }),
      ...(saveRecords === undefined ? {} : { saveRecords }),
      seconds: run.seconds,
      gamesPerSecond: summary.games / run.seconds,
      ...runSpecific,
    },
  };
}

/**
 * Plays a command's games (`play`: a tournament run with these options) on worker threads or the
 * Redis queue, with the progress bar when asked and a terminal shows it; closes both however the
 * run ends. Returns what `play` returned, the seconds it took and where the Redis queue was.
 */
export async function playWithProgress<T>(
  how: { progress: boolean; redis: string | undefined; jobGames: number | undefined; command: string },
  play: (options: RunOptions) => Promise<T>,
): Promise<{ result: T; seconds: number; where: string | undefined }> {
  const { progress, redis, jobGames, command } = how;
  const bar = progress && process.stderr.isTTY ? new BenchBar(redis !== undefined, command) : null;
  const dispatcher = redis === undefined ? undefined : await redisDispatcher(redis, jobGames, bar, command);
  const started = Date.now();
  try {
    const result = await play({ dispatcher, onProgress: redis === undefined ? (done, total) => bar?.update(done, total) : undefined });
    return { result, seconds: (Date.now() - started) / 1000, where: dispatcher?.where };
  } finally {
    bar?.stop();
    await dispatcher?.close();
  }
}

/** The Redis queue's dispatcher, its messages above the bar (`command`: the yaniv command they name). */
export async function redisDispatcher(
  url: string,
  jobGames: number | undefined,
  bar: BenchBar | null,
  command = 'bench',
): Promise<QueueDispatcher> {
  const { queueDispatcher } = await import('../agents/tournament/queue.js');
  return queueDispatcher({
    url,
    jobGames,
    log: (message) => (bar ? bar.log(message) : process.stderr.write(`yaniv ${command}: ${message}\n`)),
    onStatus: (status) => bar?.status(status),
  });
}

/** The progress bar: games, their rate, and the workers connected when they play through Redis. */
export class BenchBar {
  private readonly bar: SingleBar;
  private started = 0;
  private running = false;

  constructor(
    remote: boolean,
    private readonly command = 'bench',
  ) {
    const workers = remote ? ' | {workers} workers' : '';
    this.bar = new SingleBar({ format: `games {bar} {value}/{total} | {rate} games/s${workers} | ETA {eta_formatted}`, hideCursor: true });
  }

  update(done: number, total: number, workers: number | null = null): void {
    if (!this.running) {
      this.running = true;
      this.started = Date.now();
      this.bar.start(total, 0, { rate: '0', workers: '?' });
    }
    const rate = (done / Math.max(1e-3, (Date.now() - this.started) / 1000)).toFixed(0);
    this.bar.update(done, { rate, workers: workers === null ? '?' : String(workers) });
  }

  status(status: BenchStatus): void {
    this.update(status.played, status.total, status.workers);
  }

  log(message: string): void {
    process.stderr.write(`${this.running ? '\n' : ''}yaniv ${this.command}: ${message}\n`);
  }

  stop(): void {
    if (this.running) this.bar.stop();
  }
}
