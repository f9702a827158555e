// `yaniv calibrate`: how honest the advisor's chance to win is (agents/equity/calibration.ts): whole
// games of an agent at every seat, the chance the advice shows at one decision a round, and the
// share of those positions won, per decile of the chance shown, at each table size asked; a
// table, JSON and a reliability diagram (vega-lite SVG). The chance is the one shown, through the
// table's shipped calibration map where one ships (the chance before it reported beside); --fit
// fits a map to the chances before it (agents/equity/calibrationMap.ts) and writes it for each size.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { CALIBRATION_TARGET, type Decile, measureShownChances, reliability, worstGap } from '../agents/equity/calibration.js';
import { type SizeCalibration, reliabilitySpec } from '../agents/equity/calibrationChecks.js';
import { CALIBRATION_FORMAT, CalibrationError, type CalibrationMap, MIN_BLOCK, fitIsotonic } from '../agents/equity/calibrationMap.js';
import { OUTLOOK_DEFAULTS } from '../agents/equity/moveOutlook.js';
import { agentSpecSchema } from '../agents/registry.js';
import { modelLines, seatAgents } from '../agents/resolve.js';
import { MAX_PLAYERS, MIN_PLAYERS } from '../env/rules/rules.js';
import { type FlagSpecs, schemaFlags } from '../support/schemaFlags.js';
import { renderVegaLite } from '../support/vegaSvg.js';
import { intFrom } from '../support/zod.js';
import { type RuleFlags, describeRuleChoice, readRuleSelection, ruleOptions } from './ruleOptions.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues } from './schemaOptions.js';

export const calibrateOptionsSchema = z.strictObject({
  players: z
    .array(intFrom(MIN_PLAYERS, MAX_PLAYERS))
    .min(1)
    .default([2, 4])
    .describe('Comma-separated table sizes, each measured on its own.'),
  agent: agentSpecSchema.default('strong').describe('The agent at every seat.'),
  games: intFrom(1).default(1000).describe('Games per table size.'),
  worlds: intFrom(1).default(OUTLOOK_DEFAULTS.worlds).describe('Worlds each shown chance is played out in (the advice’s budget).'),
  seed: intFrom(-(2 ** 31), 2 ** 31 - 1)
    .default(1)
    .describe('The same seed gives the same result.'),
  json: z.string().min(1).optional().describe('Write the figures as JSON to this file.'),
  chart: z.string().min(1).optional().describe('Write the reliability diagram (SVG) to this file.'),
  fit: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Fit a calibration map to the chances before any map and write it to this folder as PRESET-PLAYERS.json (ship it in models/equity/calibration).',
    ),
});

const CALIBRATE_FLAGS: FlagSpecs<typeof calibrateOptionsSchema.shape> = {
  players: { value: '<list>' },
  agent: { value: '<spec>' },
  json: { value: '<file>' },
  chart: { value: '<file>' },
  fit: { value: '<folder>' },
};
const FLAGS = schemaFlags(calibrateOptionsSchema, CALIBRATE_FLAGS);

/** Whether a decile meets the target, or why it is not held to it. */
export function verdict(d: Decile): string {
  const target = CALIBRATION_TARGET * 100;
  if (!d.judged) return `not judged (interval ±${(((d.actualHigh - d.actualLow) / 2) * 100).toFixed(1)} > ±${target})`;
  return Math.abs(d.actual - d.predicted) * 100 <= target ? `within ±${target}` : 'MISSES';
}

function formatSize(size: SizeCalibration): string {
  const rows = size.deciles.map((d) => {
    const gap = (d.actual - d.predicted) * 100;
    const judged = verdict(d);
    return `  ${(d.low * 100).toFixed(0).padStart(3)}–${(d.high * 100).toFixed(0).padEnd(3)}% ${String(d.positions).padStart(6)} (≈${String(Math.round(d.effectivePositions)).padStart(5)})  shown ${(d.predicted * 100).toFixed(1).padStart(5)}%  won ${(d.actual * 100).toFixed(1).padStart(5)}% (${(d.actualLow * 100).toFixed(1)}–${(d.actualHigh * 100).toFixed(1)})  ${gap >= 0 ? '+' : ''}${gap.toFixed(1)}  ${judged}`;
  });
  const map = size.unmapped
    ? `, shown through the calibration map fitted on ${size.unmapped.map.games} games of seed ${size.unmapped.map.seed} (worst gap before it ${(size.unmapped.worstGap * 100).toFixed(1)} points)`
    : ', no calibration map ships';
  return [`${size.players} players: ${size.positions} positions from ${size.games} games${map}`, ...rows].join('\n');
}

