/**
 * The game equity where none ships: measured on the fly from whole games played by the strong
 * playout policy (agents/bots/playout.ts, strong's planning on the engine's buffers, ~0.3 ms a round)
 * and fitted by the learned predictor of env/gym/seatEquity.ts (agents/equity/equityFit.ts) — the same
 * model the shipped 3–8-seat data holds, here at 2 seats too. A fixed number of games from a
 * fixed seed: the same rules always give the same equity.
 *
 * Which equity a table gets, or why none (`equityForTable`): the shipped data of the preset
 * whose rules these are; else one computed here (in bounded rounds and time, and kept for the
 * last rule sets and sizes asked);
 * never one for rules it cannot represent (a game won by a count of Yaniv calls), with the
 * reason in words. A shipped equity comes with its calibration map where one ships.
 */
import { LRUCache } from 'lru-cache';
import { type GameEquity } from '../../env/gym/equity.js';
import { SeatEquity } from '../../env/gym/seatEquity.js';
import { PHASE_BETWEEN_ROUNDS, PHASE_GAME_OVER } from '../../env/rules/state.js';
import { newGame, startRound } from '../../env/rules/engine.js';
import { mixSeed, randomInt, seededRng } from '../../env/rules/random.js';
import { type Rules, rulesJson } from '../../env/rules/rules.js';
import { shippedEquityFor } from './equity.js';
import { type CalibrationMap, shippedCalibrationFor } from './calibrationMap.js';
import { FitTooLong, fitSeatPredictor } from './equityFit.js';
import type { SeatState } from './equityModel.js';
import { playoutRoundStrong } from '../bots/playout.js';

/** Games per fit: about a second of one core at 4 seats (bench/equity.ts measures it). */
export const PLAYOUT_EQUITY_GAMES = 240;
/** A round the playout has not ended in this many turns (two bots trading cards) drops its game. */
const ROUND_TURN_CAP = 300;
/** A game not over after this many rounds (milestones that keep sending totals back) is dropped. */
export const GAME_ROUND_CAP = 200;
/**
 * The wall time the games of one fit may take: past it the fit gives up (`PlayoutsTooLong`), so
 * that no rules a client names can hold a worker for long. Standard rules at 8 seats take about
 * 1 s (bench/equity.ts).
 */
export const PLAYOUT_EQUITY_MS = 6000;
/**
 * The wall time the fit after the games may take (`FitTooLong` past it, checked each epoch): 400
 * epochs over at most 240 games of 200 states took 1.9 s at 8 seats, load 5 (docs/serving.md).
 */
export const FIT_EQUITY_MS = 6000;
/** One game in this many starts fresh (every total 0); the others from totals drawn over 0..limit, as `yaniv equity` does. */
const FRESH_EVERY = 4;

/** The games of a fit took longer than their time budget. */
export class PlayoutsTooLong extends Error {
  override name = 'PlayoutsTooLong';
}

/** The bounds of one batch of playouts: a game's rounds, and a time after which it stops (ms of `performance.now()`). */
export interface PlayoutBounds {
  readonly maxRounds: number;
  readonly deadline: number;
}

/**
 * Plays `games` whole games with the strong playout at every seat and records each table between
 * rounds with the game's winner (the starter being who starts the next round). A game that does
 * not end within `maxRounds` rounds is dropped; past the deadline it throws PlayoutsTooLong.
 */
export function playoutSeatStates(
  rules: Rules,
  players: number,
  games: number,
  seed: number,
  { maxRounds, deadline }: PlayoutBounds = { maxRounds: GAME_ROUND_CAP, deadline: Infinity },
): SeatState[] {
  const rng = seededRng(seed);
  const states: SeatState[] = [];
  for (let i = 0; i < games; i++) {
    if (performance.now() > deadline) throw new PlayoutsTooLong(`${i} of ${games} games played within the time budget`);
    const fresh = i % FRESH_EVERY === 0;
    const startTotals = Array.from({ length: players }, () => (fresh ? 0 : randomInt(rng, 0, rules.eliminationLimit)));
    const s = newGame({ rules, players, seed: mixSeed(seed, i), startTotals });
    const game: Omit<SeatState, 'winner'>[] = [];
    let stalled = false;
    while (s.phase === PHASE_BETWEEN_ROUNDS && !stalled) {
      if (game.length >= maxRounds) stalled = true;
      else {
        startRound(s);
        game.push({ totals: Array.from(s.totals), active: Array.from(s.active, (a) => a === 1), starter: s.starter });
        playoutRoundStrong(s, ROUND_TURN_CAP);
        stalled = s.phase !== PHASE_BETWEEN_ROUNDS && s.phase !== PHASE_GAME_OVER;
      }
    }
    if (stalled || s.winner < 0) continue;
    for (const state of game) states.push({ ...state, winner: s.winner });
  }
  return states;
}

