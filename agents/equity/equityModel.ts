/**
 * Measures what the game equity is solved from (env/gym/equity.ts): heads-up rounds played by an
 * agent at both seats from sampled totals, whole games at 3–8 seats from sampled totals (what the
 * learned equity is fitted to), and games played out from fixed totals to check an equity
 * against. Seat 0 starts every measured heads-up round (a fresh game's first round).
 */
import { Episode, parseEnvOptions } from '../../env/gym/episode.js';
import { Table } from '../../env/gym/table.js';
import type { Agent } from '../../env/gym/agent.js';
import { EQUITY_FORMAT, type HeadsUpEquityData, ROLES, type Role, type RoundOutcomeModel } from '../../env/gym/equityData.js';
import { milestoneGaps } from '../../env/gym/milestones.js';
import { randomInt, seededRng } from '../../env/rules/random.js';
import type { RoundResult } from '../../env/rules/state.js';
import { mixSeed } from '../../env/rules/random.js';

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

/** Turns after which a measured round or game is abandoned (rounds last ~12 turns a seat; a stalled one is left out). */
const TURN_CAP = { round: 2000, game: 200_000 } as const;

function tableFor(preset: string, overrides: Record<string, unknown>, episode: 'round' | 'game', players = 2): Table {
  const config = parseEnvOptions({ preset, rules: overrides, players, episode, maxTurns: TURN_CAP[episode], history: false });
  return new Table(new Episode(config));
}

/** Plays `rounds` heads-up rounds from totals drawn uniformly from 0..eliminationLimit and counts their outcomes. */
export function measureRoundModel(options: MeasureOptions): HeadsUpEquityData {
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
  /** Games each seat won. */
  readonly winsBySeat: readonly number[];
}

/** Plays `games` whole games from these totals (one per seat), seat 0 starting the first round, and counts each seat's wins. */
export function playFromSpot(
  preset: string,
  overrides: Record<string, unknown>,
  agents: readonly Agent[],
  totals: readonly number[],
  games: number,
  seed: number,
): SpotResult {
  const table = tableFor(preset, overrides, 'game', agents.length);
  const winsBySeat = agents.map(() => 0);
  let finished = 0;
  for (let i = 0; i < games; i++) {
    agents.forEach((agent, seat) => agent.reset(mixSeed(seed, i, seat + 1)));
    table.reset({ seed: mixSeed(seed, i), startTotals: totals });
    table.play(agents);
    const winner = table.episode.state.winner;
    if (winner < 0) continue;
    finished++;
    winsBySeat[winner]++;
  }
  return { games: finished, wins: winsBySeat[0], winsBySeat };
}

/** A table between rounds of a measured game, and who won that game. */
export interface SeatState {
  readonly totals: readonly number[];
  readonly active: readonly boolean[];
  /** The seat that starts the next round. */
  readonly starter: number;
  readonly winner: number;
}

export interface SeatGamesOptions {
  preset: string;
  overrides: Record<string, unknown>;
  /** One agent per seat. */
  agents: readonly Agent[];
  games: number;
  seed: number;
  onProgress?: (done: number) => void;
}

/** A game in this many is a fresh one (every total 0); the others start from totals drawn uniformly from 0..eliminationLimit. */
const FRESH_GAME_EVERY = 4;

/**
 * Plays `games` whole games at `agents.length` seats and records every table between rounds
 * (the start included) with the game's winner: what the learned equity is fitted to.
 */
export function measureSeatStates(options: SeatGamesOptions): SeatState[] {
  const { preset, overrides, agents, games, seed } = options;
  const table = tableFor(preset, overrides, 'game', agents.length);
  const limit = table.episode.rules.eliminationLimit;
  const rng = seededRng(seed);
  const states: SeatState[] = [];
  for (let i = 0; i < games; i++) {
    const totals = agents.map(() => (i % FRESH_GAME_EVERY === 0 ? 0 : randomInt(rng, 0, limit)));
    agents.forEach((agent, seat) => agent.reset(mixSeed(seed, i, seat + 1)));
    table.reset({ seed: mixSeed(seed, i), startTotals: totals });
    const s = table.episode.state;
    const game: Omit<SeatState, 'winner'>[] = [];
    const snapshot = () => game.push({ totals: Array.from(s.totals), active: Array.from(s.active, (a) => a === 1), starter: s.starter });
    snapshot();
    table.play(agents, () => {
      if (table.episode.roundResult && s.winner < 0) snapshot();
    });
    options.onProgress?.(i + 1);
    if (s.winner < 0) continue;
    for (const state of game) states.push({ ...state, winner: s.winner });
  }
  return states;
}