/** Writes the calibration map fitted to the chances before any map: FOLDER/PRESET-PLAYERS.json. */
function writeFit(
  folder: string,
  run: { preset: string; players: number; agent: string; games: number; seed: number; worlds: number },
  positions: readonly { raw: number; won: boolean }[],
): void {
  const map: CalibrationMap = {
    format: CALIBRATION_FORMAT,
    preset: run.preset,
    players: run.players,
    agent: run.agent,
    games: run.games,
    seed: run.seed,
    worlds: run.worlds,
    positions: positions.length,
    knots: fitIsotonic(positions, MIN_BLOCK),
  };
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${run.preset}-${run.players}.json`);
  writeFileSync(file, JSON.stringify(map) + '\n');
  console.log(`wrote ${file}: ${map.knots.length} knots from ${map.positions} positions`);
}

export function calibrateCommand(): Command {
  const command = new Command('calibrate').description(
    "Check the advisor's chance to win against outcomes: games of one agent at every seat, the chance the advice shows at one decision a round, per decile the share won (a reliability diagram)",
  );
  return ruleOptions(addSchemaOptions(command, FLAGS)).action(async (ruleFlags: RuleFlags, cmd: Command) => {
    const options = readSchemaOptions(calibrateOptionsSchema, FLAGS, schemaOptionValues(cmd, FLAGS));
    const sizes: SizeCalibration[] = [];
    let choice = readRuleSelection(ruleFlags);
    if (options.fit && Object.keys(choice.rules).length > 0)
      throw new CalibrationError(
        '--fit fits a map for a preset as it stands (the advice maps only shipped equities): drop the rule overrides',
      );
    const started = performance.now();
    for (const players of options.players) {
      choice = readRuleSelection(ruleFlags, players);
      // The agent as it plays at this table (plain neural: the catalog's model for these rules and seats).
      const { resolved, agents } = await seatAgents(options.agent, { ...choice, players }, players);
      for (const line of modelLines([resolved])) process.stderr.write(`yaniv calibrate: ${line}\n`);
      const { positions, calibration } = measureShownChances({
        ...choice,
        players,
        agents,
        games: options.games,
        seed: options.seed,
        budget: { worlds: options.worlds },
        onProgress: (done) => {
          if (done % 100 === 0) process.stderr.write(`${players} players: ${done}/${options.games} games\n`);
        },
      });
      const deciles = reliability(positions);
      const games = new Set(positions.map((s) => s.game)).size;
      const raw = positions.map((p) => ({ shown: p.raw, won: p.won, game: p.game }));
      const rawDeciles = calibration ? reliability(raw) : [];
      const unmapped = calibration
        ? (({ knots: _knots, ...map }) => ({ deciles: rawDeciles, worstGap: worstGap(rawDeciles), map }))(calibration)
        : undefined;
      sizes.push({ players, positions: positions.length, games, deciles, worstGap: worstGap(deciles), unmapped });
      if (options.fit)
        writeFit(options.fit, { ...choice, players, agent: options.agent, games, seed: options.seed, worlds: options.worlds }, positions);
      console.log(formatSize(sizes[sizes.length - 1]) + '\n');
    }
    const seconds = (performance.now() - started) / 1000;
    const title = `yaniv calibrate: ${options.agent} at every seat, ${describeRuleChoice(choice)}, ${options.games} games a size, ${options.worlds} worlds, seed ${options.seed}`;
    console.log(`${title} (${seconds.toFixed(0)} s)`);
    if (options.chart) writeFileSync(options.chart, await renderVegaLite(reliabilitySpec(sizes, title)));
    if (options.json) writeFileSync(options.json, JSON.stringify({ config: { ...options, ...choice }, sizes, seconds }, null, 2) + '\n');
  });
}
