import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { expectAccessible, screenshot, signInAsAdmin } from './fixtures.js';

// The journeys' server runs on PostgreSQL when TEST_DATABASE_URL is set (e2e/server.mjs), and then with
// PAYMENT_PROVIDER=demo named: a real deployment that grants purchases for free, which admins must be told.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

async function openAdmin(page: Page, path: string, lng: 'en' | 'es'): Promise<void> {
  await signInAsAdmin(page, lng);
  await page.goto(`${path}?lng=${lng}`);
}

test.describe('the demo payments banner in the admin panel', () => {
  test(
    onPostgres
      ? 'on PostgreSQL with PAYMENT_PROVIDER=demo, every admin page says purchases are free, in both languages'
      : 'on the embedded database, where demo payments are the point, no admin page shows a banner',
    async ({ page }) => {
      await openAdmin(page, '/admin', 'en');
      await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
      const banner = page.getByRole('region', { name: 'Demo payments' });
      if (onPostgres) {
        await expect(banner).toContainText('Demo payments are on.');
        await expect(banner).toContainText('PAYMENT_PROVIDER=stripe');
        await screenshot(page, 'admin-demo-payments-banner-1280');
        await expectAccessible(page);
        await page.goto('/admin/users?lng=es');
        await expect(page.getByRole('region', { name: 'Pagos de demostración' })).toContainText(
          'Los pagos de demostración están activos.',
        );
      } else {
        // The answer that would carry the flag has arrived: the totals come from it.
        await expect(page.getByRole('region', { name: 'Totals' })).toBeVisible();
        await expect(banner).toHaveCount(0);
        await page.goto('/admin/users?lng=es');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByRole('region', { name: 'Pagos de demostración' })).toHaveCount(0);
      }
    },
  );
});
