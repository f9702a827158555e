// What card sites have (issue 42 §4), the page's pure parts: the "what just happened" line in the
// move log's words, the running score across Play again, the standings chart's lines, the
// player's statistics (each game counted once; bad or old stored data starts afresh), which sound
// each change makes, and where each play's cards fly.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Msg } from '../../serve/index.js';
import { routeOf } from '../../web/flights.js';
import { type Game, type RoundResult, type TableInfo, dismissResult, newGame, nextSeries, receive } from '../../web/game.js';
import { whatHappened } from '../../web/happened.js';
import { moveInWords } from '../../web/moveWords.js';
import { seriesText, seriesWins } from '../../web/series.js';
import { cueOf } from '../../web/sound.js';
import { linePoints, totalsByRound } from '../../web/standings.js';
import { NO_STATS, countGame, parseStats } from '../../web/stats.js';
import { loadStats, saveStats, loadTable, saveTable } from '../../web/storage.js';

const info: TableInfo = {
  ...{ table: 't-1', token: 'k', preset: 'standard', rules: {}, settledRules: {}, players: 3 },
  seats: [
    { seat: 0, player: 'client' },
    { seat: 1, player: 'guest', agent: 'strong', name: 'Dana', present: true },
    { seat: 2, player: 'bot', agent: 'strong' },
  ],
  ...{ thinkMs: 0, moveDeadlineMs: null, invite: null, lobby: false },
};

function event(counter: number, actor: number, kind: Msg<'event'>['kind'], cards: string[], table = 't-1'): Msg<'event'> {
  return { type: 'event', table, seat: 0, counter, actor, kind, action: 0, text: kind, cards, reshuffled: false, timeout: false };
}

function round(change: Partial<RoundResult>): RoundResult {
  return {
    ...{ round: 1, outcome: 'yaniv', caller: 0, winner: 0, hands: [[], [], []], handValues: [3, 10, 12], points: [0, 10, 12] },
    ...{ totalsBefore: [0, 0, 0], totals: [0, 10, 12], eliminated: [], adjustments: [null, null, null] },
    ...change,
  };
}

function over(winner: number, table = 't-1'): Msg<'game_over'> {
  return { type: 'game_over', table, winner, totals: [0, 0, 0], seed: 1, truncated: false, record: {} } as unknown as Msg<'game_over'>;
}

const finished = (rounds: RoundResult[], winner: number, table = 't-1'): Game => ({
  ...newGame({ ...info, table }),
  rounds,
  over: over(winner, table),
});

describe('what just happened', () => {
  it("says the latest turn in the move log's words, the cards as glyphs (and in words for screen readers)", () => {
    let game = newGame(info);
    expect(whatHappened(game)).toBeNull();
    game = [event(1, 1, 'discard', ['7S', '7D']), event(2, 1, 'take', ['3C'])].reduce(receive, game);
    expect(whatHappened(game)).toBe('Dana laid 7♠ 7♦ and took 3♣.');
    expect(whatHappened(game, moveInWords)).toBe('Dana laid 7 of spades, 7 of diamonds and took 3 of clubs.');
    game = receive(game, event(3, 2, 'discard', ['JK']));
    expect(whatHappened(game)).toBe('Strong bot (seat 3) laid ★ joker.');
    game = receive(game, event(4, 2, 'draw', []));
    expect(whatHappened(game)).toBe('Strong bot (seat 3) laid ★ joker and drew from the deck.');
  });

  it('once the round is over, says how it ended: "… called Yaniv with 4: Assaf! …"', () => {
    const game = receive(receive(newGame(info), event(1, 2, 'yaniv', [])), {
      ...{ type: 'round_end', table: 't-1', seat: 0, counter: 2, round: 1, outcome: 'assaf', caller: 2, winner: 0 },
      ...{ hands: [['AS'], ['KS'], ['4S']], handValues: [1, 10, 4], points: [0, 10, 34], totals: [0, 10, 34], eliminated: [] },
    });
    expect(whatHappened(game)).toBe('Strong bot (seat 3) called Yaniv with 4: Assaf! You had 1.');
  });
});

describe('the end of a game a player is out of', () => {
  it("shows the game over with the last round's result, not in an earlier one's still open", () => {
    const end = (n: number): Msg<'round_end'> => ({
      ...{ type: 'round_end', table: 't-1', seat: 0, counter: n * 10, round: n, outcome: 'yaniv', caller: 1, winner: 1 },
      ...{ hands: [null, [], []], handValues: [null, 3, 12], points: [null, 0, 12], totals: [20, 0, 12 * n], eliminated: [] },
    });
    const shown = [end(1), end(2), over(1)].reduce(receive, newGame(info));
    expect([shown.unseenResult?.round, shown.over]).toEqual([1, null]);
    const last = dismissResult(shown);
    expect([last.unseenResult?.round, last.over?.winner, last.queued]).toEqual([2, 1, []]);
    // The last round's result and the game's end together: the end is shown with it at once.
    expect(receive(receive(newGame(info), end(1)), over(1)).over?.winner).toBe(1);
  });
});

