/**
 * One environment episode over the rules core: settings, seeding, applying action ids,
 * episode ends, rewards and the game's history. YanivEnv wraps one; VecEnv steps many.
 */
import { z } from 'zod';
import { bool, formatOptionIssues, intFrom, oneOf, preview } from '../../support/zod.js';
import { actionError } from '../rules/actions.js';
import { applyActionId } from './actionApply.js';
import { ACTION_COUNT, DISCARD_START, DRAW_DECK_ACTION } from './actionLayout.js';
import { MaskScratch, markLegalActions, writeActionMask } from './actionMask.js';
import { actionToMove, describeAction } from './actionMoves.js';
import { REWARD_SCALE_DESCRIPTION, REWARD_SCHEMES, describeRewardSchemes, writeRoundRewards } from './rewards.js';
import { IllegalMoveError, newGame, startRound } from '../rules/engine.js';
import { type GameEquity, tableEquities } from './equity.js';
import { EquityError } from './equityData.js';
import { encodeObservation } from './observation.js';
import { GameHistory } from './position.js';
import { type Rng, rngFromState, seededRng } from '../rules/random.js';
import { MAX_PLAYERS, MIN_PLAYERS, type Rules, resolveRules, ruleSelectionSchema } from '../rules/rules.js';
import {
  type GameState,
  PHASE_BETWEEN_ROUNDS,
  PHASE_GAME_OVER,
  PHASE_NAMES,
  PHASE_TURN,
  type RoundResult,
  cloneState,
  isRoundOver,
} from '../rules/state.js';

import { EPISODE_MODES } from './episodeMode.js';

export { EPISODE_MODES, type EpisodeMode } from './episodeMode.js';
export { REWARD_SCHEMES, type RewardScheme } from './rewards.js';

/** Every environment setting, with its default, validated once. */
export const envOptionsSchema = z.strictObject({
  ...ruleSelectionSchema.shape,
  players: intFrom(MIN_PLAYERS, MAX_PLAYERS).describe('Seats at the table.'),
  episode: oneOf(EPISODE_MODES).default('game').describe('"round": an episode is one round; "game": rounds until the game ends.'),
  reward: oneOf(REWARD_SCHEMES).default('zeroSum').describe(`The reward scheme: ${describeRewardSchemes()}`),
  rewardScale: z
    .number({ error: 'must be a positive number' })
    .positive({ error: 'must be a positive number' })
    .default(0.01)
    .describe(REWARD_SCALE_DESCRIPTION),
  maxTurns: intFrom(1).nullable().default(null).describe('Whole turns after which an episode is truncated; null for no cap.'),
  seed: z.int({ error: 'must be an integer' }).default(0).describe('Seed of the episode seeds (used when reset() is given none).'),
  history: bool().default(true).describe('Keep the game record so positions can be exported (a little slower).'),
});

export type EnvOptions = z.input<typeof envOptionsSchema>;

export type EnvConfig = z.output<typeof envOptionsSchema>;

/** Thrown for an action id that is not legal now; the message names the action and why, `reason` only why. */
export class IllegalActionError extends IllegalMoveError {
  override name = 'IllegalActionError';
  constructor(
    readonly action: number,
    message: string,
    readonly reason: string = message,
  ) {
    super(message);
  }
}

/** Thrown by step() once the episode has ended and before reset(). */
export class EpisodeOverError extends Error {
  override name = 'EpisodeOverError';
}

export const ONGOING = 0;
export const TERMINATED = 1;
export const TRUNCATED = 2;
export type EpisodeStatus = typeof ONGOING | typeof TERMINATED | typeof TRUNCATED;

export function parseEnvOptions(options: EnvOptions): EnvConfig {
  const parsed = envOptionsSchema.safeParse(options, { reportInput: true });
  if (!parsed.success) throw new RangeError(formatOptionIssues(parsed.error, 'env option', Object.keys(envOptionsSchema.shape)));
  return parsed.data;
}

export interface ResetOptions {
  seed?: number;
  /** Totals before the first round (a game picked up mid-way). */
  startTotals?: readonly number[];
  /**
   * The seed of each round's deal and of that round's reshuffles, from the round's index in
   * the game (0 for the first): games given the same function are dealt the same cards
   * (duplicate deals). By default one PRNG, seeded per game, runs through every round.
   */
  dealSeeds?: (round: number) => number;
}

