/**
 * How honest the chance to win the advisor shows is: whole games played by an agent at every
 * seat, at one decision of each round (drawn at random) the chance the advice would show the
 * seat to move — its pick played out from its view (agents/equity/moveOutlook.ts), exactly the
 * advice's `win.probability`, through the table's shipped calibration map where one ships
 * (agents/equity/calibrationMap.ts; the chance before it kept too, to fit a map to) — and whether that
 * seat went on to win the game. Binned by decile of
 * the shown chance, each decile's mean shown chance against the share of its positions won, with
 * a 95% interval that counts whole games, not positions (`effectivePositions`: the positions of
 * one game share its outcome). The picture and the command: cli/calibrate.ts; the figures:
 * models/README.md.
 */
import { z } from 'zod';
import { Episode, parseEnvOptions } from '../../env/gym/episode.js';
import { Table } from '../../env/gym/table.js';
import type { Agent } from '../../env/gym/agent.js';
import { mixSeed, randomInt, seededRng } from '../../env/rules/random.js';
import { equityForTable } from './equityPlayouts.js';
import { moveOutlooks, OUTLOOK_DEFAULTS, type OutlookBudget } from './moveOutlook.js';
import { type CalibrationMap, calibrateEstimate } from './calibrationMap.js';
import { wilson as wilsonInterval } from '../tournament/stats.js';

export interface CalibrationOptions {
  readonly preset: string;
  readonly rules: Record<string, unknown>;
  readonly players: number;
  /** One agent per seat. */
  readonly agents: readonly Agent[];
  readonly games: number;
  readonly seed: number;
  readonly budget?: OutlookBudget;
  readonly onProgress?: (done: number) => void;
}

/** The positions measured, and the calibration map the chances were shown through (null: none ships for the table). */
export interface ShownChances {
  readonly positions: Shown[];
  readonly calibration: CalibrationMap | null;
}

/** One position: the chance shown (through the map), the chance played out (before it), and whether the seat to move won the game. */
export interface Shown {
  readonly shown: number;
  readonly raw: number;
  readonly won: boolean;
  readonly game: number;
}

/** Whole turns after which a game is left out unfinished. */
const TURN_CAP = 20_000;

/** Plays the games and records one shown chance per round (at a decision drawn at random) with the outcome. */
export function measureShownChances(options: CalibrationOptions): ShownChances {
  const { players, agents, games, seed } = options;
  const config = parseEnvOptions({
    preset: options.preset,
    rules: options.rules,
    players,
    episode: 'game',
    maxTurns: TURN_CAP,
    history: false,
  });
  const table = new Table(new Episode(config));
  const rules = table.episode.rules;
  const { equity, calibration, reason } = equityForTable(rules, players);
  if (!equity) throw new Error(reason);
  const rng = seededRng(mixSeed(seed, 0xca1));
  const shown: Shown[] = [];
  for (let game = 0; game < games; game++) {
    agents.forEach((agent, seat) => agent.reset(mixSeed(seed, game, seat + 1)));
    table.reset({ seed: mixSeed(seed, game) });
    const s = table.episode.state;
    const inGame: { raw: number; seat: number }[] = [];
    let round = -1;
    let askAt = 0;
    let decision = 0;
    while (table.seat >= 0) {
      if (s.round !== round) {
        round = s.round;
        decision = 0;
        askAt = randomInt(rng, 0, 6 * players);
      }
      const seat = table.seat;
      const input = table.input();
      const { action } = agents[seat].act(input);
      if (decision++ === askAt) {
        const [pick] = moveOutlooks(input.view, [action], equity, mixSeed(seed, game, round), options.budget ?? OUTLOOK_DEFAULTS);
        if (pick.win) inGame.push({ raw: pick.win.mean, seat });
      }
      table.step(action);
    }
    options.onProgress?.(game + 1);
    if (s.winner < 0) continue;
    for (const { raw, seat } of inGame) {
      const { mean } = calibrateEstimate(calibration, { mean: raw, low: raw, high: raw });
      shown.push({ shown: mean, raw, won: seat === s.winner, game });
    }
  }
  return { positions: shown, calibration };
}

