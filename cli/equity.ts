// `yaniv equity`: measures what the game equity is made from with an agent at every seat, writes
// it as data and prints P(win) at a few spots; `--check N` also plays N games from each spot to
// compare. Heads-up: the round-outcome model, solved exactly. 3–8 seats: whole games from sampled
// totals, fitted by the learned predictor.
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { modelLines, seatAgents } from '../agents/resolve.js';
import { solveEquityData } from '../agents/equity/equity.js';
import { fitSeatPredictor } from '../agents/equity/equityFit.js';
import { measureRoundModel, measureSeatStates, playFromSpot } from '../agents/equity/equityModel.js';
import { EQUITY_FORMAT, type EquityData, type SeatsEquityData } from '../env/gym/equityData.js';
import { type GameEquity, seatEquities } from '../env/gym/equity.js';
import { checkSolvable } from '../env/gym/headsUpEquity.js';
import type { Agent } from '../env/gym/agent.js';
import { mixSeed } from '../env/rules/random.js';
import { type RuleChoice, resolveRules } from '../env/rules/rules.js';
import { schemaFlags } from '../support/schemaFlags.js';
import { EQUITY_FLAGS, type EquityOptions, equityOptionsSchema } from '../agents/equity/equityOptions.js';
import { type RuleFlags, describeRuleChoice, readRuleSelection, ruleOptions } from './ruleOptions.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues } from './schemaOptions.js';

/** The spots printed (and checked with --check): seat 0's total (it starts) / every other seat's. */
export const EQUITY_SPOTS: readonly (readonly [number, number])[] = [
  [0, 0],
  [45, 20],
  [20, 45],
  [95, 60],
  [101, 101],
  [150, 150],
  [190, 100],
  [99, 180],
  [180, 180],
];

const FLAGS = schemaFlags(equityOptionsSchema, EQUITY_FLAGS);

/** Heads-up: rounds from sampled totals, counted into the round model the equity is solved from. */
function measureHeadsUp(flags: EquityOptions, choice: RuleChoice, agents: Agent[], seed: number): EquityData {
  const rounds = flags.rounds;
  const data = measureRoundModel({
    preset: choice.preset,
    overrides: choice.rules,
    agents: [agents[0], agents[1]],
    agentSpec: flags.agent,
    rounds,
    seed,
    onProgress: (done) => {
      if (done % 5000 === 0) process.stderr.write(`${done}/${rounds} rounds\n`);
    },
  });
  console.log(`${data.model.rounds} rounds of ${flags.agent} at both seats (${describeRuleChoice(choice)})`);
  return data;
}

/** 3–8 seats: games from sampled totals, every table between rounds fitted by the learned predictor. */
function measureSeats(flags: EquityOptions, choice: RuleChoice, agents: Agent[], seed: number): SeatsEquityData {
  const games = flags.games;
  const states = measureSeatStates({
    preset: choice.preset,
    overrides: choice.rules,
    agents,
    games,
    seed,
    onProgress: (done) => {
      if (done % 500 === 0) process.stderr.write(`${done}/${games} games\n`);
    },
  });
  const rules = resolveRules({ preset: choice.preset, rules: choice.rules, players: agents.length });
  const { predictor, report } = fitSeatPredictor(rules, agents.length, states);
  console.log(
    `${games} games of ${flags.agent} at ${agents.length} seats (${describeRuleChoice(choice)}): ${states.length} tables between rounds`,
  );
  for (const [n, r] of Object.entries(report.byActive))
    console.log(
      `  ${n} seats in: ${r.states} tables; winner cross-entropy ${r.train.toFixed(4)} fitted, ${r.holdout.toFixed(4)} held out, ${r.uniform.toFixed(4)} uniform`,
    );
  return {
    format: EQUITY_FORMAT,
    preset: choice.preset,
    overrides: choice.rules,
    players: agents.length,
    agent: flags.agent,
    games,
    states: states.length,
    predictor,
  };
}

function printSpots(equity: GameEquity, choice: RuleChoice, agents: Agent[], check: number, seed: number): void {
  const players = agents.length;
  for (const [index, [a, b]] of EQUITY_SPOTS.entries()) {
    if (a > equity.rules.eliminationLimit || b > equity.rules.eliminationLimit) continue;
    const totals = [a, ...Array<number>(players - 1).fill(b)];
    const p = seatEquities(
      equity,
      totals,
      totals.map(() => true),
      0,
    )[0];
    let line = `seat 0 (starts) ${a} / others ${b}: P(seat 0 wins) = ${p.toFixed(3)}`;
    if (check > 0) {
      // Each spot its own deals: with the same deals at every spot their errors are correlated,
      // and a mean over the spots looks like a bias when it is shared noise.
      const spot = playFromSpot(choice.preset, choice.rules, agents, totals, check, mixSeed(seed + 1, index));
      const played = spot.wins / spot.games;
      line += `; played ${played.toFixed(3)} ± ${(1.96 * Math.sqrt((played * (1 - played)) / spot.games)).toFixed(3)} (${spot.games} games)`;
    }
    console.log(line);
  }
}

export function equityCommand(): Command {
  const command = new Command('equity').description(
    'Measure what the game equity is made from with an agent at every seat (heads-up: round outcomes from sampled totals, solved exactly; 3–8 seats: whole games from sampled totals, fitted by a small learned predictor), write the data file and print P(win) at a few spots',
  );
  return ruleOptions(addSchemaOptions(command, FLAGS)).action(async (ruleFlags: RuleFlags, cmd: Command) => {
    const flags = readSchemaOptions(equityOptionsSchema, FLAGS, schemaOptionValues(cmd, FLAGS));
    const { players, seed, check } = flags;
    const choice = readRuleSelection(ruleFlags, players);
    // Refused before any round is simulated, not after.
    if (players === 2) checkSolvable(resolveRules({ ...choice, players }));
    // The agent as it plays at this table (plain neural: the catalog's model for these rules and seats).
    const { resolved, agents } = await seatAgents(flags.agent, { ...choice, players }, players);
    for (const line of modelLines([resolved])) process.stderr.write(`yaniv equity: ${line}\n`);
    const started = Date.now();
    const data = players === 2 ? measureHeadsUp(flags, choice, agents, seed) : measureSeats(flags, choice, agents, seed);
    const measured = (Date.now() - started) / 1000;
    const solveStart = Date.now();
    const equity = solveEquityData(data);
    console.log(`measured in ${measured.toFixed(1)} s; solved in ${((Date.now() - solveStart) / 1000).toFixed(2)} s`);
    if (flags.out) writeFileSync(flags.out, JSON.stringify(data) + '\n');
    printSpots(equity, choice, agents, check, seed);
  });
}
