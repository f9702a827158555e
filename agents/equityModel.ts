/**
 * Measures what the game equity is solved from (env/gym/equity.ts): heads-up rounds played by an
 * agent at both seats from sampled totals, and games played out from fixed totals to check the
 * solved equity against. Seat 0 starts every measured round (a fresh game's first round).
 */
import { Episode, parseEnvOptions } from '../env/gym/episode.js';
import { Table } from '../env/gym/table.js';
import type { Agent } from '../env/gym/agent.js';
import { EQUITY_FORMAT, type EquityData, ROLES, type Role, type RoundOutcomeModel, milestoneGaps } from '../env/gym/equity.js';
import { type Rules, resolveRules } from '../env/rules/rules.js';
import { randomInt, seededRng } from '../env/rules/random.js';
import type { RoundResult } from '../env/rules/state.js';
import { mixSeed } from './tournament/seeds.js';

export interface MeasureOptions {
  preset: string;
  overrides: Record<string, unknown>;
  /** One agent per seat (the same spec twice: two instances). */
  agents: readonly [Agent, Agent];
  /** The spec the agents were made from, for the data file. */
  agentSpec: string;
  rounds: number;
  seed: number;
  onProgress?: (done: number) => void;
}

/** Turns after which a measured round is abandoned (rounds last ~12 turns; a stalled one is left out). */
const ROUND_TURN_CAP = 2000;

function tableFor(preset: string, overrides: Record<string, unknown>, episode: 'round' | 'game'): Table {
  const config = parseEnvOptions({ preset, rules: overrides, players: 2, episode, maxTurns: ROUND_TURN_CAP, history: false });
  return new Table(new Episode(config));
}

/** Plays `rounds` heads-up rounds from totals drawn uniformly from 0..eliminationLimit and counts their outcomes. */
export function measureRoundModel(options: MeasureOptions): EquityData {
  const { preset, overrides, agents, rounds, seed } = options;
  const table = tableFor(preset, overrides, 'round');
  const rules = table.episode.rules;
  const rng = seededRng(seed);
  const counts = new Map<string, number>();
  const tally = (): Record<Role, Map<number, [number, number]>> => ({ starter: new Map(), other: new Map() });
  const landing = tally();
  const scored = tally();
  let played = 0;
  for (let i = 0; i < rounds; i++) {
    const totals = [randomInt(rng, 0, rules.eliminationLimit), randomInt(rng, 0, rules.eliminationLimit)];
    const result = playRound(table, agents, totals, mixSeed(seed, i));
    options.onProgress?.(i + 1);
    if (!result) continue;
    played++;
    const points = [result.points[0] as number, result.points[1] as number];
    const key = `${points[0]},${points[1]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    ROLES.forEach((role, seat) => {
      count(scored[role], points[seat], true, true);
      for (const gap of milestoneGaps(rules, totals[seat])) count(landing[role], gap, points[seat] === gap, true);
    });
  }
  const model: RoundOutcomeModel = {
    rounds: played,
    outcomes: [...counts].map(([key, n]) => {
      const [starter, other] = key.split(',').map(Number);
      return [starter, other, n] as const;
    }),
    landing: { starter: Object.fromEntries(landing.starter), other: Object.fromEntries(landing.other) },
    scored: { starter: scoredRates(scored.starter, played), other: scoredRates(scored.other, played) },
  };
  return { format: EQUITY_FORMAT, preset, overrides, players: 2, agent: options.agentSpec, model };
}

function count(map: Map<number, [number, number]>, key: number, hit: boolean, trial: boolean): void {
  const pair = map.get(key) ?? [0, 0];
  if (hit) pair[0]++;
  if (trial) pair[1]++;
  map.set(key, pair);
}

/** [rounds the seat scored exactly p, rounds] for each p scored. */
function scoredRates(map: Map<number, [number, number]>, rounds: number): Record<string, [number, number]> {
  return Object.fromEntries([...map].map(([p, [hits]]) => [p, [hits, rounds]]));
}

/** One round from these totals, seat 0 starting; null if it stalled past the turn cap. */
function playRound(table: Table, agents: readonly Agent[], totals: readonly number[], seed: number): RoundResult | null {
  agents.forEach((agent, seat) => agent.reset(mixSeed(seed, seat + 1)));
  table.reset({ seed, startTotals: totals });
  table.play(agents);
  return table.episode.roundResult ?? null;
}

export interface SpotResult {
  readonly games: number;
  /** Games seat 0 (the first round's starter) won. */
  readonly wins: number;
}

/** Plays `games` whole games from these totals, seat 0 starting the first round, and counts seat 0's wins. */
export function playFromSpot(
  preset: string,
  overrides: Record<string, unknown>,
  agents: readonly [Agent, Agent],
  totals: readonly [number, number],
  games: number,
  seed: number,
): SpotResult {
  const table = tableFor(preset, overrides, 'game');
  let wins = 0;
  let finished = 0;
  for (let i = 0; i < games; i++) {
    agents.forEach((agent, seat) => agent.reset(mixSeed(seed, i, seat + 1)));
    table.reset({ seed: mixSeed(seed, i), startTotals: totals });
    table.play(agents);
    const winner = table.episode.state.winner;
    if (winner < 0) continue;
    finished++;
    if (winner === 0) wins++;
  }
  return { games: finished, wins };
}

/** The rules an equity data file was measured under, for two seats. */
export function equityRules(data: EquityData): Rules {
  return resolveRules({ preset: data.preset, rules: data.overrides, players: data.players });
}
