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
