// What a player noticed (issue 42 §3), each checked in headless Chromium on a touch phone: a
// server killed hard is said at once in the status line, with no move live; at 8 seats the
// suggestion sits in one line beside the hand, on the first screen, with the rest on demand; the
// How-to-play page opens with the rules (two decks from 6 players) and has the checker below them.
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../env/index.js';
import { ServeProcess } from '../../scripts/serveProcess.js';
import { CONNECTION_LOST, statusText } from '../../web/app.js';
import { newGame } from '../../web/game.js';
import { RESULTS, launchChromium, watchPage } from './browser.js';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } as const;

let browser: Browser | undefined;
let server: ServeProcess | undefined;
afterAll(async () => {
  await browser?.close();
  await server?.stop('SIGKILL');
});

/** A `yaniv serve` process of its own (the one before stopped): a test may kill it. */
async function serve(agents: string): Promise<ServeProcess> {
  await server?.stop('SIGKILL');
  server = await ServeProcess.start(['--agents', agents, '--workers', '0', '--log-level', 'warn']);
  return server;
}

async function phonePage(name: string): Promise<{ page: Page; errors: string[] }> {
  browser ??= await launchChromium();
  const page = await (await browser.newContext(PHONE)).newPage();
  const errors = watchPage(page, `noticed-${name}`);
  return { page, errors };
}

/** Deals `players` on the phone (novice bots, instant) and waits for the player's turn. */
async function deal(page: Page, port: number, players: number): Promise<void> {
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  await page.getByLabel('Players').selectOption(String(players));
  await page.getByLabel('Bot pace').selectOption({ label: 'instant' });
  await page.getByRole('button', { name: 'Deal' }).tap();
  await page.waitForFunction(() => /^Your turn/.test(document.querySelector('.status')?.textContent ?? ''));
}

describe('what a player noticed', () => {
  it('says the connection is lost in the status line, not only in the badge', () => {
    const game = newGame({
      ...{ table: 't', token: 'k', preset: 'standard', rules: {}, settledRules: {}, players: 2 },
      ...{ seats: [{ seat: 0, player: 'client' as const }], thinkMs: 0, moveDeadlineMs: null, invite: null, lobby: false },
    });
    expect(statusText(game, false)).toBe(CONNECTION_LOST);
    expect(CONNECTION_LOST).toMatch(/^[A-Z]/);
  });

  it('a server killed hard: the status says the connection is lost at once, and no move is live', async () => {
    const killed = await serve('novice');
    const { page, errors } = await phonePage('killed');
    await deal(page, killed.port, 2);
    expect(await page.getByRole('button', { name: /^Yaniv!/ }).isDisabled()).toBe(true);
    await page.locator('.hand button.card').first().tap();
    expect(await page.getByRole('button', { name: /^Lay 1 card/ }).isEnabled()).toBe(true);
    const killedAt = Date.now();
    await killed.stop('SIGKILL');
    await page.waitForFunction((lost) => document.querySelector('.status')?.textContent === lost, CONNECTION_LOST, { timeout: 5_000 });
    expect(Date.now() - killedAt, 'said within 3 s of the kill').toBeLessThan(3_000);
    expect(await page.locator('.status.lost').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Lay/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /^Deck/ }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${RESULTS}noticed-connection-lost.png` });
    expect(errors).toEqual([]);
  }, 60_000);

  it('at 8 seats on a phone the suggestion is one line beside the hand, on the first screen; "Why?" brings the advisor', async () => {
    const { port } = await serve('strong,novice');
    const { page, errors } = await phonePage('advice');
    await deal(page, port, 8);
    await page.getByRole('checkbox', { name: /Advisor/ }).tap();
    const line = page.locator('.advice-line');
    await line.waitFor();
    expect(await line.textContent()).toMatch(/^(Strong bot|The advisor) suggests: .+ Why\?$/);
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = await line.evaluate((element) => {
      const r = element.getBoundingClientRect();
      const moves = document.querySelector('.moves')?.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: r.height, below: r.top - (moves?.bottom ?? 0), screen: window.innerHeight };
    });
    expect(box.bottom, 'on the first screen').toBeLessThanOrEqual(box.screen);
    expect(box.below, 'right under the moves').toBeLessThan(40);
    expect(box.height, 'one or two lines').toBeLessThan(60);
    await page.screenshot({ path: `${RESULTS}noticed-advice-line.png` });
    await line.getByRole('button', { name: 'Why?' }).tap();
    await page.waitForFunction(() => {
      const r = document.getElementById('advisor')?.getBoundingClientRect();
      return r !== undefined && r.top >= -1 && r.top < window.innerHeight / 2;
    });
    expect(errors).toEqual([]);
  }, 90_000);

  it('How to play on a phone: the rules first (two decks from 6 players), the checker below them', async () => {
    const { port } = await serve('novice');
    const { page, errors } = await phonePage('rules');
    await page.goto(`http://127.0.0.1:${port}/rules.html`);
    await page.getByRole('heading', { name: 'The aim' }).waitFor();
    // The one page shell (web/index.html) at rules.html: its entry shows How to play, under its own title.
    expect(await page.title()).toBe('Yaniv — how to play');
    const order = await page.evaluate(() => ({
      aim: document.querySelector('.howto-text h2')?.getBoundingClientRect().top ?? Infinity,
      checker: document.querySelector('.checker')?.getBoundingClientRect().top ?? -Infinity,
      screen: window.innerHeight,
    }));
    expect(order.aim, 'the rules start on the first screen').toBeLessThan(order.screen);
    expect(order.checker, 'the checker comes after the rules').toBeGreaterThan(order.aim);
    expect(await page.locator('.howto-text').textContent()).toContain(
      `With ${PRESETS.standard.twoDecksFrom} players or more the game is played with two decks`,
    );
    expect(errors).toEqual([]);
  }, 60_000);
});
