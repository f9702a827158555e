// The browser tests need nothing installed by hand: the default Chromium comes with `npm ci`.
import { accessSync, constants } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chooseChromium } from './browser.js';

describe('the browser the tests drive', () => {
  it('is, by default, the build shipped inside an npm package, unpacked and executable', async () => {
    const choice = await chooseChromium({});
    expect(choice.source).toContain('@sparticuz/chromium');
    expect(() => accessSync(choice.executablePath, constants.X_OK)).not.toThrow();
  });

  it('is a system browser when YANIV_CHROMIUM names one', async () => {
    expect(await chooseChromium({ YANIV_CHROMIUM: '/opt/chromium/chrome' })).toEqual({
      executablePath: '/opt/chromium/chrome',
      source: 'YANIV_CHROMIUM=/opt/chromium/chrome',
    });
  });
});
