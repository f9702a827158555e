// Which Chromium the browser tests drive. By default the build that the npm package
// @sparticuz/chromium ships inside itself (a dev dependency: `npm ci` brings it, no apt step and
// no download at run time); YANIV_CHROMIUM=/path/to/chromium points at a system browser instead.
import chromiumPackage from '@sparticuz/chromium';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page, chromium } from 'playwright-core';
import { onTestFailed } from 'vitest';

/** The flags of a headless run on a closed network: no sandbox (root in CI), no background connections. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserChoice {
  readonly executablePath: string;
  /** Where it came from, for the error message when it cannot start. */
  readonly source: string;
}

export async function chooseChromium(env: NodeJS.ProcessEnv = process.env): Promise<BrowserChoice> {
  const system = env.YANIV_CHROMIUM?.trim();
  if (system) return { executablePath: system, source: `YANIV_CHROMIUM=${system}` };
  return { executablePath: await chromiumPackage.executablePath(), source: 'the npm package @sparticuz/chromium' };
}

/** Launches headless Chromium, failing with where the browser came from and how to choose another. */
export async function launchChromium(): Promise<Browser> {
  const choice = await chooseChromium();
  try {
    return await chromium.launch({ executablePath: choice.executablePath, args: FLAGS, timeout: 30_000 });
  } catch (error) {
    throw new Error(
      `headless Chromium did not start from ${choice.source} (${choice.executablePath}); ` +
        `set YANIV_CHROMIUM to a system browser's path to use that instead: ${(error as Error).message}`,
    );
  }
}

/** Where the browser tests write their screenshots. */
export const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));

/** The page's uncaught errors as they happen, and a full-page screenshot (`NAME-failure.png`) if the test fails. */
export function watchPage(page: Page, name: string): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  onTestFailed(() =>
    page.screenshot({ path: `${RESULTS}${name}-failure.png`, fullPage: true }).then(
      () => undefined,
      () => undefined,
    ),
  );
  return errors;
}

/** Waits until the page wants the player: a dialog open (a round's result), their turn, or the game over. */
export async function playerMoment(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector('.dialog') !== null || /^(Your turn|Game over)/.test(document.querySelector('.status')?.textContent ?? ''),
    undefined,
    { timeout: 30_000 },
  );
}
