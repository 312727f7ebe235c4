import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './journey.js';
import { expectAccessible, type Lng, originOf, screenshot, signUpViaApi, tr } from './fixtures.js';

/*
 * The account's signed-in devices (each one named, placed, dated, and signed out on its own) and the scroll
 * position across navigation, in both languages on a phone and a desktop.
 */

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** The window's vertical scroll position. */
const scrollY = (page: Page) => page.evaluate<number>('window.scrollY');

async function signedIn(page: Page): Promise<boolean> {
  return (await page.request.get('/api/auth/me')).ok();
}

/** Another device, a phone's browser, signed in as the account. */
async function phoneOf(browser: Browser, baseURL: string | undefined, email: string, password: string) {
  const context = await browser.newContext({ baseURL, userAgent: ANDROID_CHROME });
  const page = await context.newPage();
  await page.goto('/');
  const res = await page.request.post('/api/auth/signin', {
    data: { email, password },
    headers: { origin: originOf(page) },
  });
  expect(res.ok()).toBe(true);
  return { context, page };
}

for (const width of [390, 1280] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 768 ? 844 : 900 } });

    for (const lng of ['en', 'es'] as const satisfies Lng[]) {
      test(`lists the signed-in devices and signs one out (${lng})`, async ({ page, browser, baseURL }) => {
        const { email, password } = await signUpViaApi(page, 'Dana Devices', lng);
        const phone = await phoneOf(browser, baseURL, email, password);

        await page.goto(`/account?lng=${lng}`);
        const card = page.getByTestId('settings-sessions');
        const rows = card.getByTestId('session-row');
        await expect(rows).toHaveCount(2);
        const phoneName = tr(lng, 'account', 'settings.sessions.device', {
          browser: 'Chrome',
          os: 'Android',
        });
        const phoneRow = rows.filter({ hasText: phoneName });
        const thisRow = rows.filter({ hasText: tr(lng, 'account', 'settings.sessions.thisDevice') });
        await expect(phoneRow).toHaveCount(1);
        await expect(thisRow).toHaveCount(1);
        await expect(thisRow).toContainText(tr(lng, 'account', 'settings.sessions.activeNow'));
        // The e2e server sees loopback: the address with its last part masked, never the whole of it.
        await expect(phoneRow).toContainText('127.0.0.x');
        await expect(phoneRow).toContainText(
          tr(lng, 'account', 'settings.sessions.lastUsed', {
            when: tr(lng, 'account', 'relative.underHour'),
          }),
        );
        await card.scrollIntoViewIfNeeded();
        await expectAccessible(page);
        await screenshot(card, `account-devices-${lng}-${width}`);

        await phoneRow
          .getByRole('button', {
            name: tr(lng, 'account', 'settings.sessions.signOutOne', { device: phoneName }),
          })
          .click();
        await expect(
          page.getByText(tr(lng, 'account', 'settings.sessions.oneDone', { device: phoneName })),
        ).toBeVisible();
        await expect(rows).toHaveCount(1);
        await expect(rows).toContainText(tr(lng, 'account', 'settings.sessions.thisDevice'));
        expect(await signedIn(phone.page)).toBe(false);
        expect(await signedIn(page)).toBe(true);
        await phone.context.close();

        // This device's own sign-out signs this browser out.
        await thisRow.getByRole('button').click();
        await expect(page).toHaveURL(/\/$|\/\?/);
        expect(await signedIn(page)).toBe(false);
      });

      test(`a new page opens at its top; Back returns to where the reader was (${lng})`, async ({ page }) => {
        await signUpViaApi(page, 'Sol Scroll', lng);
        await page.goto(`/account?lng=${lng}`);
        await expect(page.getByTestId('settings-sessions')).toBeVisible();
        await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
        await expect.poll(() => scrollY(page)).toBeGreaterThan(300);
        const left = await scrollY(page);

        // A link in the page's footer-most part: the next page starts at its top.
        if (width < 768) {
          await page.getByRole('button', { name: tr(lng, 'common', 'nav.openMenu') }).click();
        }
        await page
          .getByRole('navigation', { name: tr(lng, 'common', 'nav.mainNavigation') })
          .getByRole('link', { name: tr(lng, 'common', 'nav.workflows'), exact: true })
          .click();
        await expect(page).toHaveURL(/\/workflows/);
        await expect(page.getByTestId('workflow-card').first()).toBeVisible();
        await expect.poll(() => scrollY(page)).toBe(0);
        await screenshot(page, `scroll-new-page-${lng}-${width}`);

        await page.goBack();
        await expect(page).toHaveURL(/\/account/);
        await expect(page.getByTestId('settings-sessions')).toBeVisible();
        await expect.poll(() => scrollY(page)).toBeGreaterThan(left - 50);
        await page.goForward();
        await expect(page).toHaveURL(/\/workflows/);
        await expect.poll(() => scrollY(page)).toBe(0);
      });
    }
  });
}