/** The equity the "equity" reward reads, checked against the episode's table. */
function checkedEquity(config: EnvConfig, rules: Rules, equity: GameEquity | null): GameEquity {
  if (!equity) throw new EquityError('reward "equity" needs the solved game equity of the rules (agents/equity/equity.ts shippedEquity)');
  if (config.players !== equity.players)
    throw new EquityError(`reward "equity": the equity is for ${equity.players} seats, the episode has ${config.players}`);
  if (JSON.stringify(equity.rules) !== JSON.stringify(rules))
    throw new EquityError('reward "equity": the equity was solved for other rules than the episode\'s');
  return equity;
}

/** The rules core behind one environment, driven by action ids. */
export class Episode {
  readonly config: EnvConfig;
  readonly rules: Rules;
  state: GameState;
  status: EpisodeStatus = ONGOING;
  /** Whole turns completed in this episode. */
  turns = 0;
  /** The seat that took the last step, −1 after a reset. */
  actor = -1;
  /** The round that ended during the last step, else null. */
  roundResult: RoundResult | null = null;
  history: GameHistory | null = null;
  private seeds: Rng;
  private dealSeeds: ((round: number) => number) | null = null;
  /** The totals when the current round began (for the "zeroSumTotals" reward). */
  private readonly roundStartTotals = new Int32Array(MAX_PLAYERS);
  /** Each seat's game equity when the current round began, and after it (for the "equity" reward). */
  private readonly roundStartEquity = new Float64Array(MAX_PLAYERS);
  private readonly roundEndEquity = new Float64Array(MAX_PLAYERS);
  private readonly equity: GameEquity | null;

  /**
   * `rules` may be passed when many episodes share one configuration; `equity`, the solved game
   * equity of these rules, is what the "equity" reward reads (and it needs one).
   */
  constructor(
    config: EnvConfig,
    rules = resolveRules({ preset: config.preset, rules: config.rules, players: config.players }),
    equity: GameEquity | null = null,
  ) {
    this.config = config;
    this.rules = rules;
    this.equity = config.reward === 'equity' ? checkedEquity(config, rules, equity) : null;
    this.seeds = seededRng(config.seed);
    this.state = newGame({ rules: this.rules, players: config.players });
  }

  reset({ seed, startTotals, dealSeeds }: ResetOptions = {}): void {
    if (startTotals && (startTotals.length !== this.config.players || !startTotals.every(Number.isInteger))) {
      throw new RangeError(`startTotals must be ${this.config.players} integers, one per seat (got ${preview(startTotals)})`);
    }
    if (seed !== undefined) this.seeds = seededRng(seed);
    const gameSeed = this.seeds.next() | 0;
    this.state = newGame({ rules: this.rules, players: this.config.players, seed: gameSeed, startTotals });
    this.history = this.config.history
      ? GameHistory.start({ preset: this.config.preset, rules: this.config.rules, players: this.config.players, startTotals })
      : null;
    this.dealSeeds = dealSeeds ?? null;
    this.status = ONGOING;
    this.turns = 0;
    this.actor = -1;
    this.roundResult = null;
    this.beginRound();
  }

  /** Continues from a saved position (see position.ts); in game mode a position between rounds deals the next one. */
  load(state: GameState, history: GameHistory | null): void {
    this.state = state;
    // Totals do not change inside a round, so the round in progress began at these.
    this.roundStartTotals.set(state.totals);
    if (this.equity && !isRoundOver(state)) tableEquities(this.equity, state, state.starter, this.roundStartEquity);
    this.history = this.config.history ? history : null;
    this.dealSeeds = null;
    this.status =
      state.phase === PHASE_GAME_OVER || (state.phase === PHASE_BETWEEN_ROUNDS && this.config.episode === 'round') ? TERMINATED : ONGOING;
    this.turns = 0;
    this.actor = -1;
    this.roundResult = null;
    if (this.status === ONGOING && state.phase === PHASE_BETWEEN_ROUNDS) this.beginRound();
  }

  /** The seat whose observation the env shows: the player to move, or the last actor once it is over. */
  observer(): number {
    return this.status === ONGOING ? this.state.current : Math.max(0, this.actor);
  }

  currentPlayer(): number {
    return this.status === ONGOING ? this.state.current : -1;
  }

  writeObservation(out: Float32Array, offset: number): void {
    encodeObservation(this.state, this.observer(), out, offset);
  }

  /** Sets the legal entries of a mask row that is all 0 (none once the episode is over) and returns how many there are. */
  markMask(scratch: MaskScratch, out: Uint8Array, offset: number, ids: Int16Array, idsOffset: number): number {
    return this.status === ONGOING ? markLegalActions(this.state, scratch, out, offset, ids, idsOffset) : 0;
  }

