/**
 * What the page keeps: in this tab's sessionStorage, so that a reload or a reconnect takes the
 * table back: its id and resume token, the round results shown so far and the round's plays
 * (the server sends each round_end and event once: a resume tells only the state), and the
 * access token the player typed; in localStorage, the advisor as the player left it, whether
 * sounds are on, and the player's statistics (web/stats.ts).
 */
import type { KeptPlays, Series } from './game.js';
import type { TableChoice } from './setup.js';
import { NO_STATS, type Stats, parseStats } from './stats.js';

const KEY = 'yaniv-arena.table';

/** The table, its token (the creator's, or a friend's own seat's), and the plays the server told once (KeptPlays). */
export interface SavedTable extends KeptPlays {
  readonly table: string;
  readonly token: string;
  /** How it was dealt: a table the server no longer has is dealt again like it in one click. */
  readonly settings?: TableChoice;
}

export function saveTable(saved: SavedTable): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(saved));
  } catch {
    // storage full or disabled: the page still plays, it only cannot come back after a reload
  }
}

export function loadTable(): SavedTable | null {
  try {
    const text = sessionStorage.getItem(KEY);
    if (text === null) return null;
    const saved = JSON.parse(text) as Partial<SavedTable>;
    if (typeof saved.table !== 'string' || typeof saved.token !== 'string' || !Array.isArray(saved.rounds)) return null;
    const settings = typeof saved.settings === 'object' && saved.settings !== null ? { settings: saved.settings } : {};
    const log = Array.isArray(saved.log) ? saved.log : [];
    const roundStartedAt = typeof saved.roundStartedAt === 'number' ? saved.roundStartedAt : 0;
    const series = seriesOf(saved.series);
    return { table: saved.table, token: saved.token, rounds: saved.rounds, log, roundStartedAt, ...series, ...settings };
  } catch {
    return null;
  }
}

/** A kept series read back: the winners' seats (nothing when there is none, or it is malformed: a first game). */
function seriesOf(value: unknown): { series?: Series } {
  const winners = (value as Partial<Series> | null | undefined)?.winners;
  return Array.isArray(winners) && winners.every((w) => Number.isInteger(w) && (w as number) >= 0) ? { series: { winners } } : {};
}

export function forgetTable(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}

const TOKEN_KEY = 'yaniv-arena.token';

/** The server's access token the player typed in (kept for this tab only). */
export function saveToken(token: string): void {
  try {
    sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // not kept: the player types it again after a reload
  }
}

export function loadToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

const ADVISOR_KEY = 'yaniv-arena.advisor';

/** The advisor as the player left it: on or off, and the bot that advises (kept across reloads and visits). */
export interface AdvisorChoice {
  readonly on: boolean;
  readonly agent: string;
}

export function saveAdvisor(choice: AdvisorChoice): void {
  try {
    localStorage.setItem(ADVISOR_KEY, JSON.stringify(choice));
  } catch {
    // not kept
  }
}

export function loadAdvisor(): AdvisorChoice | null {
  try {
    const saved = JSON.parse(localStorage.getItem(ADVISOR_KEY) ?? 'null') as Partial<AdvisorChoice> | null;
    return typeof saved?.on === 'boolean' && typeof saved.agent === 'string' ? { on: saved.on, agent: saved.agent } : null;
  } catch {
    return null;
  }
}

const SOUND_KEY = 'yaniv-arena.sound';

/** Whether the player turned sounds on (off unless they did). */
export function loadSound(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

export function saveSound(on: boolean): void {
  try {
    localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
  } catch {
    // not kept
  }
}

const STATS_KEY = 'yaniv-arena.stats';

/** The player's statistics in this browser: what was kept if it reads back whole, else none (bad or old data starts afresh). */
export function loadStats(): Stats {
  try {
    return parseStats(JSON.parse(localStorage.getItem(STATS_KEY) ?? 'null')) ?? NO_STATS;
  } catch {
    return NO_STATS;
  }
}

export function saveStats(stats: Stats): void {
  try {
    localStorage.setItem(STATS_KEY, JSON.stringify(stats));
  } catch {
    // not kept
  }
}
