/**
 * One tournament game: agents at their seats of a Table (env/gym/table.ts), each deal drawn
 * from a seed that depends only on the deal index and the round (so rotations of a lineup
 * replay the same cards), with statistics per seat and an optional record (the episode's history).
 */
import { Episode, type EpisodeMode, TRUNCATED, parseEnvOptions } from '../../env/gym/episode.js';
import { Table } from '../../env/gym/table.js';
import type { Agent } from '../../env/gym/agent.js';
import { type GameState, type RecordJson, type RoundResult, type RuleOptionsInput, type Rules, isRoundOver } from '../../env/index.js';
import { mixSeed } from '../../env/rules/random.js';

export interface MatchOptions {
  rules: Rules;
  /** How the rules were picked, for the record. */
  preset: string;
  overrides: RuleOptionsInput;
  agents: readonly Agent[];
  /** Seeds the deals; shared by the rotations of a lineup. */
  dealSeed: number;
  /** Seeds the agents' own randomness for this game. */
  agentSeed: number;
  episode: EpisodeMode;
  record?: boolean;
  /** A guard against agents that never end a round (default DEFAULT_MAX_TURNS): the game stops, `truncated`. */
  maxTurns?: number;
}

export interface SeatStats {
  won: boolean;
  /**
   * 0 for the winner; then players still in the game, then those eliminated later before those
   * eliminated earlier; then the lower total (round points for round episodes). Equals share a rank.
   */
  rank: number;
  /** Rounds played when the seat was eliminated, or null if it never was. */
  eliminatedAfter: number | null;
  finalTotal: number;
  roundPoints: number;
  rounds: number;
  yanivCalls: number;
  yanivSuccesses: number;
  assafSuffered: number;
  assafCaused: number;
  /** Points the milestones took off the seat's total (a total landing on 50 and going to 25 counts 25). */
  milestonePoints: number;
  decisions: number;
  decisionNanos: number;
}

export interface MatchResult {
  seats: SeatStats[];
  rounds: number;
  turns: number;
  winner: number;
  truncated: boolean;
  record?: RecordJson;
}

/** Whole turns after which a game stops unfinished. */
export const DEFAULT_MAX_TURNS = 20_000;

const emptyStats = (): SeatStats => ({
  won: false,
  rank: 0,
  eliminatedAfter: null,
  finalTotal: 0,
  roundPoints: 0,
  rounds: 0,
  yanivCalls: 0,
  yanivSuccesses: 0,
  assafSuffered: 0,
  assafCaused: 0,
  milestonePoints: 0,
  decisions: 0,
  decisionNanos: 0,
});

export function playMatch(options: MatchOptions): MatchResult {
  const { agents, dealSeed } = options;
  const table = matchTable(options);
  const stats = agents.map(emptyStats);
  agents.forEach((agent, seat) => agent.reset(mixSeed(options.agentSeed, seat)));
  table.reset({ seed: dealSeed, dealSeeds: (round) => mixSeed(dealSeed, round) });
  let roundsEnded = 0;
  let totalsBefore = Array.from(table.episode.state.totals);
  table.play(
    agents.map((agent, seat) => timed(agent, stats[seat])),
    () => {
      const result = table.episode.roundResult;
      if (!result) return;
      countRound(result, ++roundsEnded, stats, totalsBefore);
      totalsBefore = [...result.totals];
    },
  );
  const { state: s, turns, history } = table.episode;
  const rounds = roundsPlayed(s, roundsEnded);
  const winner = options.episode === 'round' ? (s.lastResult?.winner ?? -1) : s.winner;
  rankSeats(s, stats, winner, options.episode);
  const record = history?.record();
  record?.rounds.splice(rounds);
  return { seats: stats, rounds, turns, winner, truncated: table.status === TRUNCATED, ...(record ? { record } : {}) };
}

/** The table of one game: its episode keeps a history only when a record is asked for. */
function matchTable(options: MatchOptions): Table {
  const config = parseEnvOptions({
    preset: options.preset,
    rules: options.overrides,
    players: options.agents.length,
    episode: options.episode,
    maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
    history: options.record ?? false,
  });
  return new Table(new Episode(config, options.rules));
}

/** The rounds that ended, and the one the turn cap cut short; a round dealt at the cap, with no turn in it, does not count. */
function roundsPlayed(s: GameState, roundsEnded: number): number {
  return roundsEnded + (!isRoundOver(s) && s.turn > 0 ? 1 : 0);
}

/** The agent, adding the time each of its decisions takes to the seat's statistics. */
function timed(agent: Agent, stats: SeatStats): Agent {
  return {
    name: agent.name,
    reset: (seed) => agent.reset(seed),
    act(input) {
      const started = process.hrtime.bigint();
      const decision = agent.act(input);
      stats.decisionNanos += Number(process.hrtime.bigint() - started);
      stats.decisions++;
      return decision;
    },
  };
}

function countRound(result: RoundResult, round: number, stats: SeatStats[], totalsBefore: readonly number[]): void {
  for (const seat of result.eliminated) stats[seat].eliminatedAfter = round;
  result.points.forEach((points, seat) => {
    if (points === null) return;
    stats[seat].roundPoints += points;
    stats[seat].rounds++;
    // A robbery (+30) raises the total instead; only what a milestone takes off counts here.
    stats[seat].milestonePoints += Math.max(0, totalsBefore[seat] + points - result.totals[seat]);
  });
  if (result.caller === null) return;
  stats[result.caller].yanivCalls++;
  if (result.outcome === 'assaf') {
    stats[result.caller].assafSuffered++;
    stats[result.winner].assafCaused++;
  } else {
    stats[result.caller].yanivSuccesses++;
  }
}

function rankSeats(s: GameState, stats: SeatStats[], winner: number, episode: EpisodeMode): void {
  const score = (seat: number) => (episode === 'round' ? (s.lastResult?.points[seat] ?? 0) : s.totals[seat]);
  const survival = (seat: number) => stats[seat].eliminatedAfter ?? Infinity;
  const ahead = (a: number, b: number) =>
    a === winner || (b !== winner && (survival(a) > survival(b) || (survival(a) === survival(b) && score(a) < score(b))));
  stats.forEach((seatStats, seat) => {
    seatStats.finalTotal = s.totals[seat];
    seatStats.won = seat === winner;
    seatStats.rank = stats.filter((_, other) => other !== seat && ahead(other, seat)).length;
  });
}