describe('the running score across Play again', () => {
  it('counts the games each seat won, this one once it is over, and says nothing before the first ends', () => {
    const first = newGame(info);
    expect(seriesText(first)).toBeNull();
    const second = newGame({ ...info, table: 't-2' }, { rounds: [], log: [], roundStartedAt: 0, series: nextSeries(finished([], 1)) });
    expect(seriesWins(second)).toEqual([0, 1, 0]);
    expect(seriesText(second)).toBe('Games won (1 played): You 0, Dana 1, Strong bot (seat 3) 0');
    const third = { ...second, over: over(0, 't-2') };
    expect(seriesWins(third)).toEqual([1, 1, 0]);
    expect(nextSeries(third)).toEqual({ winners: [1, 0] });
  });

  it('keeps the series across a reload with the table, and reads a malformed one as none', () => {
    saveTable({ table: 't-2', token: 'x', rounds: [], log: [], roundStartedAt: 0, series: { winners: [1, 0] } });
    expect(loadTable()?.series).toEqual({ winners: [1, 0] });
    saveTable({ table: 't-2', token: 'x', rounds: [], log: [], roundStartedAt: 0, series: { winners: ['x'] } as never });
    expect(loadTable()?.series).toBeUndefined();
  });

  it("draws each seat's total by round, from 0, highest at the top", () => {
    const game = finished([round({}), round({ round: 2, totals: [5, 30, 12] })], 0);
    expect(totalsByRound(game)).toEqual([
      [0, 0, 5],
      [0, 10, 30],
      [0, 12, 12],
    ]);
    const [, , last] = linePoints([0, 10, 30], 2, 30).split(' ');
    expect(last).toBe('312.0,8.0');
  });
});

describe('your statistics', () => {
  it('counts a finished game once: games, wins, calls, Assafs given and suffered, streaks', () => {
    const rounds = [
      round({}),
      round({ round: 2, outcome: 'assaf', caller: 0, winner: 1 }),
      round({ round: 3, outcome: 'assaf', caller: 2, winner: 0 }),
    ];
    const once = countGame(NO_STATS, finished(rounds, 0));
    expect(once).toMatchObject({ games: 1, wins: 1, yanivCalls: 2, yanivsWon: 1, assafsGiven: 1, assafsSuffered: 1 });
    expect(once).toMatchObject({ streak: 1, bestStreak: 1, counted: ['t-1'] });
    expect(countGame(once, finished(rounds, 0))).toBe(once);
    const twice = countGame(once, finished([], 0, 't-2'));
    expect(twice).toMatchObject({ games: 2, wins: 2, streak: 2, bestStreak: 2 });
    expect(countGame(twice, finished([], 2, 't-3'))).toMatchObject({ games: 3, wins: 2, streak: 0, bestStreak: 2 });
    expect(countGame(twice, newGame({ ...info, table: 't-4' }))).toBe(twice);
  });

  it('reads back what it kept, and anything else (damaged, old, inconsistent) as none', () => {
    const kept = countGame(NO_STATS, finished([round({})], 0));
    saveStats(kept);
    expect(loadStats()).toEqual(kept);
    for (const bad of [
      'not json',
      '3',
      'null',
      '{"games":1}',
      JSON.stringify({ ...kept, wins: -1 }),
      JSON.stringify({ ...kept, wins: 9 }),
    ]) {
      localStorage.setItem('yaniv-arena.stats', bad);
      expect(loadStats(), bad).toEqual(NO_STATS);
    }
    expect(parseStats({ ...kept, counted: [1] })).toBeNull();
  });
});

describe('sounds and flights', () => {
  it('sounds your turn, a discard, a Yaniv or an Assaf, and nothing else', () => {
    const game = receive(newGame(info), event(1, 1, 'discard', ['7S']));
    expect(cueOf(newGame(info), game, false, false)).toBe('discard');
    expect(cueOf(game, receive(game, event(2, 1, 'draw', [])), false, false)).toBeNull();
    expect(cueOf(game, game, true, false)).toBe('turn');
    expect(cueOf(game, { ...game, rounds: [round({ outcome: 'assaf' })] }, false, false)).toBe('assaf');
  });

  it('flies a laid card from the player to the pile and a drawn one from the deck or the group to the hand', () => {
    expect(routeOf({ kind: 'discard', actor: 0 }, 0)).toEqual({ from: ['.hand .cards'], to: ['.laid', '.previous .cards', '.pile'] });
    expect(routeOf({ kind: 'draw', actor: 2 }, 0)).toEqual({ from: ['.deck'], to: ['.seat[data-seat="2"]'] });
    expect(routeOf({ kind: 'take', actor: 0 }, 0)?.to).toEqual(['.hand .cards']);
    expect(routeOf({ kind: 'yaniv', actor: 0 }, 0)).toBeNull();
  });
});

/** A Storage kept in a Map. */
function storage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

beforeEach(() => Object.assign(globalThis, { sessionStorage: storage(), localStorage: storage() }));
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'sessionStorage');
  Reflect.deleteProperty(globalThis, 'localStorage');
});