  /** Writes the mask (all 0 once the episode is over) and returns how many actions are legal. */
  writeMask(scratch: MaskScratch, out: Uint8Array, offset: number, ids: Int16Array | null = null, idsOffset = 0): number {
    if (this.status !== ONGOING) {
      out.fill(0, offset, offset + ACTION_COUNT);
      return 0;
    }
    return writeActionMask(this.state, scratch, out, offset, ids, idsOffset);
  }

  /**
   * Applies a legal id (checked against `mask`, the one last written for this episode), settles
   * a round or episode end, and writes every seat's reward into `rewards[rewardOffset + seat]`.
   */
  step(id: number, mask: Uint8Array, maskOffset: number, rewards: Float32Array, rewardOffset: number): EpisodeStatus {
    if (this.status !== ONGOING) throw new EpisodeOverError('the episode is over: call reset() before step()');
    if (!(Number.isInteger(id) && id >= 0 && id < ACTION_COUNT && mask[maskOffset + id] === 1)) throw this.illegalAction(id);
    const s = this.state;
    // A loop, not fill(): a call into the fill builtin costs more than zeroing a handful of seats.
    for (let seat = 0; seat < s.players; seat++) rewards[rewardOffset + seat] = 0;
    this.actor = s.current;
    this.roundResult = null;
    applyActionId(s, id, this.history);
    const roundOver = isRoundOver(s);
    if (roundOver || s.phase === PHASE_TURN) this.turns++;
    if (roundOver) this.endRound(rewards, rewardOffset);
    if (this.status === ONGOING && this.config.maxTurns !== null && this.turns >= this.config.maxTurns) this.status = TRUNCATED;
    return this.status;
  }

  private endRound(rewards: Float32Array, offset: number): void {
    const s = this.state;
    const result = s.lastResult as RoundResult;
    this.roundResult = result;
    const over = this.config.episode === 'round' || s.phase === PHASE_GAME_OVER;
    const end = {
      players: s.players,
      result,
      startTotals: this.roundStartTotals,
      wholeGame: this.config.episode === 'game',
      gameWinner: s.winner,
      ...(this.equity ? { equity: this.equitiesOfRound(this.equity) } : {}),
    };
    writeRoundRewards(this.config.reward, this.config.rewardScale, end, over, rewards, offset);
    if (over) this.status = TERMINATED;
    else this.beginRound();
  }

  private beginRound(): void {
    if (this.dealSeeds) this.state.rng = seededRng(this.dealSeeds(this.state.round));
    this.roundStartTotals.set(this.state.totals);
    startRound(this.state);
    if (this.equity) tableEquities(this.equity, this.state, this.state.starter, this.roundStartEquity);
    this.history?.beginRound(this.state);
  }

  /** Each seat's equity when the round began and now that it is over (the next starter's; the outcome once the game is over). */
  private equitiesOfRound(equity: GameEquity): { start: Float64Array; end: Float64Array } {
    tableEquities(equity, this.state, this.state.nextStarter, this.roundEndEquity);
    return { start: this.roundStartEquity, end: this.roundEndEquity };
  }

  /** The error for an id that is not legal now, naming the action and why. */
  illegalAction(id: number): IllegalActionError {
    const s = this.state;
    if (!Number.isInteger(id) || id < 0 || id >= ACTION_COUNT)
      return new IllegalActionError(id, `${id} is not an action id (0..${ACTION_COUNT - 1})`);
    const name = describeAction(id, s);
    let reason = `it is not among the legal actions in phase ${PHASE_NAMES[s.phase]}`;
    try {
      const error = actionError(s, actionToMove(s, id));
      if (error !== null) reason = error;
      else if (id >= DISCARD_START && id < DRAW_DECK_ACTION) reason = 'that laid order is not the canonical one for these cards';
    } catch (error) {
      if (error instanceof RangeError) reason = error.message;
      else throw error;
    }
    return new IllegalActionError(id, `action ${id} (${name}) is illegal: ${reason}`, reason);
  }

  clone(): Episode {
    const copy = new Episode(this.config, this.rules, this.equity);
    copy.state = cloneState(this.state);
    copy.status = this.status;
    copy.turns = this.turns;
    copy.actor = this.actor;
    copy.roundResult = this.roundResult;
    copy.history = this.history?.clone() ?? null;
    copy.seeds = rngFromState(this.seeds.getState());
    copy.dealSeeds = this.dealSeeds;
    copy.roundStartTotals.set(this.roundStartTotals);
    copy.roundStartEquity.set(this.roundStartEquity);
    return copy;
  }
}
