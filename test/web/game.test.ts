// The page's model of a table (web/game.ts): a whole server game folded message by message gives
// the round results that `replay` reads from the game's record, and each seat's latest turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecord, replay } from '../../env/index.js';
import type { Msg, RunningServer, ServerMessage } from '../../serve/index.js';
import {
  type Game,
  type TableInfo,
  currentTotals,
  dismissResult,
  isGuest,
  logEnded,
  mySeat,
  newGame,
  previousLayer,
  receive,
  seatName,
  standingIn,
} from '../../web/game.js';
import { TestClient, playToEnd, startTestServer } from '../serve/helpers.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ agents: ['intermediate', 'novice'] });
});
afterAll(() => server.close());

/** The page's model after these frames, for a player who puts each round result away before the next round's first play. */
function fold(info: TableInfo, frames: readonly ServerMessage[]): Game {
  return frames.reduce(receiveSeen, newGame(info));
}

function receiveSeen(game: Game, frame: ServerMessage): Game {
  return receive(game.unseenResult === null || frame.type !== 'event' ? game : dismissResult(game), frame);
}

describe('web/game', () => {
  it("folds a whole game into the record's round results, milestones included", async () => {
    const client = await TestClient.greeted(server.url);
    const created = await client.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'intermediate', 'novice'],
      // Seed 2 under these rules: an Assaf, a milestone (50 → 25) and the robbery it causes.
      seed: 2,
      rules: { eliminationLimit: 100, milestoneRobbery: true },
    });
    const over = await playToEnd(client, created.table);
    const game = fold(created, client.frames);
    const result = replay(parseRecord(over.record)).result;
    if (!result.ok) throw new Error(result.error);
    expect(game.rounds.length).toBe(result.rounds.length);
    expect(
      game.rounds.map(({ outcome, caller, handValues, points, totals, eliminated, winner }) => ({
        outcome,
        caller,
        handValues,
        points,
        totals,
        eliminated,
        winner,
      })),
    ).toEqual(result.rounds);
    for (const [i, round] of game.rounds.entries()) {
      expect(round.totalsBefore).toEqual(i === 0 ? [0, 0, 0] : game.rounds[i - 1].totals);
      round.adjustments.forEach((note, seat) => {
        const sum = round.totalsBefore[seat] + (round.points[seat] ?? 0);
        expect(note === null).toBe(round.points[seat] === null || sum === round.totals[seat]);
        if (note !== null) expect(note).toMatch(round.totals[seat] < sum ? /^milestone: \d+ → \d+$/ : /^robbed: \+\d+$/);
      });
    }
    expect(game.rounds.map((r) => r.outcome)).toContain('assaf');
    expect(game.rounds.flatMap((r) => r.adjustments.filter((note) => note !== null))).toEqual(['milestone: 50 → 25', 'robbed: +30']);
    expect(game.over).toMatchObject({ winner: result.winner, totals: result.totals });
    expect(currentTotals(game)).toEqual(result.totals);
    // After each round, the totals shown are that round's, also once the client is out (no more states).
    let folded = newGame(created);
    for (const frame of client.frames) {
      folded = receiveSeen(folded, frame);
      if (frame.type === 'round_end' && frame.table === created.table) expect(currentTotals(folded)).toEqual(frame.totals);
    }
    expect(game.unseenResult).toBe(game.rounds[game.rounds.length - 1]);
    expect(dismissResult(game).unseenResult).toBeNull();
    await client.close();
  });

  it('names who laid the previous group at every state of a whole game (nobody for the card turned up at the deal)', async () => {
    const client = await TestClient.greeted(server.url);
    const created = await client.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'intermediate', 'novice', 'novice'],
      seed: 5,
      rules: { eliminationLimit: 60 },
    });
    await playToEnd(client, created.table);
    let game = newGame(created);
    let checked = 0;
    for (const frame of client.frames) {
      game = receiveSeen(game, frame);
      if (frame.type !== 'state' || frame.table !== created.table || frame.toMove === null) continue;
      const { previous, current, turn } = frame.view;
      const layer = previousLayer(game, current);
      if (turn === 0) {
        expect(layer).toBeNull();
        continue;
      }
      expect(layer).not.toBeNull();
      const laid = [...(game.turns[layer?.seat ?? -1]?.steps[0].cards ?? [])];
      for (const card of previous.cards) laid.splice(laid.indexOf(card), laid.includes(card) ? 1 : 0);
      expect(laid.length + previous.cards.length).toBe(game.turns[layer?.seat ?? -1]?.steps[0].cards.length);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
    await client.close();
  });

  it('holds the next round back while a round result waits for the player, and logs each round’s plays in order', async () => {
    const client = await TestClient.greeted(server.url);
    const created = await client.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'intermediate', 'novice'],
      seed: 7,
      rules: { eliminationLimit: 100 },
    });
    await playToEnd(client, created.table);
    const frames = client.frames.filter((m) => 'table' in m && m.table === created.table);
    const firstEnd = frames.findIndex((m) => m.type === 'round_end');
    const secondEnd = frames.findIndex((m, i) => i > firstEnd && m.type === 'round_end');
    expect(secondEnd).toBeGreaterThan(firstEnd);
    const events = (from: number, to: number) => frames.slice(from, to).filter((m): m is Msg<'event'> => m.type === 'event');

    // Nobody dismisses the first result: everything after it waits, the first round's plays stay in the log.
    const waiting = frames.slice(0, secondEnd).reduce(receive, newGame(created));
    const lastBefore = frames.slice(0, firstEnd).findLast((m) => m.type === 'state');
    expect(waiting.state).toBe(lastBefore);
    expect(waiting.unseenResult?.round).toBe(1);
    const playFrames = ['state', 'event', 'round_end'];
    expect(waiting.queued).toEqual(frames.slice(firstEnd + 1, secondEnd).filter((m) => playFrames.includes(m.type)));
    expect(waiting.log).toEqual(events(0, firstEnd));
    expect(waiting.log.at(-1)?.kind).toBe('yaniv');
    expect(logEnded(waiting)).toBe(true);

    // Dismissed: the second round as it went so far, its plays alone in the log, in the server's order.
    const shown = dismissResult(waiting);
    expect(shown.queued).toEqual([]);
    expect(shown.state).toBe(frames.slice(0, secondEnd).findLast((m) => m.type === 'state'));
    expect(shown.log).toEqual(events(firstEnd + 1, secondEnd));
    expect(logEnded(shown)).toBe(false);
    // The second round_end, arriving while nothing waits, opens its result; messages after it wait again.
    const next = receive(shown, frames[secondEnd]);
    expect(next.unseenResult?.round).toBe(2);
    await client.close();
  });

  it("keeps each seat's latest turn, and ignores other tables' messages", () => {
    const info: TableInfo = {
      table: 't-1',
      token: 'x',
      preset: 'standard',
      rules: {},
      settledRules: {},
      players: 2,
      seats: [
        { seat: 0, player: 'client' },
        { seat: 1, player: 'bot', agent: 'strong' },
      ],
      thinkMs: 0,
      moveDeadlineMs: null,
      invite: null,
      lobby: false,
    };
    const event = (counter: number, actor: number, kind: Msg<'event'>['kind'], text: string, table = 't-1'): Msg<'event'> => ({
      type: 'event',
      table,
      seat: 0,
      counter,
      actor,
      action: 1,
      kind,
      text,
      cards: [],
      reshuffled: false,
      timeout: false,
    });
    const game = fold(info, [
      event(1, 1, 'discard', 'discard 9S'),
      event(2, 1, 'draw', 'draw from the deck'),
      event(3, 0, 'discard', 'discard KH'),
      event(4, 0, 'take', 'take 9S'),
      event(5, 1, 'discard', 'discard 4C 4D'),
      event(6, 1, 'draw', 'draw from the deck', 't-2'),
    ]);
    expect(game.turns.map((turn) => turn?.steps.map((s) => s.text))).toEqual([['discard KH', 'take 9S'], ['discard 4C 4D']]);
    expect(game.turns[1]?.counter).toBe(5);
    expect([mySeat(game), seatName(game, 0), seatName(game, 1)]).toEqual([0, 'You', 'Strong bot (seat 2)']);
  });

  it("names a friend's table from each side, follows who joined, and rebuilds each seat's last move from a kept log", () => {
    const seats: TableInfo['seats'] = [
      { seat: 0, player: 'client' },
      { seat: 1, player: 'guest', agent: 'strong', present: false },
      { seat: 2, player: 'bot', agent: 'level:3' },
    ];
    const base = {
      table: 't-1',
      token: 'x',
      preset: 'standard',
      rules: {},
      settledRules: {},
      players: 3,
      thinkMs: 0,
      moveDeadlineMs: null,
    };
    const host = newGame({ ...base, seats, invite: { code: 't-1.s', expiresAt: 1 }, lobby: true });
    const names = (game: Game) => [0, 1, 2].map((seat) => seatName(game, seat));
    expect(names(host)).toEqual(['You', 'Friend (seat 2)', 'Level 3 bot (seat 3)']);
    expect([isGuest(host), standingIn(host, 1)]).toEqual([false, true]);
    const joined = receive(host, {
      type: 'seats',
      table: 't-1',
      seats: [seats[0], { ...seats[1], name: 'Dana', present: true }, seats[2]],
      lobby: false,
    });
    expect([names(joined), joined.info.lobby, standingIn(joined, 1)]).toEqual([['You', 'Dana', 'Level 3 bot (seat 3)'], false, false]);
    const friend = newGame({ ...joined.info, invite: null, seat: 1 });
    expect([mySeat(friend), isGuest(friend), names(friend)]).toEqual([1, true, ['Host', 'You', 'Level 3 bot (seat 3)']]);
    const laid: Msg<'event'> = {
      ...{ type: 'event', table: 't-1', seat: 1, counter: 3, actor: 2, action: 1, kind: 'discard', text: 'discard 9S' },
      ...{ cards: ['9S'], reshuffled: false, timeout: false },
    };
    const back = newGame(friend.info, {
      rounds: [],
      log: [laid, { ...laid, counter: 4, kind: 'draw', text: 'draw', cards: [] }],
      roundStartedAt: 0,
    });
    expect(back.turns.map((turn) => turn?.steps.map((step) => step.kind) ?? null)).toEqual([null, null, ['discard', 'draw']]);
    expect(back.log).toHaveLength(2);
  });
});
