// Playing with friends on the page (issue 42 §2), in headless Chromium: two people, each in their
// own browser context on a touch phone, and two bots finish a whole game. The host deals with a
// friend's seat and gets an invite link and its QR code; the friend opens the link, gives a name
// and joins; the lobby shows them; the host starts. Each page shows only its own hand (every frame
// checked with the serve tests' hidden-information check), a reload takes the friend's seat back
// with the round's plays, the round result fits the phone, and once the game is over nobody is to
// play. At 6 seats a friend's long name never hides the "to play" marker of their tile.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Msg, RunningServer, ServerMessage } from '../../serve/index.js';
import { asSeenBy, checkNoLeaks, onlyOwnSeat, statesOf } from '../serve/leaks.js';
import { startTestServer } from '../serve/helpers.js';
import { RESULTS, launchChromium, playerMoment, watchPage } from './browser.js';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } as const;
const LONG_NAME = 'Dana Katz-Abramovich from upstairs';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  server = await startTestServer({ agents: ['strong', 'novice'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A person's phone: a page in its own browser context, with every frame it got and its errors. */
interface Phone {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly frames: ServerMessage[];
  readonly errors: string[];
}

async function phone(name: string): Promise<Phone> {
  browser ??= await launchChromium();
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const frames: ServerMessage[] = [];
  const errors = watchPage(page, `friends-${name}`);
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => frames.push(JSON.parse(payload.toString()) as ServerMessage)),
  );
  return { context, page, frames, errors };
}

/** The host deals a table of `players` with one friend's seat (seat 2) and the page's lobby; returns the invite link. */
async function hostTable(host: Phone, players: number, rules: { eliminationLimit: number }): Promise<string> {
  const { page } = host;
  await page.goto(`http://127.0.0.1:${server.port}/`);
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  await page.getByLabel('Players').selectOption(String(players));
  await page.getByLabel('Friends').selectOption('1');
  expect(await page.locator('select[name="seat-2"]').inputValue()).toBe('guest');
  for (let seat = 3; seat <= players; seat++)
    await page.locator(`select[name="seat-${seat}"]`).selectOption(seat % 2 ? 'strong' : 'novice');
  await page.getByLabel('Bot pace').selectOption({ label: 'instant' });
  await page.locator('.house-rules summary').tap();
  await page.locator('input[name="eliminationLimit"]').fill(String(rules.eliminationLimit));
  await page.locator('input[name="seed"]').fill('7');
  await page.getByRole('button', { name: 'Invite friends' }).tap();
  await page.getByRole('heading', { name: 'Invite friends' }).waitFor();
  const link = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?join=t-[^.]+\\.`));
  expect(await page.getByRole('img', { name: 'QR code of the invite link' }).count()).toBe(1);
  expect(await page.locator('.lobby-seats li[data-seat="1"]').textContent()).toBe('Seat 2: waiting for a friend…');
  return link;
}

/** The friend opens the link, gives a name and joins: their lobby says they wait for the host. */
async function joinTable(friend: Phone, link: string, name: string): Promise<void> {
  await friend.page.goto(link);
  await friend.page.getByRole('heading', { name: 'Join a friend’s game' }).waitFor();
  await friend.page.locator('input[name="name"]').fill(name);
  await friend.page.getByRole('button', { name: 'Join' }).tap();
  await friend.page.getByRole('heading', { name: 'You joined the table' }).waitFor();
  expect(await friend.page.locator('.waiting').textContent()).toMatch(/Waiting for the host/);
  // The address no longer carries the invite: a reload takes the seat back rather than joining again.
  expect(friend.page.url()).not.toMatch(/join=/);
}

/** The host sees the friend joined and starts; both pages then show their hand. */
async function start(host: Phone, friend: Phone, name: string): Promise<void> {
  await expect.poll(() => host.page.locator('.lobby-seats li[data-seat="1"]').textContent()).toBe(`${name} (seat 2): joined`);
  await expectNoSidewaysScroll(host.page, 'the lobby');
  await host.page.screenshot({ path: `${RESULTS}friends-lobby.png`, fullPage: true });
  await host.page.getByRole('button', { name: 'Start the game' }).tap();
  await Promise.all([host, friend].map((p) => p.page.locator('.hand button.card').first().waitFor()));
  for (const { page } of [host, friend]) await expectNoSidewaysScroll(page, 'the table');
}

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), where).toBe(0);
}

/** A table of `players` dealt by the host with the friend (LONG_NAME) joined and started. */
async function friendsTable(players: number, eliminationLimit: number, tag: string): Promise<{ host: Phone; friend: Phone }> {
  const host = await phone(`host${tag}`);
  const friend = await phone(`friend${tag}`);
  await joinTable(friend, await hostTable(host, players, { eliminationLimit }), LONG_NAME);
  await start(host, friend, LONG_NAME);
  return { host, friend };
}

const status = (page: Page) => page.locator('.status').textContent();

/** Whether the round result is open on the page. */
const resultOpen = async (page: Page) => (await page.locator('.dialog').count()) > 0;

/** The round result fits the phone: no sideways scroll, its Total column and its button inside the screen. */
async function expectResultFits(page: Page, name: string): Promise<void> {
  const boxes = await page.evaluate(() => {
    const right = (selector: string) => Math.max(...[...document.querySelectorAll(selector)].map((e) => e.getBoundingClientRect().right));
    const dialog = document.querySelector('.dialog') as HTMLElement;
    return {
      overflow: dialog.scrollWidth - dialog.clientWidth,
      totals: right('.dialog table.result td:last-child'),
      button: right('.dialog > button'),
      width: window.innerWidth,
    };
  });
  expect(boxes.overflow, `${name}: the round result scrolls sideways`).toBe(0);
  expect(boxes.totals, `${name}: the Total column`).toBeLessThanOrEqual(boxes.width);
  expect(boxes.button, `${name}: the round result's button`).toBeLessThanOrEqual(boxes.width);
}

/**
 * One person plays by taps until the game is over: the first card of the hand and the deck on
 * each turn, each round result checked and put away. `reload` runs once, on the person's second turn.
 */
async function playToEnd(who: Phone, name: string, reload?: () => Promise<void>): Promise<number> {
  const { page } = who;
  let turns = 0;
  for (let moments = 0; moments < 400; moments++) {
    await playerMoment(page);
    if (await resultOpen(page)) {
      await expectResultFits(page, name);
      if (turns > 0 && moments < 40) await page.screenshot({ path: `${RESULTS}friends-${name}-round-result.png` });
      const over = (await page.getByRole('region', { name: 'Game over' }).count()) > 0;
      await page.locator('.dialog > button').tap();
      if (over) return turns;
      continue;
    }
    if (/^Game over/.test((await status(page)) ?? '')) return turns;
    turns++;
    if (turns === 2 && reload) await reload();
    // Lay the first card and draw: two acts answered. (The bots may be quicker than a frame, so the
    // status alone may never be seen to leave "Your turn".)
    const acted = who.frames.filter((m) => m.type === 'acted').length;
    await page.locator('.hand button.card').first().tap();
    await page.getByRole('button', { name: /^Deck/ }).tap();
    await expect.poll(() => who.frames.filter((m) => m.type === 'acted').length, { message: `${name}: laid and drew` }).toBe(acted + 2);
  }
  throw new Error(`${name}: the game did not end`);
}

/**
 * The friend reloads: the seat is taken back (resumed names it) with the round's plays, which the
 * server does not tell again, still in the log (the table plays on meanwhile: more may follow).
 */
async function reloadFriend(friend: Phone): Promise<void> {
  const counters = () =>
    friend.page
      .locator('.move-log li[data-counter]')
      .evaluateAll((items) => items.map((li) => Number((li as HTMLElement).dataset.counter)));
  const before = await counters();
  const everyTileShowsAMove = () =>
    friend.page.locator('.seat p.last-move').evaluateAll((moves) => moves.every((move) => move.querySelector('.move') !== null));
  expect(await everyTileShowsAMove()).toBe(true);
  expect(before.length).toBeGreaterThan(0);
  await friend.page.reload();
  await friend.page.locator('.hand button.card').first().waitFor();
  const resumed = friend.frames.findLast((m): m is Msg<'resumed'> => m.type === 'resumed');
  expect(resumed?.seat).toBe(1);
  expect((await counters()).slice(0, before.length)).toEqual(before);
  expect(await everyTileShowsAMove()).toBe(true);
  await friend.page.waitForFunction(() => /^Your turn/.test(document.querySelector('.status')?.textContent ?? ''));
}

describe('the page with friends', () => {
  it('two people on their own phones and two bots finish a whole game, each seeing only their own hand', async () => {
    const { host, friend } = await friendsTable(4, 40, '');
    await host.page.screenshot({ path: `${RESULTS}friends-host-table.png`, fullPage: true });
    await friend.page.screenshot({ path: `${RESULTS}friends-friend-table.png`, fullPage: true });
    // Each sees the other by name, the bots in words.
    expect(await host.page.locator('.seat h3').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining(LONG_NAME), expect.stringMatching(/Strong bot|Novice bot/)]),
    );
    expect(await friend.page.locator('.seat h3 .long-name').allTextContents()).toContain('Host');

    const [hostTurns, friendTurns] = await Promise.all([playToEnd(host, 'host'), playToEnd(friend, 'friend', () => reloadFriend(friend))]);
    expect(hostTurns).toBeGreaterThan(1);
    expect(friendTurns).toBeGreaterThan(1);

    // The game is over for both: nobody is to play, and no move is live.
    for (const { page } of [host, friend]) {
      expect(await status(page)).toMatch(/^Game over/);
      expect(await page.locator('.turn-mark').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Lay/ }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: /^Yaniv!/ }).isDisabled()).toBe(true);
    }
    expect(await host.page.getByRole('button', { name: 'Play again' }).count()).toBe(1);
    expect(await friend.page.getByRole('button', { name: 'Play again' }).count()).toBe(0);
    await friend.page.screenshot({ path: `${RESULTS}friends-friend-over.png`, fullPage: true });

    // Each was told only its own seat, and named no card it could not see.
    const created = host.frames.find((m): m is Msg<'table_created'> => m.type === 'table_created') as Msg<'table_created'>;
    const overOf = (p: Phone) => p.frames.find((m): m is Msg<'game_over'> => m.type === 'game_over') as Msg<'game_over'>;
    expect(overOf(friend).record).toEqual(overOf(host).record);
    onlyOwnSeat(host, created.table, 0);
    onlyOwnSeat(friend, created.table, 1);
    // The friend's seat was played by its stand-in while the page reloaded: the true states come from the host's frames.
    const states = await statesOf({ client: host, created, over: overOf(host) });
    expect(await checkNoLeaks({ client: host, created, over: overOf(host) }, states)).toBeGreaterThan(10);
    expect(await checkNoLeaks({ client: friend, created: asSeenBy(created, 1), over: overOf(friend) }, states)).toBeGreaterThan(10);
    expect([...host.errors, ...friend.errors]).toEqual([]);
    await Promise.all([host.context.close(), friend.context.close()]);
  }, 240_000);

  it('at 6 seats on a phone a friend\'s long name gives way to their tile\'s "to play" marker', async () => {
    const { host, friend } = await friendsTable(6, 200, '-6');
    // The host lays and draws; the bots play at once: the friend's tile is then the one to play.
    await host.page.waitForFunction(() => /^Your turn/.test(document.querySelector('.status')?.textContent ?? ''));
    await host.page.locator('.hand button.card').first().tap();
    await host.page.getByRole('button', { name: /^Deck/ }).tap();
    const tile = host.page.locator('.seat.current');
    await tile.locator('.turn-mark').waitFor();
    expect(await tile.getAttribute('aria-label')).toBe(LONG_NAME);
    const fit = await tile.evaluate((seat) => {
      const mark = seat.querySelector('.turn-mark')?.getBoundingClientRect();
      const box = seat.getBoundingClientRect();
      const h3 = seat.querySelector('h3') as HTMLElement;
      return {
        mark: mark && { left: mark.left, right: mark.right, width: mark.width },
        box: { left: box.left, right: box.right },
        h3: h3.scrollWidth - h3.clientWidth,
      };
    });
    expect(fit.mark?.width).toBeGreaterThan(20);
    expect(fit.mark?.right).toBeLessThanOrEqual(fit.box.right);
    expect(fit.h3, 'nothing of the heading is cut').toBe(0);
    await host.page.screenshot({ path: `${RESULTS}friends-6-seats-turn-mark.png` });
    expect([...host.errors, ...friend.errors]).toEqual([]);
    await Promise.all([host.context.close(), friend.context.close()]);
  }, 120_000);

  it("the host's Play again keeps the friend: both are at the next table, the friend in the same seat, and the games won go on", async () => {
    const { host, friend } = await friendsTable(3, 15, '-again');
    await Promise.all([playToEnd(host, 'host-again'), playToEnd(friend, 'friend-again')]);
    const first = host.frames.find((m): m is Msg<'table_created'> => m.type === 'table_created') as Msg<'table_created'>;
    const followed = friend.frames.length;
    await host.page.getByRole('region', { name: 'Game over' }).getByRole('button', { name: 'Play again' }).tap();
    // Every friend's seat is taken again: the game starts at once, for both, each with their own hand.
    await Promise.all(
      [host, friend].map((p) =>
        p.page.waitForFunction(
          () =>
            document.querySelector('.hand button.card') !== null &&
            !/^Game over/.test(document.querySelector('.status')?.textContent ?? ''),
        ),
      ),
    );
    const next = friend.frames.slice(followed).find((m): m is Msg<'next_table'> => m.type === 'next_table');
    expect(next).toMatchObject({ follows: first.table, seat: 1 });
    const again = host.frames.findLast((m): m is Msg<'table_created'> => m.type === 'table_created');
    expect(again?.table).toBe(next?.table);
    expect(again?.table).not.toBe(first.table);
    for (const { page } of [host, friend]) {
      expect(await page.locator('.scores-box .series-score').textContent()).toMatch(/^Games won \(1 played\): /);
      await expectNoSidewaysScroll(page, 'the next table');
    }
    expect(await friend.page.locator('.seat h3 .long-name').allTextContents()).toContain('Host');
    expect(await host.page.locator('.seat h3 .long-name').allTextContents()).toContain(LONG_NAME);
    // The friend's page keeps the new seat: a reload takes it back, with the running score.
    await friend.page.reload();
    await friend.page.locator('.hand button.card').first().waitFor();
    expect(friend.frames.findLast((m): m is Msg<'resumed'> => m.type === 'resumed')).toMatchObject({ table: next?.table, seat: 1 });
    expect(await friend.page.locator('.scores-box .series-score').textContent()).toMatch(/^Games won \(1 played\): /);
    await friend.page.screenshot({ path: `${RESULTS}friends-play-again.png`, fullPage: true });
    expect([...host.errors, ...friend.errors]).toEqual([]);
    await Promise.all([host.context.close(), friend.context.close()]);
  }, 240_000);
});
