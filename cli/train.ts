// `yaniv train`: self-play training (imitation warm start, then PPO against a league), with a
// progress bar, metrics.jsonl, checkpoints, --resume and Ctrl-C that saves first. Every
// hyper-parameter of training/config.ts is a flag, generated from its zod schema.
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { MultiBar, type SingleBar } from 'cli-progress';
import { type RuleFlags, readRuleSelection, ruleOptions } from './ruleOptions.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues, schemaOptionsGiven } from './schemaOptions.js';
import {
  type HyperParameters,
  type RunOptions,
  TRAIN_FLAGS,
  hyperParametersSchema,
  runOptionsSchema,
  trainSessionSchema,
} from '../training/config.js';
import { stopOnSignal } from './stopSignal.js';
import type { TrainHooks } from '../training/trainer.js';

/** The run options and hyper-parameters the flags give (by field name); a bad value is InvalidArgumentError naming the flag. */
export function parseTrainFlags(values: Record<string, unknown>, rules: RuleFlags): { run: RunOptions; hyperParameters: HyperParameters } {
  const hyperParameters = readSchemaOptions(hyperParametersSchema, TRAIN_FLAGS.hyperParameters, values);
  const run = readSchemaOptions(runOptionsSchema, TRAIN_FLAGS.run, {
    ...values,
    ...readRuleSelection(rules),
    out: values.out ?? path.join('runs', new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)),
  });
  return { run, hyperParameters };
}

export const TRAIN_DESCRIPTION = `Train a neural Yaniv agent by self-play: an imitation warm start on the teacher's decisions (strong), then PPO against a league (the latest network, past snapshots, heuristic bots).

An episode is one whole game (to the end set by the rules), or one round with --episode round; --episodes counts every episode the actors play, against every opponent of the mix.

The run folder (--out) gets checkpoint/ (resume with --resume), best/ (the best evaluated network; neural:DIR plays it), metrics.jsonl and curve.svg (yaniv plot DIR redraws it). Ctrl-C saves a checkpoint and stops.`;

const ALL_FLAGS = [...TRAIN_FLAGS.run, ...TRAIN_FLAGS.session, ...TRAIN_FLAGS.hyperParameters];

const STOPPING =
  'yaniv train: stopping (the iteration under way is finished if its batch is in, else dropped; a checkpoint is written); Ctrl-C again to quit at once';

/**
 * What `yaniv train` shows while it runs: a progress bar on a terminal (its log lines printed
 * above it), else a line every ten iterations; each evaluation's win rates in both.
 */
function trainProgress(tty: boolean, episodes: number) {
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
  let target = episodes;
  const log = (message: string) => (bars ? bars.log(message + '\n') : process.stderr.write(message + '\n'));
  const hooks: Pick<TrainHooks, 'log' | 'onStart' | 'onIteration' | 'onEvaluation'> = {
    log,
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
  };
  return { hooks, stop: () => bars?.stop() };
}

export function trainCommand(): Command {
  const command = new Command('train').description(TRAIN_DESCRIPTION);
  ruleOptions(addSchemaOptions(command, ALL_FLAGS));
  command.action(async (rules: RuleFlags, cmd: Command) => {
    const values = schemaOptionValues(cmd, ALL_FLAGS);
    if (values.episodes === undefined && values.resume !== true)
      throw new InvalidArgumentError('--episodes is required: how many episodes (games, or rounds with --episode round) to play');
    // A resume without --episodes keeps the run's own target (the placeholder is not explicit, so the saved value wins).
    const { run, hyperParameters } = parseTrainFlags({ ...values, episodes: values.episodes ?? '1' }, rules);
    const session = readSchemaOptions(trainSessionSchema, TRAIN_FLAGS.session, values);
    const explicit = schemaOptionsGiven(cmd, ALL_FLAGS);
    // Any rule flag states the whole rule selection (a --rule alone keeps the default preset).
    if (['rules', 'rule', 'rulesFile'].some((key) => cmd.getOptionValueSource(key) === 'cli')) explicit.add('preset').add('rules');
    // tfjs and the trainer load only for this command.
    const { train } = await import('../training/trainer.js');
    const stop = stopOnSignal(STOPPING);
    const progress = trainProgress(session.progress && process.stderr.isTTY, run.episodes);
    const transport =
      session.redis === undefined ? undefined : (await import('../training/redisRun.js')).redisTransportFactory(session.redis);
    const result = await train(
      { run, hyperParameters, explicit, commandLine: process.argv.slice(1), transport },
      { ...progress.hooks, stopRequested: () => stop.requested, stopSignal: stop.signal },
    );
    progress.stop();
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

export function averageModelsCommand(): Command {
  return new Command('average-models')
    .description(
      'Average the weights of trained models of one network, rules and adviser (a model soup); the first folder is the base whose training record the average keeps',
    )
    .argument('<dirs...>', 'two or more model folders or training runs (their best/ or checkpoint/)')
    .requiredOption('--out <dir>', 'the folder to write the averaged model to')
    .action(async (dirs: string[], options: { out: string }) => {
      const { averageModels } = await import('../training/averageModels.js');
      const read = await averageModels(dirs, options.out, process.argv.slice(1));
      console.log(`averaged ${read.join(', ')} into ${options.out}`);
    });
}
