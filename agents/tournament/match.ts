/**
 * One tournament game: agents at their seats, each deal drawn from a seed that depends only
 * on the deal index and the round (so rotations of a lineup replay the same cards), every
 * decision through the Agent interface, with statistics per seat and an optional record.
 */
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { MaskScratch, writeActionMask } from '../../env/gym/actionMask.js';
import { actionToMove } from '../../env/gym/actionMoves.js';
import {
  type Action, type Card, DiscardList, type GameState, PHASE_BETWEEN_ROUNDS, PHASE_GAME_OVER,
  RecordWriter, type RecordJson, type RuleOptionsInput, type Rules, type TurnMove,
  applyAction, isRoundOver, newGame, playerView, reshuffle, startRound,
} from '../../env/index.js';
import { OBSERVATION_SIZE, encodeObservation } from '../../env/gym/observation.js';
import { seededRng } from '../../env/rules/random.js';
import type { Agent } from '../../env/gym/agent.js';
import type { EpisodeMode } from '../../env/gym/episode.js';
import { mixSeed } from './seeds.js';

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
  won: false, rank: 0, eliminatedAfter: null, finalTotal: 0, roundPoints: 0, rounds: 0, yanivCalls: 0, yanivSuccesses: 0,
  assafSuffered: 0, assafCaused: 0, decisions: 0, decisionNanos: 0,
});

/** Builds whole turns for the record out of the steps agents take. */
class TurnAssembler {
  private discard: Card[] = [];
  private draw: 'deck' | Card = 'deck';
  private reshuffled: Card[] | null = null;

  constructor(private readonly writer: RecordWriter) {}

  beforeApply(s: GameState, action: Action): void {
    if (action.type === 'discard') this.discard = action.cards;
    if (action.type === 'draw') {
      this.draw = action.source;
      if (action.source === 'deck' && s.deckLength === 0 && s.pileLength > 0) {
        reshuffle(s);
        this.reshuffled = Array.from(s.deck.subarray(0, s.deckLength)).reverse();
      }
    }
  }

  afterApply(s: GameState, action: Action, mover: number): void {
    const turnOver = s.current !== mover || isRoundOver(s);
    if (!turnOver) return;
    let move: TurnMove;
    if (action.type === 'yaniv') move = { yaniv: true };
    else move = { discard: this.discard, draw: this.draw, ...(action.type === 'quick' ? { quick: true } : {}), ...(action.type === 'slapdown' ? { slapdown: true } : {}) };
    this.writer.addTurn(move, this.reshuffled);
    this.reshuffled = null;
  }
}

export function playMatch(options: MatchOptions): MatchResult {
  const { rules, agents, episode } = options;
  const players = agents.length;
  const s = newGame({ rules, players, seed: options.dealSeed });
  agents.forEach((agent, seat) => agent.reset(mixSeed(options.agentSeed, seat)));
  const stats = agents.map(emptyStats);
  const observation = new Float32Array(OBSERVATION_SIZE);
  const mask = new Uint8Array(ACTION_COUNT);
  const scratch = new MaskScratch(new DiscardList());
  const writer = options.record ? new RecordWriter({ preset: options.preset, rules: options.overrides, players }) : null;
  const assembler = writer ? new TurnAssembler(writer) : null;
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  let turns = 0;
  let rounds = 0;

  while (s.phase !== PHASE_GAME_OVER && turns < maxTurns && !(episode === 'round' && rounds === 1 && s.phase === PHASE_BETWEEN_ROUNDS)) {
    if (s.phase === PHASE_BETWEEN_ROUNDS) {
      s.rng = seededRng(mixSeed(options.dealSeed, s.round));
      startRound(s);
      writer?.beginRound(s);
      rounds++;
    }
    const seat = s.current;
    writeActionMask(s, scratch, mask, 0);
    encodeObservation(s, seat, observation, 0);
    const view = playerView(s, seat);
    const started = process.hrtime.bigint();
    const { action } = agents[seat].act({ observation, mask, view });
    stats[seat].decisionNanos += Number(process.hrtime.bigint() - started);
    stats[seat].decisions++;
    if (!mask[action]) throw new Error(`${agents[seat].name} at seat ${seat} chose illegal action ${action}`);
    const move = actionToMove(s, action);
    assembler?.beforeApply(s, move);
    applyAction(s, move);
    assembler?.afterApply(s, move, seat);
    if (s.current !== seat || isRoundOver(s)) turns++;
    if (isRoundOver(s)) countRound(s, stats);
  }
  const truncated = s.phase !== PHASE_GAME_OVER && !(episode === 'round' && rounds === 1);
  const winner = episode === 'round' ? (s.lastResult?.winner ?? -1) : s.winner;
  rankSeats(s, stats, winner, episode);
  return { seats: stats, rounds, turns, winner, truncated, ...(writer ? { record: writer.toJSON() } : {}) };
}

function countRound(s: GameState, stats: SeatStats[]): void {
  const result = s.lastResult;
  if (!result) return;
  for (const seat of result.eliminated) stats[seat].eliminatedAfter = s.round;
  result.points.forEach((points, seat) => {
    if (points === null) return;
    stats[seat].roundPoints += points;
    stats[seat].rounds++;
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
  const ahead = (a: number, b: number) => a === winner
    || (b !== winner && (survival(a) > survival(b) || (survival(a) === survival(b) && score(a) < score(b))));
  stats.forEach((seatStats, seat) => {
    seatStats.finalTotal = s.totals[seat];
    seatStats.won = seat === winner;
    seatStats.rank = stats.filter((_, other) => other !== seat && ahead(other, seat)).length;
  });
}
