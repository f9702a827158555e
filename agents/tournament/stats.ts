/**
 * Tournament statistics: per-agent figures with 95% intervals, a head-to-head matrix and
 * Elo ratings. Pure functions of the game results, aggregated in schedule order.
 *
 * Games that hit the turn cap (`truncated`: no winner by the rules) are counted per agent as
 * `unfinished` and in `truncatedGames`, and left out of every other figure: scoring them as
 * they stood would credit whoever happened to be ahead when the cap fell.
 */
import type { MatchResult, SeatStats } from './match.js';

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval for a proportion (well-behaved near 0 and 1, unlike the normal one). */
export function wilson(successes: number, trials: number, z = Z95): Interval {
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface AgentSummary {
  agent: string;
  /** Games the agent played, unfinished ones included. */
  games: number;
  /** Of those, games that hit the turn cap; every figure below is over the others. */
  unfinished: number;
  wins: number;
  winRate: number;
  winRate95: Interval;
  /**
   * Mean finishing place (1 = won, the table size = last; equals share the better place): a
   * lower-variance figure than the win rate at 3–8 seats, every game saying something.
   */
  meanPlace: number;
  /** Its 95% interval (normal, from the places' sample variance). */
  meanPlace95: Interval;
  /** Mean points scored per round played (lower is better). */
  meanRoundPenalty: number;
  yanivCallsPerGame: number;
  /** Share of the agent's calls that succeeded. */
  yanivSuccessRate: number;
  assafSufferedPerGame: number;
  assafCausedPerGame: number;
  /** Points the milestones took off the agent's total, per game. */
  milestonePointsPerGame: number;
  meanRoundsPerGame: number;
  meanTurnsPerGame: number;
  microsPerDecision: number;
}

export interface HeadToHead {
  /** score[i][j]: share of the games where agent i and agent j met in which i finished ahead (ties count half). */
  score: number[][];
  /** meetings[i][j]: how many such seat pairs were compared. */
  meetings: number[][];
}

export interface TournamentSummary {
  agents: AgentSummary[];
  headToHead: HeadToHead;
  /** Bradley–Terry ratings on the Elo scale (mean 1500), from the head-to-head results. */
  elo: Record<string, number>;
  games: number;
  /** Games that hit the turn cap, left out of every figure but the counts of games. */
  truncatedGames: number;
}

export interface PlayedGame {
  seats: readonly string[];
  result: MatchResult;
}

/** What a summary adds up over an agent's finished games, and how many of its games hit the turn cap. */
interface AgentTotals {
  games: number;
  unfinished: number;
  wins: number;
  places: number;
  squaredPlaces: number;
  rounds: number;
  turns: number;
  seat: SeatSums;
}

const emptyTotals = (): AgentTotals => ({
  games: 0,
  unfinished: 0,
  wins: 0,
  places: 0,
  squaredPlaces: 0,
  rounds: 0,
  turns: 0,
  seat: zeroSeatSums(),
});

/** Adds one finished game to the totals of the agent at each seat. */
function addSeats(totals: AgentTotals[], index: ReadonlyMap<string, number>, { seats, result }: PlayedGame): void {
  seats.forEach((name, seat) => {
    const t = totals[index.get(name) as number];
    const s = result.seats[seat];
    addSeatStats(t.seat, s);
    t.games++;
    if (s.won) t.wins++;
    t.places += s.rank + 1;
    t.squaredPlaces += (s.rank + 1) ** 2;
    t.rounds += result.rounds;
    t.turns += result.turns;
  });
}

/** Adds one finished game's meetings: each pair of seats held by two different agents, the one ahead scoring 1 (a tie ½). */
function addMeetings(wins: number[][], meetings: number[][], index: ReadonlyMap<string, number>, { seats, result }: PlayedGame): void {
  seats.forEach((a, seatA) =>
    seats.forEach((b, seatB) => {
      if (seatA === seatB || a === b) return;
      const i = index.get(a) as number;
      const j = index.get(b) as number;
      const rankA = result.seats[seatA].rank;
      const rankB = result.seats[seatB].rank;
      meetings[i][j]++;
      wins[i][j] += rankA < rankB ? 1 : rankA === rankB ? 0.5 : 0;
    }),
  );
}

/** One agent's figures from its totals. */
function agentSummary(agent: string, t: AgentTotals): AgentSummary {
  const seat = t.seat;
  return {
    agent,
    games: t.games + t.unfinished,
    unfinished: t.unfinished,
    wins: t.wins,
    winRate: t.games ? t.wins / t.games : 0,
    winRate95: wilson(t.wins, t.games),
    meanPlace: per(t.places, t.games),
    meanPlace95: meanInterval(t.places, t.squaredPlaces, t.games),
    meanRoundPenalty: per(seat.roundPoints, seat.rounds),
    yanivCallsPerGame: per(seat.yanivCalls, t.games),
    yanivSuccessRate: per(seat.yanivSuccesses, seat.yanivCalls),
    assafSufferedPerGame: per(seat.assafSuffered, t.games),
    assafCausedPerGame: per(seat.assafCaused, t.games),
    milestonePointsPerGame: per(seat.milestonePoints, t.games),
    meanRoundsPerGame: per(t.rounds, t.games),
    meanTurnsPerGame: per(t.turns, t.games),
    microsPerDecision: per(seat.decisionNanos, seat.decisions) / 1000,
  };
}

export function summarize(agentNames: readonly string[], games: readonly PlayedGame[]): TournamentSummary {
  const index = new Map(agentNames.map((name, i) => [name, i]));
  const n = agentNames.length;
  const totals = agentNames.map(emptyTotals);
  const wins = agentNames.map(() => new Array<number>(n).fill(0));
  const meetings = agentNames.map(() => new Array<number>(n).fill(0));
  for (const game of games) {
    if (game.result.truncated) {
      for (const name of game.seats) totals[index.get(name) as number].unfinished++;
      continue;
    }
    addSeats(totals, index, game);
    addMeetings(wins, meetings, index, game);
  }
  const score = wins.map((row, i) => row.map((w, j) => (meetings[i][j] ? w / meetings[i][j] : 0)));
  return {
    agents: agentNames.map((agent, i) => agentSummary(agent, totals[i])),
    headToHead: { score, meetings },
    elo: eloRatings(agentNames, wins, meetings),
    games: games.length,
    truncatedGames: games.filter((g) => g.result.truncated).length,
  };
}

const per = (a: number, b: number) => (b ? a / b : 0);

/** Normal 95% interval of a mean from its sum and sum of squares over n values. */
export function meanInterval(sum: number, squares: number, n: number, z = Z95): Interval {
  if (n === 0) return { low: 0, high: 0 };
  const mean = sum / n;
  const variance = n > 1 ? Math.max(0, (squares - n * mean * mean) / (n - 1)) : 0;
  const half = z * Math.sqrt(variance / n);
  return { low: mean - half, high: mean + half };
}

/** The per-seat counts (SeatStats fields) a summary adds up over an agent's games. */
const SUMMED_SEAT_STATS = [
  'roundPoints',
  'rounds',
  'yanivCalls',
  'yanivSuccesses',
  'assafSuffered',
  'assafCaused',
  'milestonePoints',
  'decisions',
  'decisionNanos',
] as const satisfies readonly (keyof SeatStats)[];

type SeatSums = Record<(typeof SUMMED_SEAT_STATS)[number], number>;

const zeroSeatSums = (): SeatSums => Object.fromEntries(SUMMED_SEAT_STATS.map((key) => [key, 0])) as SeatSums;

function addSeatStats(sums: SeatSums, s: SeatStats): void {
  for (const key of SUMMED_SEAT_STATS) sums[key] += s[key];
}

/**
 * Bradley–Terry strengths by the MM algorithm (Hunter 2004) on pairwise wins, with one
 * virtual draw against every opponent so that a perfect record still has a finite rating;
 * shown on the Elo scale, 400·log10(strength), shifted to a mean of 1500.
 */
export function eloRatings(names: readonly string[], wins: number[][], meetings: number[][], iterations = 500): Record<string, number> {
  const n = names.length;
  const w = wins.map((row, i) => row.map((x, j) => (i !== j && meetings[i][j] + meetings[j][i] > 0 ? x + 0.5 : x)));
  const m = meetings.map((row, i) => row.map((x, j) => (i !== j && meetings[i][j] + meetings[j][i] > 0 ? x + 1 : x)));
  let strength = new Array<number>(n).fill(1);
  for (let it = 0; it < iterations; it++) {
    strength = strength.map((_, i) => {
      const won = w[i].reduce((a, b) => a + b, 0);
      let denominator = 0;
      for (let j = 0; j < n; j++) if (j !== i && m[i][j] > 0) denominator += m[i][j] / (strength[i] + strength[j]);
      return denominator > 0 ? won / denominator : strength[i];
    });
    const logMean = strength.reduce((a, b) => a + Math.log(b), 0) / n;
    strength = strength.map((x) => x / Math.exp(logMean));
  }
  return Object.fromEntries(names.map((name, i) => [name, 1500 + 400 * Math.log10(strength[i])]));
}

/** What a summary holds that depends on the machine and its load rather than on the games: the decision times. */
export const RUN_SPECIFIC_AGENT_FIELDS = ['microsPerDecision'] as const satisfies readonly (keyof AgentSummary)[];
type RunSpecificField = (typeof RUN_SPECIFIC_AGENT_FIELDS)[number];

/** The summary without the decision times: for one seed the same, byte for byte as JSON, however many workers played, wherever. */
export interface ReproducibleSummary extends Omit<TournamentSummary, 'agents'> {
  agents: Omit<AgentSummary, RunSpecificField>[];
}

export function splitRunSpecific(summary: TournamentSummary): {
  results: ReproducibleSummary;
  runSpecific: Record<RunSpecificField, Record<string, number>>;
} {
  const runSpecific = Object.fromEntries(
    RUN_SPECIFIC_AGENT_FIELDS.map((field) => [field, Object.fromEntries(summary.agents.map((a) => [a.agent, a[field]]))]),
  ) as Record<RunSpecificField, Record<string, number>>;
  const agents = summary.agents.map((agent) => {
    const kept: Partial<AgentSummary> = { ...agent };
    for (const field of RUN_SPECIFIC_AGENT_FIELDS) delete kept[field];
    return kept as Omit<AgentSummary, RunSpecificField>;
  });
  return { results: { ...summary, agents }, runSpecific };
}
