import { expect } from '@playwright/test';
import { test } from './journey.js';
import { expectAccessible, originOf, screenshot, shot, signUpViaApi, tr } from './fixtures.js';

/*
 * Being told when a run ends, in both languages on a phone and a desktop: a run started through the public
 * API (nobody watches it) ends while the person is on another page; the bell's count rises by itself (its
 * event stream), the list opens from the keyboard, following the notice opens the run's page and marks it
 * read. The notification settings sit in the account's settings.
 */

// The demo survey that answers with a CSV file (demo/catalog.ts).
const SURVEY_CSV = 'd3e0a000-0000-4000-8000-000000000002';

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 768 ? 844 : 900 } });

    for (const lng of ['en', 'es'] as const) {
      test(`the bell tells of a run that ended unwatched (${lng})`, async ({ page }) => {
        await signUpViaApi(page, 'Nora Notice', lng);
        await page.goto(`/my-workflows?lng=${lng}`);
        const bell = page.getByTestId('notification-bell');
        await expect(bell).toHaveAttribute('aria-label', tr(lng, 'common', 'bell.button_zero'));
        await expect(page.getByTestId('notification-count')).toHaveCount(0);

        const key = await page.request.post('/api/account/api-keys', {
          data: { name: 'bell journey' },
          headers: { origin: originOf(page) },
        });
        expect(key.status()).toBe(201);
        const run = await page.request.post('/api/v1/runs', {
          headers: { authorization: `Bearer ${((await key.json()) as { key: string }).key}` },
          data: {
            workflowId: SURVEY_CSV,
            answers: { name: 'Acme Bakery', score: 9, channel: 'Google', liked: ['Price'], comments: 'More' },
            wait: 30,
            lang: lng,
          },
        });
        expect(run.status(), await run.text()).toBeLessThan(300);
        const runId = ((await run.json()) as { id: string }).id;

        // Live: no reload.
        await expect(page.getByTestId('notification-count')).toHaveText('1', { timeout: 30_000 });
        await expect(bell).toHaveAttribute('aria-label', tr(lng, 'common', 'bell.button_one', { count: 1 }));

        // From the keyboard: the bell opens its list, and the notice is reachable by Tab.
        await bell.focus();
        await page.keyboard.press('Enter');
        const list = page.getByTestId('notification-list');
        await expect(list).toBeVisible();
        const item = list.getByTestId('notification-item');
        await expect(item).toHaveCount(1);
        const workflow = lng === 'en' ? 'Customer feedback to CSV' : 'Opiniones de clientes a CSV';
        await expect(item).toContainText(workflow);
        await expectAccessible(page);
        await shot(page, `notifications-bell-${lng}-${width}`);
        // The scan works in a page of its own, which can take the focus from this one: the keyboard walk
        // starts again from a closed list. Escape closes it and gives the focus back to the bell.
        await page.bringToFront();
        await bell.focus();
        if (await list.isVisible()) await page.keyboard.press('Escape');
        await expect(list).toHaveCount(0);
        await expect(bell).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(item).toHaveCount(1);
        // Focus moves into the list (its first control, "mark all as read"), then on to the notice.
        await expect(list.getByRole('button', { name: tr(lng, 'common', 'bell.markAll') })).toBeFocused();
        await page.keyboard.press('Tab');
        await expect(item).toBeFocused();
        await page.keyboard.press('Enter');

        // Opened: the run's page, and the count is gone.
        await expect(page).toHaveURL(new RegExp(`/my-workflows/${runId}`));
        await expect(page.getByTestId('notification-count')).toHaveCount(0);
        await expect(bell).toHaveAttribute('aria-label', tr(lng, 'common', 'bell.button_zero'));

        // The settings: per origin and channel, and the low-balance threshold.
        await page.goto(`/account?lng=${lng}#notifications`);
        const card = page.getByTestId('settings-notifications');
        await expect(card).toBeVisible();
        await card.getByLabel(tr(lng, 'account', 'settings.notifications.threshold')).fill('3');
        await card.getByRole('button', { name: tr(lng, 'account', 'settings.notifications.submit') }).click();
        await expect(page.getByText(tr(lng, 'account', 'settings.notifications.saved'))).toBeVisible();
        const saved = (await (await page.request.get('/api/notifications/settings')).json()) as {
          lowBalanceThreshold: number | null;
        };
        expect(saved.lowBalanceThreshold).toBe(3);
        await expectAccessible(page);
        await screenshot(card, `notifications-settings-${lng}-${width}`);
      });
    }
  });
}
