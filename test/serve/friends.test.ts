// Tables people join (issue 42): a creator's table with guest seats, friends joining with its
// invite on their own connections, each told only its own seat (the leak checks of leaks.ts on
// every connection), its own advice, its own token to come back with; an away guest's seat played
// by the stand-in bot; bad, used-up and expired invites refused with the field named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Msg, RunningServer, ServerMessage } from '../../serve/index.js';
import { TestClient, chooser, playToEnd, startTestServer, until } from './helpers.js';
import { asSeenBy, checkNoLeaks, onlyOwnSeat } from './leaks.js';

let server: RunningServer;
let quick: RunningServer;
let patient: RunningServer;

beforeAll(async () => {
  // The stand-in plays an away guest's turn at once here; `patient` keeps it for the guest.
  server = await startTestServer({ standInMs: 0 });
  quick = await startTestServer({ inviteMs: 1000 });
  patient = await startTestServer({ standInMs: 600_000 });
});
afterAll(async () => {
  await server.close();
  await quick.close();
  await patient.close();
});

const RULES = { preset: 'standard', rules: { eliminationLimit: 60 } };

async function createWithGuests(
  seats: string[],
  seed: number,
  url = server.url,
): Promise<{ creator: TestClient; created: Msg<'table_created'> }> {
  const creator = await TestClient.greeted(url);
  const created = await creator.request<Msg<'table_created'>>({
    type: 'create_table',
    seats,
    seed,
    thinkMs: 0,
    moveDeadlineMs: null,
    standIn: 'strong',
    ...RULES,
  });
  expect(created.type).toBe('table_created');
  return { creator, created };
}

async function join(code: string, name: string, url = server.url): Promise<{ guest: TestClient; joined: Msg<'joined'> }> {
  const guest = await TestClient.greeted(url);
  const joined = await guest.request<Msg<'joined'>>({ type: 'join_table', code, name });
  expect(joined.type, JSON.stringify(joined)).toBe('joined');
  return { guest, joined };
}

