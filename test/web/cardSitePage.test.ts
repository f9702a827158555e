// What card sites have (issue 42 §4), in headless Chromium: a laid card flies to the pile (and
// nothing flies with reduced motion), a turn marker on the hand and on the tile to play at 2 and
// 8 seats on a phone and a desktop, the "what just happened" line, sounds off until turned on
// (no AudioContext before), the running score and the standings chart after Play again, and the
// player's statistics counted once per game, kept across a reload, reset after a confirm, and
// started afresh from damaged data.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../serve/index.js';
import { startTestServer } from '../serve/helpers.js';
import { RESULTS, launchChromium, playerMoment, watchPage } from './browser.js';

const PHONE = { viewport: { width: 360, height: 780 }, hasTouch: true, isMobile: true } as const;
const DESKTOP = { viewport: { width: 1280, height: 800 } } as const;

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  server = await startTestServer({ agents: ['strong', 'novice'] });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Counts what the page starts: each Web Animation's id, and each AudioContext made. */
function instrument(): void {
  const seen = { flights: 0, audio: 0 };
  Object.assign(window, { seen });
  // The page's own animate, kept as the descriptor holds it (it is called with the element as `this`).
  const animate = Object.getOwnPropertyDescriptor(Element.prototype, 'animate')?.value as (
    this: Element,
    ...args: Parameters<Element['animate']>
  ) => Animation;
  Element.prototype.animate = function (this: Element, frames, options) {
    if (typeof options === 'object' && options.id === 'flight') seen.flights++;
    return animate.call(this, frames, options);
  };
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(options?: AudioContextOptions) {
      super(options);
      seen.audio++;
    }
  };
}

async function open(name: string, options: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext(options);
  await context.addInitScript(instrument);
  const page = await context.newPage();
  const errors = watchPage(page, `cardsite-${name}`);
  return { context, page, errors };
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: { flights: number; audio: number } }).seen);
const status = (page: Page) => page.locator('.status').textContent();
const yourTurn = (page: Page) => page.waitForFunction(() => /^Your turn/.test(document.querySelector('.status')?.textContent ?? ''));

/** Deals `players` (bots at `pace`, under `eliminationLimit`) and waits for the player's turn. */
async function deal(page: Page, players: number, pace = 'instant', eliminationLimit?: number): Promise<void> {
  await page.goto(`http://127.0.0.1:${server.port}/`);
  await page.getByRole('heading', { name: 'New game' }).waitFor();
  await page.getByLabel('Players').selectOption(String(players));
  await page.getByLabel('Bot pace').selectOption({ label: pace });
  if (eliminationLimit !== undefined) {
    await page.locator('.house-rules summary').click();
    await page.locator('input[name="eliminationLimit"]').fill(String(eliminationLimit));
  }
  await page.getByRole('button', { name: 'Deal' }).click();
  await yourTurn(page);
}

/** Lays the first card and draws from the deck. */
async function layAndDraw(page: Page): Promise<void> {
  await page.locator('.hand button.card').first().click();
  await page.getByRole('button', { name: /^Deck/ }).click();
}

/** The counter of the latest play in the move log (-1: none yet). */
const latestPlay = (page: Page) =>
  page.evaluate(() =>
    Math.max(-1, ...[...document.querySelectorAll('.move-log li[data-counter]')].map((li) => Number((li as HTMLElement).dataset.counter))),
  );

/** Plays by clicks (the first card and the deck) until the game is over, putting each round result away. */
async function playToEnd(page: Page): Promise<void> {
  for (let moments = 0; moments < 300; moments++) {
    await playerMoment(page);
    if ((await page.locator('.dialog').count()) > 0) {
      const over = (await page.getByRole('region', { name: 'Game over' }).count()) > 0;
      await page.locator('.dialog > button').click();
      if (over) return;
      continue;
    }
    if (/^Game over/.test((await status(page)) ?? '')) return;
    const before = await latestPlay(page);
    await layAndDraw(page);
    // Both steps told (the bots may play on at once, so "Your turn" may never be seen to go), or the round over.
    await page.waitForFunction(
      (before) =>
        document.querySelector('.dialog') !== null ||
        Math.max(
          -1,
          ...[...document.querySelectorAll('.move-log li[data-counter]')].map((li) => Number((li as HTMLElement).dataset.counter)),
        ) >=
          before + 2,
      before,
    );
  }
  throw new Error('the game did not end');
}

