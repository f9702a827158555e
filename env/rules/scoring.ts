/**
 * Showdown and the end of a round (RULES.md, "Showdown and scoring a round" and
 * "Totals, milestones, elimination, end of game", "Who starts the next round").
 */
import type { Rules } from './rules.js';
import {
  type GameState,
  type Outcome,
  type RoundResult,
  PHASE_BETWEEN_ROUNDS,
  PHASE_GAME_OVER,
  activeCount,
  activeSeatsAfter,
  handValue,
  nextActive,
  previousActive,
} from './state.js';

/** Who ended the round and how: a call, a slapdown, or a player who could not draw. */
export type RoundEnd = { kind: 'call'; caller: number } | { kind: 'slapdown'; caller: number } | { kind: 'exhausted'; stuck: number };

interface Scored {
  outcome: Outcome;
  points: (number | null)[];
  winner: number;
}

/** Round points per seat (null for seats out of the game), before milestones. */
export function scoreRound(rules: Rules, values: readonly (number | null)[], end: RoundEnd, clockwise: (seat: number) => number[]): Scored {
  const handPoints = values.map((v) => v);
  if (end.kind === 'exhausted') {
    const order = clockwise(end.stuck);
    const lowest = Math.min(...order.map((s) => values[s] as number));
    return { outcome: 'exhausted', points: handPoints, winner: order.find((s) => values[s] === lowest) as number };
  }
  const { caller } = end;
  const points = handPoints.slice();
  points[caller] = 0;
  if (end.kind === 'slapdown') return { outcome: 'slapdown', points, winner: caller };
  const callerValue = values[caller] as number;
  const others = clockwise(caller).filter((s) => s !== caller);
  const lowest = Math.min(...others.map((s) => values[s] as number));
  if (!rules.assaf || lowest > callerValue) return { outcome: 'yaniv', points, winner: caller };

  const assafWinners = others.filter((s) => values[s] === lowest);
  const assafPoints = handPoints.slice();
  if (rules.assafTiePenalty !== null && lowest === callerValue) {
    assafPoints[caller] = rules.assafTiePenalty;
  } else {
    assafPoints[caller] = callerValue + rules.assafPenalty;
    if (rules.assafScoring === 'lowest') for (const s of assafWinners) assafPoints[s] = 0;
    if (rules.assafScoring === 'othersZero') for (const s of others) assafPoints[s] = 0;
  }
  return { outcome: 'assaf', points: assafPoints, winner: assafWinners[0] };
}

/** Scores the showdown, carries totals through milestones, robbery and elimination, and ends the game if it is over. */
export function settleRound(s: GameState, end: RoundEnd): RoundResult {
  const { rules } = s;
  const values = Array.from({ length: s.players }, (_, seat) => (s.active[seat] ? handValue(s, seat) : null));
  const scored = scoreRound(rules, values, end, (seat) => activeSeatsAfter(s, seat));
  const wasActive = Array.from(s.active, (a) => a === 1);

  const after = totalsAfterRound(rules, s.totals, wasActive, scored.points);
  s.totals.set(after.totals);
  for (const seat of after.eliminated) s.active[seat] = 0;
  const eliminated = after.eliminated;
  const caller = end.kind === 'exhausted' ? null : end.caller;
  if (caller !== null && scored.outcome !== 'assaf') s.yanivWins[caller]++;

  const result: RoundResult = {
    outcome: scored.outcome,
    caller,
    handValues: values,
    points: scored.points,
    totals: Array.from(s.totals),
    eliminated,
    winner: scored.winner,
  };
  s.lastResult = result;
  s.winner = gameWinner(s, result, wasActive);
  s.phase = s.winner >= 0 ? PHASE_GAME_OVER : PHASE_BETWEEN_ROUNDS;
  s.nextStarter = nextRoundStarter(s, result, end);
  return result;
}

/**
 * The totals a round's points leave (pure, so the engine and a what-if — a critic valuing possible
 * round ends — share it): each seat in the round adds its points, a total landing exactly on a
 * milestone drops to its value, milestone robbery where the rules have it, and the seats past the
 * elimination limit.
 */
export function totalsAfterRound(
  rules: Rules,
  totalsBefore: ArrayLike<number>,
  wasActive: readonly boolean[],
  points: readonly (number | null)[],
): { totals: number[]; eliminated: number[] } {
  const totals = Array.from(totalsBefore);
  const hitMilestone: number[] = [];
  for (let seat = 0; seat < totals.length; seat++) {
    if (!wasActive[seat]) continue;
    totals[seat] += points[seat] ?? 0;
    const milestone = rules.milestones.find(([at]) => at === totals[seat]);
    if (milestone) {
      totals[seat] = milestone[1];
      hitMilestone.push(seat);
    }
  }
  if (rules.milestoneRobbery) robLeaders(totals, hitMilestone, wasActive);
  const eliminated = totals.flatMap((total, seat) => (wasActive[seat] && total > rules.eliminationLimit ? [seat] : []));
  return { totals, eliminated };
}

/** Milestone robbery: each player who hit a milestone makes the other active player(s) with the lowest total add 30. */
function robLeaders(totals: number[], hitters: number[], wasActive: readonly boolean[]): void {
  const afterMilestones = [...totals];
  for (const hitter of hitters) {
    const others = afterMilestones.map((_, seat) => seat).filter((seat) => seat !== hitter && wasActive[seat]);
    const lowest = Math.min(...others.map((seat) => afterMilestones[seat]));
    for (const seat of others) if (afterMilestones[seat] === lowest) totals[seat] += 30;
  }
}

function lowestTotal(s: GameState, seats: number[]): number {
  return seats.reduce((best, seat) => (s.totals[seat] < s.totals[best] ? seat : best), seats[0]);
}

/** The game's winner after this round, or -1 if it goes on. */
function gameWinner(s: GameState, result: RoundResult, wasActive: boolean[]): number {
  const { rules } = s;
  const roundPlayers = wasActive.flatMap((a, seat) => (a ? [seat] : []));
  if (
    rules.gameEnd === 'yanivCount' &&
    result.caller !== null &&
    s.yanivWins[result.caller] >= rules.yanivsToWin &&
    result.outcome !== 'assaf'
  ) {
    return result.caller;
  }
  if (rules.gameEnd === 'firstOverLimit' && result.eliminated.length > 0) return lowestTotal(s, roundPlayers);
  const left = activeCount(s);
  if (left === 1) return s.active.indexOf(1);
  if (left === 0) return lowestTotal(s, roundPlayers);
  return -1;
}

function nextRoundStarter(s: GameState, result: RoundResult, end: RoundEnd): number {
  switch (s.rules.nextStarter) {
    case 'rotate':
      return nextActive(s, nextActive(s, s.dealer));
    case 'roundWinner':
      return s.active[result.winner] ? result.winner : nextActive(s, result.winner);
    case 'lowestHand': {
      const from = end.kind === 'exhausted' ? end.stuck : end.caller;
      const order = Array.from({ length: s.players }, (_, i) => (from + 1 + i) % s.players).filter(
        (seat) => result.handValues[seat] !== null,
      );
      const lowest = Math.min(...order.map((seat) => result.handValues[seat] as number));
      const seat = order.find((t) => result.handValues[t] === lowest) as number;
      return s.active[seat] ? seat : nextActive(s, seat);
    }
  }
}

/** The dealer of a round with this starter: the active seat before it. */
export function dealerFor(s: GameState, starter: number): number {
  return previousActive(s, starter);
}