/**
 * The equity of rules at a table size, fitted to games of the strong playout (seconds of CPU: see
 * `equityForTable`'s cache); throws PlayoutsTooLong when the games take more than `ms`, FitTooLong
 * when the fit takes more than `fitMs`.
 */
export function playoutEquity(
  rules: Rules,
  players: number,
  games = PLAYOUT_EQUITY_GAMES,
  seed = 1,
  ms = PLAYOUT_EQUITY_MS,
  fitMs = FIT_EQUITY_MS,
): GameEquity {
  const states = playoutSeatStates(rules, players, games, seed, { maxRounds: GAME_ROUND_CAP, deadline: performance.now() + ms });
  const { predictor } = fitSeatPredictor(rules, players, states, { epochs: 400, holdout: 0, deadline: performance.now() + fitMs });
  return new SeatEquity(rules, players, predictor);
}

/** Where the chance to win comes from: shipped data, or computed here by playouts. */
export type EquitySource = 'shipped' | 'playouts';

export type TableEquity =
  | {
      readonly equity: GameEquity;
      readonly source: EquitySource;
      /** The calibration map shipped with the equity (agents/equity/calibrationMap.ts), or null: the chance shown unmapped. */
      readonly calibration: CalibrationMap | null;
      readonly reason?: undefined;
    }
  | { readonly equity: null; readonly source?: undefined; readonly calibration: null; readonly reason: string };

/** Why no equity can be given for these rules, in a player's words, or null when one can. */
export function equityUnavailable(rules: Rules): string | null {
  if (rules.gameEnd === 'yanivCount')
    return `this table's game is won by the first to ${rules.yanivsToWin} successful Yaniv calls, which the chance to win does not model (it reads the totals)`;
  return null;
}

/** Rule sets kept: advice may name any rules, each a key (the least recently asked go first). */
const COMPUTED_CAP = 64;
const computed = new LRUCache<string, TableEquity>({ max: COMPUTED_CAP });

/** The equity measured by playouts, or why there is none: the games took too long. */
function measured(rules: Rules, players: number): TableEquity {
  try {
    return { equity: playoutEquity(rules, players), source: 'playouts', calibration: null };
  } catch (error) {
    if (!(error instanceof PlayoutsTooLong || error instanceof FitTooLong)) throw error;
    const budget = error instanceof FitTooLong ? `${FIT_EQUITY_MS / 1000} s of fitting` : `${PLAYOUT_EQUITY_MS / 1000} s of play-outs`;
    return {
      equity: null,
      calibration: null,
      reason: `this table's games are too long to measure the chance to win in ${budget} (${error.message})`,
    };
  }
}

/**
 * The equity a table's advice reads (shipped, else computed once per rules and size), or the
 * reason there is none; kept per rules and size, so that advice (every request asks) never looks
 * for shipped files again. With `unmeasured` (a reason) an equity not yet known is not computed:
 * that reason is given instead (and nothing is kept).
 */
export function equityForTable(rules: Rules, players: number, unmeasured?: string): TableEquity {
  const key = `${players} ${rulesJson(rules)}`;
  let found = computed.get(key);
  if (!found) {
    const shipped = shippedEquityFor(rules, players);
    const reason = shipped ? null : equityUnavailable(rules);
    if (!shipped && reason === null && unmeasured !== undefined) return { equity: null, calibration: null, reason: unmeasured };
    found = shipped
      ? { equity: shipped, source: 'shipped', calibration: shippedCalibrationFor(rules, players) }
      : reason === null
        ? measured(rules, players)
        : { equity: null, calibration: null, reason };
    computed.set(key, found);
  }
  return found;
}
