import { type BrowserContext, type CDPSession, type Page, test as base } from '@playwright/test';

/**
 * The journeys' `test`: every journey's `page` is its worker's one browser page, handed on from journey to journey
 * with none of the last one's cookies, storage, permissions or routes (decision 200). A new browser context for
 * each journey started a new renderer process and loaded the app cold in it: about two thirds of a core-second a
 * journey on CI's machine, a tenth of a journey's browser time.
 *
 * A journey gets a context of its own, as Playwright's `page` gives, when it sets `ownContext`, and on its retry in
 * CI, which records a trace. It sets `ownContext` when it needs context options of its own besides the viewport
 * (a time zone, permissions; the lint refuses any other `test.use`), or changes its page for good (an init script).
 */
export const test = base.extend<{ ownContext: boolean }>({
  ownContext: [false, { option: true }],
  page: async ({ browser, baseURL, viewport, ownContext }, use, testInfo) => {
    // Playwright gives every context made during a journey that journey's options (`use` and `test.use`).
    if (ownContext || testInfo.retry > 0 || !baseURL) {
      const context = await browser.newContext();
      await use(await context.newPage());
      await context.close();
      return;
    }
    if (!shared || shared.page.isClosed()) {
      const context = await browser.newContext();
      const page = await context.newPage();
      shared = { context, page, cdp: await context.newCDPSession(page) };
    }
    const { context, page, cdp } = shared;
    if (viewport) await page.setViewportSize(viewport);
    await use(page);
    if (testInfo.status !== testInfo.expectedStatus) {
      // A journey that failed may have left its page in any state: the next one starts on a new page.
      shared = undefined;
      await context.close();
      return;
    }
    await forget(page, context, cdp, new URL(baseURL).origin);
  },
  // A journey that asks for its context gets its page's.
  context: async ({ page }, use) => {
    await use(page.context());
  },
});

let shared: { context: BrowserContext; page: Page; cdp: CDPSession } | undefined;

/**
 * Leaves the page as a new one would be for the next journey. The page parks on a plain-text address of the app's
 * own (robots.txt): the app's scripts stop (its event streams close, its timers end) and the renderer stays the
 * app's; a page on about:blank moved to a new renderer process at the next journey's first address, which cost
 * more than a new context.
 */
async function forget(page: Page, context: BrowserContext, cdp: CDPSession, origin: string) {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.goto(`${origin}/robots.txt`);
  await page.mouse.move(0, 0);
  await context.clearCookies();
  await context.clearPermissions();
  // Local storage, IndexedDB, caches and service workers of the app's origin (cookies went above). The app keeps
  // nothing in session storage, which belongs to the page and survives this.
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
}
