import { type Rng, seededRng, shuffleInPlace } from '../../env/rules/random.js';

/**
 * Who sits where in each game. Every lineup (the agents at one table) is played on the same
 * shuffled deals under every distinct rotation of its seats (duplicate deals), so each agent
 * holds each seat's cards equally often and the luck of the deal cancels.
 */

export interface ScheduledGame {
  /** Position in the schedule; results are aggregated in this order. */
  readonly index: number;
  /** The agent name at each seat. */
  readonly seats: readonly string[];
  /** Index of the deal sequence this game uses (shared by the rotations of one lineup). */
  readonly deal: number;
}

/** The tables to play: with no more agents than seats one table (agents repeat round the table), else every choice of `players` agents. */
export function lineups(agents: readonly string[], players: number): string[][] {
  if (agents.length <= players) return [Array.from({ length: players }, (_, seat) => agents[seat % agents.length])];
  const tables: string[][] = [];
  const choose = (start: number, chosen: string[]) => {
    if (chosen.length === players) {
      tables.push(chosen);
      return;
    }
    for (let i = start; i < agents.length; i++) choose(i + 1, [...chosen, agents[i]]);
  };
  choose(0, []);
  return tables;
}

/** The distinct rotations of a lineup's seats. */
export function rotations(lineup: readonly string[]): string[][] {
  const seen = new Set<string>();
  const result: string[][] = [];
  for (let r = 0; r < lineup.length; r++) {
    const rotated = lineup.map((_, seat) => lineup[(seat + r) % lineup.length]);
    const key = rotated.join('\u0000');
    if (!seen.has(key)) {
      seen.add(key);
      result.push(rotated);
    }
  }
  return result;
}

/**
 * At least `gamesPerLineup` games for each lineup, rounded up to whole sets of rotations. `lineup`
 * names one table explicitly instead (an agent per seat, e.g. one neural seat and three strong).
 */
export function schedule(agents: readonly string[], players: number, gamesPerLineup: number, lineup?: readonly string[]): ScheduledGame[] {
  const games: ScheduledGame[] = [];
  let deal = 0;
  for (const table of lineup ? [[...lineup]] : lineups(agents, players)) {
    const seatings = rotations(table);
    const deals = Math.ceil(gamesPerLineup / seatings.length);
    for (let d = 0; d < deals; d++, deal++) {
      for (const seats of seatings) games.push({ index: games.length, seats, deal });
    }
  }
  return games;
}

/**
 * About `games` games in all, for a rating: the lineups in an order drawn from `seed`, taken in
 * turn, each dealt once and played under every rotation of its seats, until the games are played
 * (so every lineup is played about equally often). Where there are too many lineups to list
 * (more than MAX_LISTED), each deal seats `players` agents drawn at random instead.
 */
export function spreadSchedule(agents: readonly string[], players: number, games: number, seed: number): ScheduledGame[] {
  const rng = seededRng(seed);
  const listed = choose(agents.length, players) <= MAX_LISTED ? lineups(agents, players) : null;
  const order = listed ? listed.map((_, i) => i) : [];
  shuffleInPlace(rng, order);
  const scheduled: ScheduledGame[] = [];
  for (let deal = 0; scheduled.length < games; deal++) {
    const table = listed ? listed[order[deal % order.length]] : randomLineup(agents, players, rng);
    for (const seats of rotations(table)) scheduled.push({ index: scheduled.length, seats, deal });
  }
  return scheduled;
}

const MAX_LISTED = 100_000;

function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return result;
}

function randomLineup(agents: readonly string[], players: number, rng: Rng): string[] {
  const order = agents.map((_, i) => i);
  shuffleInPlace(rng, order);
  return order.slice(0, players).map((i) => agents[i]);
}
