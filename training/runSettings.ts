/**
 * The settings a run goes with: those given, or — on --resume — the checkpoint's, with what a resume
 * may change taken from the command line and the rest refused when it differs (the run's identity).
 */
import path from 'node:path';
import { resolveRules } from '../env/rules/rules.js';
import { type HyperParameters, type RunOptions, flagName } from './config.js';
import { type TrainerState, TrainSetupError, trainerStateSchema } from './learner.js';
import { type OpponentShare, parseOpponentMix } from './league.js';
import type { RunFolder } from './runFolder.js';

/** Run options that a resume may change (the others are the run's identity). */
const RESUMABLE_RUN_OPTIONS: readonly (keyof RunOptions)[] = [
  'episodes',
  'out',
  'resume',
  'opponents',
  'evalEvery',
  'evalGames',
  'valueEvalGames',
  'workers',
  'backend',
];

export interface GivenSettings {
  run: RunOptions;
  hyperParameters: HyperParameters;
  /** Which run options and hyper-parameters were given explicitly (a resume keeps the saved ones otherwise). */
  explicit: ReadonlySet<string>;
}

export interface RunSettings {
  run: RunOptions;
  hp: HyperParameters;
  mix: OpponentShare[];
  /** The checkpoint to resume from, with its saved state. */
  resume: { dir: string; saved: TrainerState } | null;
}

/** The settings of the run in `folder`; a TrainSetupError names what does not fit. */
export function resolveSettings(folder: RunFolder, given: GivenSettings): RunSettings {
  const existing = folder.findCheckpoint();
  if (!given.run.resume && existing !== null)
    throw new TrainSetupError(
      `${folder.root} already holds a run (${path.basename(existing)}/): pass --resume to continue it, or another --out`,
    );
  if (given.run.resume && existing === null) throw new TrainSetupError(`--resume: no checkpoint in ${folder.root}`);
  if (given.run.resume && given.run.initFrom !== null && given.explicit.has('initFrom'))
    throw new TrainSetupError('--init-from and --resume exclude each other');
  const saved = existing !== null ? folder.readTrainerState(existing, trainerStateSchema) : null;
  const { run, hyperParameters: hp } = saved ? resumeSettings(saved, given) : given;
  let mix;
  try {
    mix = parseOpponentMix(run.opponents);
    for (const players of run.players) resolveRules({ preset: run.preset, rules: run.rules, players });
  } catch (error) {
    throw new TrainSetupError((error as Error).message);
  }
  return { run, hp, mix, resume: existing !== null && saved !== null ? { dir: existing, saved } : null };
}

/** What the network's shape and inputs follow: fixed once it exists. */
const NETWORK_SHAPE: readonly (keyof HyperParameters)[] = ['hiddenUnits', 'activation', 'actionScoring', 'adviser'];

/** Reads a saved run and applies what a resume may change; refuses changes to the run's identity. */
function resumeSettings(saved: TrainerState, options: GivenSettings): { run: RunOptions; hyperParameters: HyperParameters } {
  const run = { ...saved.run };
  for (const key of Object.keys(options.run) as (keyof RunOptions)[]) {
    if (!options.explicit.has(key)) continue;
    if (RESUMABLE_RUN_OPTIONS.includes(key)) (run as Record<string, unknown>)[key] = options.run[key];
    else if (JSON.stringify(options.run[key]) !== JSON.stringify(saved.run[key])) {
      throw new TrainSetupError(
        `${flagName(key)} cannot change on --resume (the run has ${JSON.stringify(saved.run[key])}, given ${JSON.stringify(options.run[key])})`,
      );
    }
  }
  const hyperParameters = { ...saved.hyperParameters };
  for (const key of Object.keys(options.hyperParameters) as (keyof HyperParameters)[]) {
    if (!options.explicit.has(key)) continue;
    if (NETWORK_SHAPE.includes(key)) {
      if (JSON.stringify(options.hyperParameters[key]) !== JSON.stringify(saved.hyperParameters[key]))
        throw new TrainSetupError(`${flagName(key)} cannot change on --resume: the network exists`);
      continue;
    }
    (hyperParameters as Record<string, unknown>)[key] = options.hyperParameters[key];
  }
  return { run, hyperParameters };
}