describe('what card sites have', () => {
  it('a laid card flies to the pile; with reduced motion nothing flies; the table says what just happened, politely', async () => {
    const moving = await open('motion', PHONE);
    await deal(moving.page, 2, 'brisk');
    expect((await seen(moving.page)).flights).toBe(0);
    await layAndDraw(moving.page);
    await moving.page.waitForFunction(() => (window as unknown as { seen: { flights: number } }).seen.flights > 0);
    const line = moving.page.locator('.happened');
    expect(await line.getAttribute('aria-live')).toBe('polite');
    await moving.page.waitForFunction(() =>
      /^(You|Strong bot|Novice bot).*\.$/.test(document.querySelector('.happened span')?.textContent ?? ''),
    );
    expect(await line.locator('.sr-only').textContent()).toMatch(/^(You|Strong bot|Novice bot) .+\.$/);
    expect(moving.errors).toEqual([]);
    await moving.context.close();

    const still = await open('reduced', { ...PHONE, reducedMotion: 'reduce' });
    await deal(still.page, 2);
    await layAndDraw(still.page);
    await yourTurn(still.page);
    await layAndDraw(still.page);
    await yourTurn(still.page);
    expect((await seen(still.page)).flights).toBe(0);
    // No animation at all (a hover's CSS transition aside).
    expect(await still.page.evaluate(() => document.getAnimations().filter((a) => !(a instanceof CSSTransition)).length)).toBe(0);
    expect(still.errors).toEqual([]);
    await still.context.close();
  }, 90_000);

  for (const [where, options] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)
    it(`the turn marker: "Your turn" on the hand and "to play" on the tile to play, at 2 and 8 seats on a ${where}`, async () => {
      const { context, page, errors } = await open(`turn-${where}`, options);
      for (const players of [2, 8]) {
        await deal(page, players, 'brisk');
        const mark = page.locator('.hand .your-turn-mark');
        await mark.waitFor();
        await expectInside(page, mark, `${players} seats: Your turn`);
        expect(await page.locator('.dock.my-turn').count()).toBe(1);
        await layAndDraw(page);
        const tile = page.locator('.seat.current .turn-mark');
        await tile.waitFor();
        await tile.scrollIntoViewIfNeeded();
        await expectInside(page, tile, `${players} seats: to play`);
        expect(await mark.count(), 'not your turn: no "Your turn"').toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
        await page.screenshot({ path: `${RESULTS}cardsite-turn-${where}-${players}.png` });
        page.once('dialog', (dialog) => void dialog.accept());
        await page.getByRole('button', { name: 'New game…' }).click();
      }
      expect(errors).toEqual([]);
      await context.close();
    }, 90_000);

  it('sounds are off until turned on (no AudioContext before), and the choice is kept', async () => {
    const { context, page, errors } = await open('sound', PHONE);
    await deal(page, 2);
    await layAndDraw(page);
    await yourTurn(page);
    const toggle = page.locator('.top .sound');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect((await seen(page)).audio).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect((await seen(page)).audio).toBe(1);
    await page.reload();
    await yourTurn(page);
    expect(await page.locator('.top .sound').getAttribute('aria-pressed')).toBe('true');
    expect((await seen(page)).audio, 'none before a tap or a key').toBe(0);
    await page.keyboard.press('Escape');
    expect((await seen(page)).audio).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('statistics counted once per game and kept across a reload, reset after a confirm; Play again keeps a running score and the standings chart', async () => {
    const { context, page, errors } = await open('stats', DESKTOP);
    await page.goto(`http://127.0.0.1:${server.port}/`);
    await page.evaluate(() => localStorage.setItem('yaniv-arena.stats', '{"games": "lots"'));
    await deal(page, 3, 'instant', 15);
    await playToEnd(page);
    const stat = (key: string) => page.locator(`.side-column .your-stats [data-stat="${key}"] dd`).textContent();
    expect(await stat('games')).toBe('1');
    const gameOver = page.getByRole('region', { name: 'Game over' });
    expect(await gameOver.locator('.standings polyline').count()).toBe(3);
    expect(await gameOver.locator('.series-score').textContent()).toMatch(/^Games won \(1 played\): You [01], /);
    await page.screenshot({ path: `${RESULTS}cardsite-game-over.png`, fullPage: true });

    await page.reload();
    await page.getByRole('region', { name: 'Game over' }).waitFor();
    expect(await stat('games'), 'a reload counts nothing again').toBe('1');

    await gameOver.getByRole('button', { name: 'Play again' }).click();
    await yourTurn(page);
    expect(await page.locator('.scores-box .series-score').textContent()).toMatch(/^Games won \(1 played\)/);
    await playToEnd(page);
    expect(await stat('games')).toBe('2');
    expect(await page.getByRole('region', { name: 'Game over' }).locator('.series-score').textContent()).toMatch(/^Games won \(2 played\)/);

    await page.locator('.side-column .your-stats summary').click();
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.locator('.side-column .your-stats').getByRole('button', { name: 'Reset' }).click();
    expect(await stat('games')).toBe('2');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('.side-column .your-stats').getByRole('button', { name: 'Reset' }).click();
    expect(await stat('games')).toBe('0');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('yaniv-arena.stats'))) ?? 'null')).toMatchObject({ games: 0 });
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});

async function expectInside(page: Page, element: ReturnType<Page['locator']>, what: string): Promise<void> {
  const box = await element.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, what).not.toBeNull();
  expect(box?.width ?? 0, what).toBeGreaterThan(20);
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width, `${what}: inside the screen`).toBe(true);
}
