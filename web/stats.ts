/**
 * The player's own statistics, kept in this browser (localStorage, web/storage.ts): games, wins,
 * Yaniv calls and how many won the round, Assafs given and suffered, the current and best win
 * streak. Each finished game is counted once (its table id is remembered, so a reload or a resume
 * that tells the game's end again counts nothing). What is read back is checked field by field:
 * anything else (damaged, or written by another version) starts the statistics afresh.
 */
import { type Game, mySeat } from './game.js';

export interface Stats {
  readonly games: number;
  readonly wins: number;
  readonly yanivCalls: number;
  /** Calls that won the round (not Assaf'ed). */
  readonly yanivsWon: number;
  /** Rounds where the player caught another's call (Assaf!). */
  readonly assafsGiven: number;
  /** The player's calls caught by someone else. */
  readonly assafsSuffered: number;
  readonly streak: number;
  readonly bestStreak: number;
  /** The tables already counted (the latest few). */
  readonly counted: readonly string[];
}

export const NO_STATS: Stats = {
  games: 0,
  wins: 0,
  yanivCalls: 0,
  yanivsWon: 0,
  assafsGiven: 0,
  assafsSuffered: 0,
  streak: 0,
  bestStreak: 0,
  counted: [],
};

/** The counters, in the order the panel shows them, with their words. */
export const STAT_WORDS: readonly (readonly [Exclude<keyof Stats, 'counted'>, string])[] = [
  ['games', 'Games'],
  ['wins', 'Wins'],
  ['yanivCalls', 'Yaniv calls'],
  ['yanivsWon', 'Yaniv calls that won the round'],
  ['assafsGiven', 'Assafs you gave'],
  ['assafsSuffered', 'Assafs you suffered'],
  ['streak', 'Current win streak'],
  ['bestStreak', 'Best win streak'],
];

/** How many table ids are remembered as counted (a resume comes back to one of the latest). */
const COUNTED_KEPT = 20;

/** The statistics with a finished game counted (unchanged when it is not over or was counted already). */
export function countGame(stats: Stats, game: Game): Stats {
  if (game.over === null || stats.counted.includes(game.info.table)) return stats;
  const me = mySeat(game);
  const won = game.over.winner === me;
  const mine = game.rounds.filter((r) => r.caller === me && (r.outcome === 'yaniv' || r.outcome === 'assaf'));
  const streak = won ? stats.streak + 1 : 0;
  return {
    games: stats.games + 1,
    wins: stats.wins + (won ? 1 : 0),
    yanivCalls: stats.yanivCalls + mine.length,
    yanivsWon: stats.yanivsWon + mine.filter((r) => r.outcome === 'yaniv').length,
    assafsGiven: stats.assafsGiven + game.rounds.filter((r) => r.outcome === 'assaf' && r.winner === me && r.caller !== me).length,
    assafsSuffered: stats.assafsSuffered + mine.filter((r) => r.outcome === 'assaf').length,
    streak,
    bestStreak: Math.max(stats.bestStreak, streak),
    counted: [...stats.counted, game.info.table].slice(-COUNTED_KEPT),
  };
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Stored statistics read back: every counter a whole number ≥ 0 and the table ids strings, else null (start afresh). */
export function parseStats(value: unknown): Stats | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const counts = Object.fromEntries(STAT_WORDS.map(([key]) => [key, record[key]]));
  if (!Object.values(counts).every(isCount)) return null;
  const { counted } = record;
  if (!Array.isArray(counted) || !counted.every((id) => typeof id === 'string')) return null;
  const stats = { ...(counts as Omit<Stats, 'counted'>), counted: counted };
  return stats.wins <= stats.games && stats.streak <= stats.bestStreak ? stats : null;
}
