// `yaniv equity`: measures the round-outcome model that the game equity is solved from (an agent at
// both seats of simulated heads-up rounds), writes it as data, solves it and prints P(win) at a few
// spots; `--check N` also plays N games from each spot to compare.
import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createAgent } from '../agents/registry.js';
import { equityRules, measureRoundModel, playFromSpot } from '../agents/equityModel.js';
import { solveHeadsUpEquity } from '../env/gym/equity.js';
import type { Agent } from '../env/gym/agent.js';
import { type RuleFlags, describeRuleChoice, readRuleSelection, ruleOptions } from './ruleOptions.js';

/** The spots printed (and checked with --check): the starter's total / the other's. */
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

interface EquityFlags extends RuleFlags {
  players: string;
  agent: string;
  rounds: string;
  seed: string;
  out?: string;
  check: string;
}

function wholeNumber(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min)
    throw new InvalidArgumentError(`${flag} must be a whole number ≥ ${min} (got ${JSON.stringify(text)})`);
  return n;
}

export function equityCommand(): Command {
  const command = new Command('equity')
    .description(
      'Measure the round outcomes an agent plays at both seats (heads-up rounds from sampled totals), solve the game equity (P(win) by both totals and the starter) and write the data file',
    )
    .addOption(new Option('--players <n>', 'seats (only 2 today)').default('2'));
  return ruleOptions(command)
    .addOption(new Option('--agent <spec>', 'the agent at both seats').default('strong'))
    .addOption(new Option('--rounds <n>', 'rounds to simulate').default('40000'))
    .addOption(new Option('--seed <n>', 'seed').default('1'))
    .option('--out <file>', 'write the equity data (JSON) here')
    .addOption(new Option('--check <games>', 'also play this many games from each printed spot').default('0'))
    .action(async (flags: EquityFlags) => {
      const players = wholeNumber('--players', flags.players, 2);
      if (players !== 2) throw new InvalidArgumentError(`--players ${players}: the game equity is solved heads-up only (--players 2)`);
      const rounds = wholeNumber('--rounds', flags.rounds, 1);
      const seed = wholeNumber('--seed', flags.seed, 0);
      const check = wholeNumber('--check', flags.check, 0);
      const choice = readRuleSelection(flags, players);
      const agents: [Agent, Agent] = [await createAgent(flags.agent), await createAgent(flags.agent)];
      const started = Date.now();
      const data = measureRoundModel({
        preset: choice.preset,
        overrides: choice.rules,
        agents,
        agentSpec: flags.agent,
        rounds,
        seed,
        onProgress: (done) => {
          if (done % 5000 === 0) process.stderr.write(`${done}/${rounds} rounds\n`);
        },
      });
      const measured = (Date.now() - started) / 1000;
      const solveStart = Date.now();
      const equity = solveHeadsUpEquity(equityRules(data), data.model);
      const solved = (Date.now() - solveStart) / 1000;
      console.log(
        `${data.model.rounds} rounds of ${flags.agent} vs ${flags.agent} (${describeRuleChoice(choice)}) in ${measured.toFixed(1)} s; solved in ${solved.toFixed(2)} s (${equity.sweeps} sweeps)`,
      );
      if (flags.out) writeFileSync(flags.out, JSON.stringify(data) + '\n');
      for (const [a, b] of EQUITY_SPOTS) {
        if (a > equity.rules.eliminationLimit || b > equity.rules.eliminationLimit) continue;
        let line = `starter ${a} / other ${b}: P(starter wins) = ${equity.win(a, b, true).toFixed(3)}`;
        if (check > 0) {
          const spot = playFromSpot(choice.preset, choice.rules, agents, [a, b], check, seed + 1);
          const p = spot.wins / spot.games;
          line += `; played ${p.toFixed(3)} ± ${(1.96 * Math.sqrt((p * (1 - p)) / spot.games)).toFixed(3)} (${spot.games} games)`;
        }
        console.log(line);
      }
    });
}
