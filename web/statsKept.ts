/**
 * The player's statistics as the page keeps them (web/stats.ts counts, web/storage.ts stores):
 * each finished game counted once, as it ends, and their reset once the player confirms it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Game } from './game.js';
import { NO_STATS, type Stats, countGame } from './stats.js';
import { loadStats, saveStats } from './storage.js';

/** The statistics, and the reset the stats panel offers (countGame skips a table counted before). */
export function useStats(game: Game | null): [Stats, () => void] {
  const [stats, setStats] = useState(loadStats);
  useEffect(() => {
    if (game?.over == null) return;
    const kept = loadStats();
    const counted = countGame(kept, game);
    if (counted === kept) return;
    saveStats(counted);
    setStats(counted);
  }, [game?.over, game?.info.table]);
  const reset = () => {
    if (!window.confirm('Reset your statistics? This cannot be undone.')) return;
    // The games counted stay remembered, so that a reload of a finished game does not count it again.
    const fresh = { ...NO_STATS, counted: stats.counted };
    saveStats(fresh);
    setStats(fresh);
  };
  return [stats, reset];
}