/** The target: every judged decile's share won within this many points (as a share) of its mean shown chance. */
export const CALIBRATION_TARGET = 0.03;

const share = z.number().min(0).max(1);

/** One decile of the shown chance, as `yaniv calibrate --json` writes it (models/calibration/*.json). */
export const decileSchema = z.strictObject({
  /** The decile of the shown chance: [low, high). */
  low: share,
  high: share,
  positions: z.int().min(1),
  /**
   * The positions counted as independent once the correlation within a game is allowed for
   * (`effectivePositions`): what the interval below is computed from.
   */
  effectivePositions: z.number().positive(),
  /** The mean shown chance. */
  predicted: share,
  /** The share won, with its 95% Wilson interval at the effective number of positions. */
  actual: share,
  actualLow: share,
  actualHigh: share,
  /**
   * Held to the target: its 95% interval's half-width is at most the target (about 1,070 effective
   * positions at a share near 50%, 385 near 10%), so that a gap of ±3 points can be told from
   * noise. A decile worth fewer is reported with its gap but not judged.
   */
  judged: z.boolean(),
});

export type Decile = Readonly<z.infer<typeof decileSchema>>;

/** The 95% Wilson interval of `wins` in `n`, as a pair (the bench's interval, agents/tournament/stats.ts). */
export function wilson(wins: number, n: number): [number, number] {
  const { low, high } = wilsonInterval(wins, n);
  return [low, high];
}

/** The largest |share won − mean shown chance| over the judged deciles (0 when none is judged). */
export function worstGap(deciles: readonly Decile[]): number {
  return Math.max(0, ...deciles.filter((d) => d.judged).map((d) => Math.abs(d.actual - d.predicted)));
}

/**
 * How many independent positions a decile's positions are worth, given that the positions of one
 * game share its outcome: n divided by the design effect, the variance of the share won over
 * whole games (the ratio estimator's cluster-robust variance, G/(G−1)·Σ_g (w_g − p·n_g)²/n², what
 * a bootstrap resampling whole games estimates, without its noise) against the binomial p(1−p)/n.
 * Never more than n; when every position was won (or lost) the games are counted, not the positions.
 */
export function effectivePositions(inside: readonly Pick<Shown, 'won' | 'game'>[]): number {
  const byGame = new Map<number, [won: number, positions: number]>();
  for (const { won, game } of inside) {
    const sums = byGame.get(game) ?? [0, 0];
    sums[0] += won ? 1 : 0;
    sums[1]++;
    byGame.set(game, sums);
  }
  const n = inside.length;
  const games = byGame.size;
  if (games < 2) return games;
  const p = inside.filter((x) => x.won).length / n;
  const binomial = (p * (1 - p)) / n;
  if (binomial === 0) return games;
  let squares = 0;
  for (const [won, positions] of byGame.values()) squares += (won - p * positions) ** 2;
  const clustered = ((games / (games - 1)) * squares) / (n * n);
  return clustered === 0 ? n : Math.min(n, (n * binomial) / clustered);
}

/** The positions by decile of the shown chance (empty deciles left out). */
export function reliability(shown: readonly Pick<Shown, 'shown' | 'won' | 'game'>[]): Decile[] {
  const deciles: Decile[] = [];
  for (let d = 0; d < 10; d++) {
    const inside = shown.filter((x) => Math.min(Math.floor(x.shown * 10), 9) === d);
    if (inside.length === 0) continue;
    const wins = inside.filter((x) => x.won).length;
    const effective = effectivePositions(inside);
    const [actualLow, actualHigh] = wilson((wins / inside.length) * effective, effective);
    deciles.push({
      low: d / 10,
      high: (d + 1) / 10,
      positions: inside.length,
      effectivePositions: effective,
      predicted: inside.reduce((a, x) => a + x.shown, 0) / inside.length,
      actual: wins / inside.length,
      actualLow,
      actualHigh,
      judged: (actualHigh - actualLow) / 2 <= CALIBRATION_TARGET,
    });
  }
  return deciles;
}
