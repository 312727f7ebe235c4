import { expect } from '@playwright/test';
import { test } from './journey.js';
import { expectAccessible, type Lng, screenshot, signInAsAdmin, signUpViaApi, tr } from './fixtures.js';

/*
 * Admin > Users leaves deleted accounts out until its status filter asks for them, in both languages on a
 * phone and a desktop.
 */

for (const width of [390, 1280] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 768 ? 844 : 900 } });

    for (const lng of ['en', 'es'] as const satisfies Lng[]) {
      test(`deleted accounts are listed only under their filter (${lng})`, async ({
        page,
        browser,
        baseURL,
      }) => {
        // An account that its owner deleted, from another browser.
        const ownerContext = await browser.newContext({ baseURL });
        const owner = await ownerContext.newPage();
        const { password } = await signUpViaApi(owner, 'Gone Person');
        const me = (await (await owner.request.get('/api/auth/me')).json()) as { id: string };
        const gone = await owner.request.post('/api/account/delete', {
          data: { password },
          headers: { origin: baseURL! },
        });
        expect(gone.ok()).toBe(true);
        await ownerContext.close();
        const anonymised = `deleted-${me.id}@deleted.invalid`;

        await signInAsAdmin(page, lng);
        await page.goto(`/admin/users?lng=${lng}`);
        const search = page.getByRole('searchbox');
        await search.fill(me.id.slice(0, 8));
        const filter = page.getByLabel(tr(lng, 'admin', 'users.status'), { exact: true });
        await expect(filter.locator('option:checked')).toHaveText(tr(lng, 'admin', 'users.allLive'));
        await expect(page.getByText(tr(lng, 'admin', 'users.empty'))).toBeVisible();

        await filter.selectOption('deleted');
        // A table on a desktop, a list of cards on a phone.
        const row = page.getByRole(width < 768 ? 'listitem' : 'row').filter({ hasText: anonymised });
        await expect(row).toHaveCount(1);
        await expect(row).toContainText(tr(lng, 'admin', 'accountStatus.deleted'));
        // Nothing left to act on.
        await expect(row.getByRole('button')).toHaveCount(0);
        await expectAccessible(page);
        await screenshot(page, `admin-users-deleted-${lng}-${width}`);
      });
    }
  });
}