describe('a table with guest seats', () => {
  it('two people and a bot: each joins, sees only its own hand and gets its own advice, and the game ends for both', async () => {
    const { creator, created } = await createWithGuests(['client', 'guest', 'strong'], 5);
    expect(created.lobby).toBe(true);
    expect(created.invite?.code).toMatch(new RegExp(`^${created.table}\\.`));
    expect(created.seats[1]).toMatchObject({ player: 'guest', agent: 'strong', present: false });
    // Nothing is played in the lobby.
    const early = await creator.request({ type: 'act', table: created.table, action: 0, counter: 0 });
    expect(early).toMatchObject({ type: 'error', code: 'not_your_turn', message: expect.stringMatching(/lobby/) });

    const seatsSeen = creator.next((m) => m.type === 'seats' && m.seats[1].present === true);
    const { guest, joined } = await join(created.invite?.code ?? '', 'Dana');
    expect(joined).toMatchObject({ table: created.table, seat: 1, lobby: true });
    expect(joined.token).not.toBe(created.token);
    expect(await seatsSeen).toMatchObject({ seats: [{ seat: 0 }, { seat: 1, name: 'Dana', present: true }, { seat: 2 }] });

    const refused = await guest.request({ type: 'start_table', table: created.table });
    expect(refused).toMatchObject({ type: 'error', code: 'not_your_turn', message: expect.stringMatching(/creator/) });
    // Nothing is dealt in the lobby: no state for anyone until the start.
    for (const client of [creator, guest]) expect(client.frames.filter((m) => m.type === 'state')).toEqual([]);
    const guestState = guest.next((m) => m.type === 'state');
    expect(await creator.request({ type: 'start_table', table: created.table })).toMatchObject({ type: 'started' });
    expect(await guestState).toMatchObject({ seat: 1 });

    // Whoever is to move first gets advice for its own seat; the other is refused.
    const opening = (await creator.next((m) => m.type === 'state', 0)) as Msg<'state'>;
    const moverSeat = opening.toMove;
    const [mover, other] = moverSeat === 0 ? [creator, guest] : [guest, creator];
    expect(await mover.request({ type: 'advise', table: created.table, agent: 'strong' })).toMatchObject({
      type: 'advice',
      seat: moverSeat,
    });
    expect(await other.request({ type: 'advise', table: created.table, agent: 'strong', seat: moverSeat })).toMatchObject({
      type: 'error',
      code: 'not_your_turn',
    });

    const [overA, overB] = await Promise.all([playToEnd(creator, created.table, chooser(3)), playToEnd(guest, created.table, chooser(4))]);
    expect(overB.record).toEqual(overA.record);
    onlyOwnSeat(creator, created.table, 0);
    onlyOwnSeat(guest, created.table, 1);
    expect(await checkNoLeaks({ client: creator, created, over: overA })).toBeGreaterThan(20);
    expect(await checkNoLeaks({ client: guest, created: asSeenBy(created, 1), over: overB })).toBeGreaterThan(20);
    await Promise.all([creator.close(), guest.close()]);
  });

  it('three people and a bot at one table, each told only its own seat', async () => {
    const { creator, created } = await createWithGuests(['guest', 'client', 'strong', 'guest'], 8);
    const code = created.invite?.code ?? '';
    const first = await join(code, 'Ari');
    const second = await join(code, 'Bo');
    expect([first.joined.seat, second.joined.seat]).toEqual([0, 3]);
    const full = await (await TestClient.greeted(server.url)).request({ type: 'join_table', code });
    expect(full).toMatchObject({ type: 'error', code: 'unknown_table', field: 'code', message: expect.stringMatching(/every guest seat/) });
    await creator.request({ type: 'start_table', table: created.table });
    const people = [
      [creator, 1],
      [first.guest, 0],
      [second.guest, 3],
    ] as const;
    const overs = await Promise.all(people.map(([client, seat]) => playToEnd(client, created.table, chooser(seat + 10))));
    for (const [i, [client, seat]] of people.entries()) {
      onlyOwnSeat(client, created.table, seat);
      expect(await checkNoLeaks({ client, created: asSeenBy(created, seat), over: overs[i] })).toBeGreaterThan(10);
    }
    await Promise.all(people.map(([client]) => client.close()));
  });

  it("a guest who leaves is played by the stand-in bot, and comes back with the seat's own token", async () => {
    const { creator, created } = await createWithGuests(['client', 'guest'], 11);
    const { guest, joined } = await join(created.invite?.code ?? '', 'Kim');
    await creator.request({ type: 'start_table', table: created.table });
    await guest.next((m) => m.type === 'state');
    const away = creator.next((m) => m.type === 'seats' && m.seats[1].present === false);
    await guest.close();
    await away;
    // The creator plays on; the stand-in bot plays seat 1 (events of seat 1 keep coming).
    const play = playToEnd(creator, created.table, chooser(2));
    await creator.next((m) => m.type === 'event' && m.actor === 1);
    // Back on a new connection with the seat's token: only that seat's state, and the creator is told.
    const back = await TestClient.greeted(server.url);
    const here = creator.next((m) => m.type === 'seats' && m.seats[1].present === true);
    const resumed = await back.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: joined.token });
    expect(resumed).toMatchObject({ type: 'resumed', token: joined.token, invite: null, seat: 1 });
    await here;
    const [overA, overB] = await Promise.all([play, playToEnd(back, created.table, chooser(5))]);
    expect(overB.record).toEqual(overA.record);
    onlyOwnSeat(back, created.table, 1);
    const wrong = await back.request({ type: 'resume', table: created.table, token: 'not-a-token' });
    expect(wrong).toMatchObject({ type: 'error', code: 'unknown_table' });
    await Promise.all([creator.close(), back.close()]);
  });

  it('a guest who reloads on their turn finds it still theirs: the stand-in waits --stand-in-ms first', async () => {
    const { creator, created } = await createWithGuests(['client', 'guest'], 12, patient.url);
    const { guest, joined } = await join(created.invite?.code ?? '', 'Kim', patient.url);
    await creator.request({ type: 'start_table', table: created.table });
    const play = playToEnd(creator, created.table, chooser(2));
    const mine = await guest.next((m) => m.type === 'state' && m.table === created.table && m.legal.length > 0);
    const away = creator.next((m) => m.type === 'seats' && m.seats[1].present === false);
    await guest.close();
    await away;
    const back = await TestClient.greeted(patient.url);
    const resumed = await back.request<Msg<'resumed'>>({ type: 'resume', table: created.table, token: joined.token });
    expect(resumed).toMatchObject({ type: 'resumed', seat: 1 });
    const again = await back.next((m) => m.type === 'state' && m.table === created.table, 0);
    expect(again.type === 'state' && mine.type === 'state' && again.counter === mine.counter && again.legal.length > 0).toBe(true);
    expect(creator.frames.some((m) => m.type === 'event' && m.table === created.table && m.actor === 1)).toBe(false);
    await Promise.all([play, playToEnd(back, created.table, chooser(5))]);
    await Promise.all([creator.close(), back.close()]);
  });

  it('a resume in the lobby, by the creator or a friend, tells no state: each seat gets its first state once, at the start', async () => {
    const { creator, created } = await createWithGuests(['client', 'guest', 'strong'], 8);
    const { guest, joined } = await join(created.invite?.code ?? '', 'Noa');
    const host = await TestClient.greeted(server.url);
    const friend = await TestClient.greeted(server.url);
    expect(await host.request({ type: 'resume', table: created.table, token: created.token })).toMatchObject({ lobby: true, seat: null });
    expect(await friend.request({ type: 'resume', table: created.table, token: joined.token })).toMatchObject({ lobby: true, seat: 1 });
    const firsts = [host, friend].map((client) => client.next((m) => m.type === 'state'));
    expect(await host.request({ type: 'start_table', table: created.table })).toMatchObject({ type: 'started' });
    await Promise.all(firsts);
    // Whatever the start sent is in before the answer to a later ping.
    await Promise.all([host, friend].map((client) => client.request({ type: 'ping' })));
    for (const [client, seat] of [
      [host, 0],
      [friend, 1],
    ] as const) {
      const atStart = client.frames.filter((m) => m.type === 'state' && m.counter === 0);
      expect(atStart.map((m) => m.type === 'state' && m.seat)).toEqual([seat]);
    }
    await Promise.all([creator, guest, host, friend].map((client) => client.close()));
  });

  it('refuses bad and expired invite codes, naming the code', async () => {
    const client = await TestClient.greeted(quick.url);
    for (const code of ['nonsense', 't-nothere.abc', '.x']) {
      expect(await client.request({ type: 'join_table', code })).toMatchObject({ type: 'error', code: 'unknown_table', field: 'code' });
    }
    const { creator, created } = await createWithGuests(['client', 'guest'], 3, quick.url);
    const wrong = await client.request({ type: 'join_table', code: `${created.table}.wrong` });
    expect(wrong).toMatchObject({ type: 'error', code: 'unknown_table', field: 'code' });
    await until(() => Date.now() > (created.invite?.expiresAt ?? 0), 'the invite to expire');
    const expired = await client.request({ type: 'join_table', code: created.invite?.code });
    expect(expired).toMatchObject({ type: 'error', code: 'unknown_table', field: 'code', message: expect.stringMatching(/expired/) });
    const unnamed = await client.request({ type: 'create_table', seats: ['client', 'guest'], standIn: 'nobody' });
    expect(unnamed).toMatchObject({ type: 'error', code: 'bad_message', field: 'standIn' });
    await Promise.all([creator.close(), client.close()]);
  });

  it('a table without guest seats has no invite and starts at once, as before', async () => {
    const client = await TestClient.greeted(server.url);
    const created = await client.request<Msg<'table_created'>>({ type: 'create_table', seats: ['client', 'strong'], seed: 2, ...RULES });
    expect(created).toMatchObject({ invite: null, lobby: false });
    await client.next((m: ServerMessage) => m.type === 'state', 0);
    expect(client.frames.some((m) => m.type === 'seats')).toBe(false);
    await client.close();
  });

  it('play again with friends: the guests still there follow the creator to the next table, each to the same seat; one who left is told nothing', async () => {
    const { creator, created } = await createWithGuests(['client', 'guest', 'guest', 'strong'], 21);
    const code = created.invite?.code ?? '';
    const stays = await join(code, 'Dana');
    const goes = await join(code, 'Eli');
    await creator.request({ type: 'start_table', table: created.table });
    const [overA, overB] = await Promise.all([
      playToEnd(creator, created.table, chooser(6)),
      playToEnd(stays.guest, created.table, chooser(7)),
      goes.guest.request({ type: 'leave', table: created.table }),
    ]);
    expect(overB.record).toEqual(overA.record);

    // Only the creator of the table may play it again with its guests.
    const notMine = await stays.guest.request({ type: 'create_table', seats: ['client', 'strong'], follows: created.table });
    expect(notMine).toMatchObject({ type: 'error', code: 'not_your_turn', field: 'follows' });

    const told = stays.guest.next((m) => m.type === 'next_table');
    const again = await creator.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: ['client', 'guest', 'guest', 'strong'],
      follows: created.table,
      seed: 22,
      thinkMs: 0,
      moveDeadlineMs: null,
      standIn: 'strong',
      ...RULES,
    });
    expect(again).toMatchObject({ type: 'table_created', lobby: true });
    expect(again.table).not.toBe(created.table);
    // The friend still there already holds seat 2 at the new table; the seat of the one who left waits for the invite.
    expect(again.seats[1]).toMatchObject({ player: 'guest', name: 'Dana', present: true });
    expect(again.seats[2]).toMatchObject({ player: 'guest', present: false });
    const next = (await told) as Msg<'next_table'>;
    expect(next).toMatchObject({ follows: created.table, table: again.table, seat: 1, lobby: true, counter: 0 });
    expect(next.token).not.toBe(again.token);
    expect(next.token).not.toBe(stays.joined.token);
    // The table before is left, for both: no table_closed for the friend who followed.
    expect(stays.guest.frames.some((m) => m.type === 'table_closed')).toBe(false);
    expect(await creator.request({ type: 'leave', table: created.table })).toMatchObject({ type: 'error', code: 'unknown_table' });
    expect(await stays.guest.request({ type: 'leave', table: created.table })).toMatchObject({ type: 'error', code: 'unknown_table' });
    expect(goes.guest.frames.some((m) => m.type === 'next_table')).toBe(false);

    // The follower's token takes its seat back on a new connection; the game runs for both once started.
    const back = await TestClient.greeted(server.url);
    expect(await back.request({ type: 'resume', table: again.table, token: next.token })).toMatchObject({ type: 'resumed', seat: 1 });
    expect(await creator.request({ type: 'start_table', table: again.table })).toMatchObject({ type: 'started' });
    const [overC, overD] = await Promise.all([playToEnd(creator, again.table, chooser(8)), playToEnd(back, again.table, chooser(9))]);
    expect(overD.record).toEqual(overC.record);
    onlyOwnSeat(back, again.table, 1);
    await Promise.all([creator.close(), stays.guest.close(), goes.guest.close(), back.close()]);
  });
});
