/**
 * What the page keeps in this tab's sessionStorage so that a reload or a reconnect takes the
 * table back: its id and resume token, and the round results shown so far (the server sends
 * each round_end once).
 */
import type { RoundResult } from './game.js';

const KEY = 'yaniv-arena.table';

export interface SavedTable {
  readonly table: string;
  readonly token: string;
  readonly rounds: readonly RoundResult[];
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
    return typeof saved.table === 'string' && typeof saved.token === 'string' && Array.isArray(saved.rounds)
      ? { table: saved.table, token: saved.token, rounds: saved.rounds }
      : null;
  } catch {
    return null;
  }
}

export function forgetTable(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
