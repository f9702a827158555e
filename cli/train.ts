// `yaniv train`: self-play training (imitation warm start, then PPO against a league), with a
// progress bar, metrics.jsonl, checkpoints, --resume and Ctrl-C that saves first. Every
// hyper-parameter of training/config.ts is a flag, generated from its zod schema.
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { MultiBar, type SingleBar } from 'cli-progress';
import { z } from 'zod';
import { backendOption } from '../nn/backendChoice.js';
import { type RuleFlags, readRuleSelection, ruleOptions } from './ruleOptions.js';
import {
  DEFAULT_HYPER_PARAMETERS,
  type HyperParameters,
  type RunOptions,
  flagName,
  hyperParametersSchema,
  runOptionsSchema,
} from '../training/config.js';
import { stopOnSignal } from './stopSignal.js';

/** A flag's text as the value its field takes: lists of numbers, numbers, booleans, null ("null"/"none"), strings. */
function flagValue(text: string, sample: unknown): unknown {
  const t = text.trim();
  if (t === 'null' || t === 'none') return null;
  if (Array.isArray(sample)) return t.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
  if (typeof sample === 'number' || sample === null) return t === '' ? Number.NaN : Number(t);
  if (typeof sample === 'boolean') return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : t;
  return t;
}

function describeDefault(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** The issues of a zod parse as one message naming the flags. */
function flagIssues(error: z.ZodError, flagOf: (key: string) => string): string {
  return error.issues
    .map((issue) => {
      const key = String(issue.path[0] ?? '');
      return key ? `${flagOf(key)}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Reads commander's option values into the run options and hyper-parameters; bad values are InvalidArgumentError naming the flag. */
export function parseTrainFlags(raw: Record<string, unknown> & RuleFlags): { run: RunOptions; hyperParameters: HyperParameters } {
  const hpInput: Record<string, unknown> = {};
  for (const key of Object.keys(hyperParametersSchema.shape) as (keyof HyperParameters)[]) {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- commander hands these flags over as strings
    if (raw[key] !== undefined) hpInput[key] = flagValue(String(raw[key]), DEFAULT_HYPER_PARAMETERS[key]);
  }
  const hp = hyperParametersSchema.safeParse(hpInput);
  if (!hp.success) throw new InvalidArgumentError(flagIssues(hp.error, flagName));
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- commander hands these flags over as strings
  const number = (value: unknown) => (value === undefined ? undefined : flagValue(String(value), 0));
  const runInput = {
    episodes: number(raw.episodes),
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- commander hands these flags over as strings
    players: raw.players === undefined ? undefined : flagValue(String(raw.players), []),
    ...readRuleSelection(raw),
    episode: raw.episode,
    out: raw.out ?? path.join('runs', new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)),
    resume: raw.resume === true,
    initFrom: raw.initFrom ?? null,
    opponents: raw.opponents,
    evalEvery: number(raw.evalEvery),
    evalGames: number(raw.evalGames),
    seed: number(raw.seed),
    workers: number(raw.workers),
    backend: raw.backend,
  };
  const run = runOptionsSchema.safeParse(Object.fromEntries(Object.entries(runInput).filter(([, v]) => v !== undefined)));
  if (!run.success) throw new InvalidArgumentError(flagIssues(run.error, flagName));
  return { run: run.data, hyperParameters: hp.data };
}

export const TRAIN_DESCRIPTION = `Train a neural Yaniv agent by self-play: an imitation warm start on the teacher's decisions (strong), then PPO against a league (the latest network, past snapshots, heuristic bots).

An episode is one whole game (to the end set by the rules), or one round with --episode round; --episodes counts every episode the actors play, against every opponent of the mix.

The run folder (--out) gets checkpoint/ (resume with --resume), best/ (the best evaluated network; neural:DIR plays it), metrics.jsonl and curve.svg (yaniv plot DIR redraws it). Ctrl-C saves a checkpoint and stops.`;

export function trainCommand(): Command {
  const command = new Command('train')
    .description(TRAIN_DESCRIPTION)
    .option(
      '--episodes <n>',
      "episodes to play in all (with --resume: the new total, those already played included; default the run's own)",
    )
    .option('--players <list>', 'table sizes, e.g. 2 or 2,4: the games are split evenly, one network plays them all', '2');
  ruleOptions(command)
    .addOption(new Option('--episode <kind>', 'what an episode is: a whole game or one round').choices(['game', 'round']).default('game'))
    .option('--out <dir>', 'run folder (default runs/<time>)')
    .option('--resume', 'continue the run in --out from its last checkpoint (optimizer, counters, league, random state)')
    .option('--init-from <dir>', "start from this model's weights and architecture (skips imitation)")
    .option(
      '--opponents <mix>',
      'opponent mix, spec=weight pairs: self (every seat the learner), past (a past snapshot), or any agent spec',
      runOptionsSchema.shape.opponents.parse(undefined),
    )
    .option(
      '--eval-every <k>',
      'iterations between evaluations against intermediate and strong (0: at the end only)',
      String(runOptionsSchema.shape.evalEvery.parse(undefined)),
    )
    .option('--eval-games <g>', 'games per evaluation match-up (0: none)', String(runOptionsSchema.shape.evalGames.parse(undefined)))
    .option('--seed <s>', 'seed of the run', '1')
    .option('--workers <w>', "actor worker threads (0: in the learner's thread)", '1')
    .option('--no-progress', 'no progress bar (a line every 10 iterations instead)')
    .addOption(
      new Option('--redis <url>', 'learn over Redis: actors on any machine join with yaniv actor --redis URL --run ID (see README)').env(
        'REDIS_URL',
      ),
    )
    .addOption(backendOption());
  for (const [key, field] of Object.entries(hyperParametersSchema.shape)) {
    const value = DEFAULT_HYPER_PARAMETERS[key as keyof HyperParameters];
    command.addOption(
      new Option(`${flagName(key)} <value>`, `${field.description ?? ''} (default ${describeDefault(value)})`).argParser((text) => text),
    );
  }
  command.action(async (raw: Record<string, unknown> & RuleFlags, cmd: Command) => {
    if (raw.episodes === undefined && raw.resume !== true)
      throw new InvalidArgumentError('--episodes is required: how many episodes (games, or rounds with --episode round) to play');
    // A resume without --episodes keeps the run's own target (the placeholder is not explicit, so the saved value wins).
    const { run, hyperParameters } = parseTrainFlags({ ...raw, episodes: raw.episodes ?? '1' });
    const explicit = new Set<string>();
    for (const key of Object.keys(raw)) {
      if (cmd.getOptionValueSource(key) !== 'cli') continue;
      // Any rule flag states the whole rule selection (a --rule alone keeps the default preset).
      if (key === 'rules' || key === 'rule' || key === 'rulesFile') explicit.add('preset').add('rules');
      else explicit.add(key);
    }
    // tfjs and the trainer load only for this command.
    const { train } = await import('../training/trainer.js');
    const stop = stopOnSignal('yaniv train: stopping after this iteration (a checkpoint is written first); Ctrl-C again to quit at once');
    const tty = raw.progress !== false && process.stderr.isTTY;
    // A MultiBar of one bar, for its log() that prints above the bar.
    const bars = tty
      ? new MultiBar({
          format:
            'train {bar} {value}/{total} episodes | {eps} ep/s | {dps} decisions/s | {actors} actor(s) | {phase} loss {loss} | eval {evaluation} | ETA {eta_formatted}',
          hideCursor: true,
          etaBuffer: 20,
        })
      : null;
    let bar: SingleBar | null = null;
    let latestEvaluation = '–';
    let target = run.episodes;
    const log = (message: string) => (bars ? bars.log(message + '\n') : process.stderr.write(message + '\n'));
    const redis = typeof raw.redis === 'string' ? raw.redis : undefined;
    const transport = redis === undefined ? undefined : (await import('../training/redisRun.js')).redisTransportFactory(redis);
    const result = await train(
      { run, hyperParameters, explicit, commandLine: process.argv.slice(1), transport },
      {
        log,
        stopRequested: () => stop.requested,
        onStart: (info) => {
          target = Math.max(info.target, info.episodesDone);
          log(
            `yaniv train → ${info.out} (${info.backend}); ${info.episodesDone} of ${target} episodes done, iteration ${info.iteration}, ${info.phase}`,
          );
          bar =
            bars?.create(target, info.episodesDone, {
              eps: '–',
              dps: '–',
              actors: '–',
              loss: '–',
              phase: info.phase,
              evaluation: latestEvaluation,
            }) ?? null;
        },
        onIteration: (m) => {
          const values = {
            eps: m.episodesPerSecond.toFixed(2),
            dps: m.decisionsPerSecond.toFixed(0),
            actors: String(m.actors),
            loss: m.loss.toFixed(3),
            phase: m.phase,
            evaluation: latestEvaluation,
          };
          if (bar) bar.update(Math.min(m.episodes, target), values);
          else if (m.iteration % 10 === 0)
            log(
              `iteration ${m.iteration}: ${m.episodes}/${target} episodes, ${values.eps} ep/s, ${values.dps} decisions/s, ${m.actors} actor(s), ${m.phase} loss ${values.loss}, eval ${latestEvaluation}`,
            );
        },
        onEvaluation: (e) => {
          latestEvaluation = e.results
            .map((r) => `${r.key} ${(100 * r.winRate).toFixed(0)}% (${(100 * r.low).toFixed(0)}–${(100 * r.high).toFixed(0)})`)
            .join(', ');
          log(`evaluation at iteration ${e.iteration} (${e.episodes} episodes): ${latestEvaluation}`);
        },
      },
    );
    bars?.stop();
    stop.release();
    process.stderr.write(
      `${result.stopped ? 'stopped' : 'finished'} at ${result.state.episodes} episodes; resume with: yaniv train --resume --out ${run.out} --episodes N\n`,
    );
  });
  return command;
}

export function plotCommand(): Command {
  return new Command('plot')
    .description("Redraw a training run's learning curve (DIR/curve.svg) from DIR/metrics.jsonl")
    .argument('<dir>', 'the run folder')
    .option('--out <file>', 'write the SVG here instead')
    .action(async (dir: string, options: { out?: string }) => {
      const { METRICS_FILE, writeCurve } = await import('../training/curve.js');
      const { existsSync } = await import('node:fs');
      if (!existsSync(path.join(dir, METRICS_FILE)))
        throw new InvalidArgumentError(`${dir} has no ${METRICS_FILE}: not a training run folder`);
      console.log(await writeCurve(dir, options.out));
    });
}
