// The page's difficulty picker in headless Chromium: with a server that serves `level`, the setup
// offers every shipped level of the table's rules and size with its rating; picking one seats it
// in every bot seat, and the table the page creates seats it. A table size without levels rated
// offers the nearest rated size's, saying so.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { shippedLevels } from '../../agents/level.js';
import { unratedTable } from '../agents/levelSizes.js';
import type { Msg, RunningServer, ServerMessage } from '../../serve/index.js';
import { startTestServer } from '../serve/helpers.js';
import { launchChromium } from './browser.js';
import { difficultyWord, levelLabel } from '../../web/difficulty.js';

let server: RunningServer;
let browser: Browser | undefined;
beforeAll(async () => {
  server = await startTestServer({ agents: ['strong', 'level'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the difficulty picker', () => {
  it('offers the shipped levels with their ratings and seats the one picked', async () => {
    const levels = shippedLevels('standard', 2)?.levels ?? [];
    expect(levels.length).toBeGreaterThanOrEqual(8);
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const frames: ServerMessage[] = [];
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    onTestFailed(() => console.log('page errors', errors));
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => frames.push(JSON.parse(payload.toString()) as ServerMessage)),
    );
    await page.goto(`http://127.0.0.1:${server.port}/`);
    await page.getByRole('heading', { name: 'New game' }).waitFor();

    const picker = page.getByLabel('Difficulty');
    const options = await picker.locator('option').allTextContents();
    expect(options).toEqual([
      'seat by seat',
      ...levels.map((l) => `Level ${l.level} (${difficultyWord(l.level, levels.length)}) · rating ${Math.round(l.rating)}`),
    ]);
    expect(options[1]).toMatch(/^Level 1 \(beginner\)/);
    expect(options.at(-1)).toMatch(/\(expert\)/);
    await picker.selectOption('level:3');
    expect(await page.locator('select[name="seat-2"]').inputValue()).toBe('level:3');
    await page.getByLabel('Bot pace').selectOption({ label: 'instant' });
    await page.getByRole('button', { name: 'Deal' }).click();
    await expect.poll(() => frames.some((m) => m.type === 'table_created')).toBe(true);
    const created = frames.find((m): m is Msg<'table_created'> => m.type === 'table_created');
    expect(created?.seats[1]).toMatchObject({ player: 'bot', agent: 'level:3' });

    // At a size where no levels are rated, the nearest rated size's levels, said so; a level chosen
    // at two seats stays a level when the table grows (a new page: the first resumes its table).
    const other = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await other.goto(`http://127.0.0.1:${server.port}/`);
    await other.getByRole('heading', { name: 'New game' }).waitFor();
    const { preset, unrated, nearest } = unratedTable();
    await other.locator('select[name="preset"]').selectOption(preset);
    await other.getByLabel('Players').selectOption(String(nearest));
    await other.getByLabel('Difficulty').selectOption('level:2');
    await other.getByLabel('Players').selectOption(String(unrated));
    const offered = await other.getByLabel('Difficulty').locator('option').allTextContents();
    expect(offered.length - 1).toBe(shippedLevels(preset, nearest)?.levels.length);
    expect(await other.locator('select[name="seat-2"]').inputValue()).toBe('level:2');
    await expect.poll(() => other.locator('.setup').textContent()).toContain(`These levels were rated at ${nearest} seats`);

    // At five standard seats, where levels are rated: those, each with its own rating, and no word of another size.
    const five = shippedLevels('standard', 5)?.levels ?? [];
    expect(five.length).toBeGreaterThanOrEqual(5);
    await other.locator('select[name="preset"]').selectOption('standard');
    await other.getByLabel('Players').selectOption('5');
    await expect
      .poll(async () => (await other.getByLabel('Difficulty').locator('option').allTextContents()).slice(1))
      .toEqual(five.map((l) => levelLabel({ ...l, name: `level:${l.level}` }, five.length)));
    expect(await other.locator('.setup').textContent()).not.toContain('These levels were rated at');
  }, 120_000);
});
