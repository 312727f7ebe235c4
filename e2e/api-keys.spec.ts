import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { expectAccessible, screenshot, signUpViaApi, tr } from './fixtures.js';

/*
 * Personal API keys on the account page, in both languages: create one, see it once, use it, revoke it.
 */

const meWith = (page: Page, key: string) =>
  page.request.get('/api/v1/me', { headers: { authorization: `Bearer ${key}` } });

for (const lng of ['en', 'es'] as const) {
  test(`an API key is created, shown once, used and revoked (${lng})`, async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpViaApi(page, 'E2E Keys', lng);
    await page.goto(`/account?lng=${lng}`);
    const section = page.locator('#api-keys');
    await expect(section.getByRole('heading', { name: tr(lng, 'account', 'apiKeys.heading') })).toBeVisible();
    await expect(section.getByText(tr(lng, 'account', 'apiKeys.empty'))).toBeVisible();

    await section.getByLabel(tr(lng, 'account', 'apiKeys.name')).fill('Agent');
    await section.getByLabel(tr(lng, 'account', 'apiKeys.limit')).fill('25');
    await section.getByRole('button', { name: tr(lng, 'account', 'apiKeys.create') }).click();
    const shown = section.getByTestId('api-key-value');
    await expect(shown).toHaveText(/^flj_[A-Za-z0-9_-]{32}$/);
    const key = (await shown.textContent()) ?? '';
    await section.getByRole('button', { name: tr(lng, 'account', 'apiKeys.copy') }).click();
    await expect(section.getByRole('button', { name: tr(lng, 'account', 'apiKeys.copied') })).toBeVisible();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
    await expect(section.getByTestId('api-key-row')).toHaveCount(1);
    await expect(section.getByTestId('api-key-row')).toContainText(key.slice(0, 12));
    await expectAccessible(page);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, `api-keys-created-${lng}-1280`);
    // The key, its copy button and the list must fit a phone too.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(shown).toBeVisible();
    expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, `api-keys-created-${lng}-390`);
    await page.setViewportSize({ width: 1280, height: 720 });

    const me = await meWith(page, key);
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ monthlyCreditLimit: 25, spentThisMonth: 0 });

    // Shown once: after a reload only its prefix is left.
    await page.reload();
    await expect(section.getByTestId('api-key-row')).toHaveCount(1);
    await expect(section.getByTestId('api-key-value')).toHaveCount(0);
    await expect(page.getByText(key)).toHaveCount(0);

    await section
      .getByRole('button', { name: tr(lng, 'account', 'apiKeys.revokeNamed', { name: 'Agent' }) })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(tr(lng, 'account', 'apiKeys.confirmBody'));
    await expectAccessible(page);
    await screenshot(page, `api-keys-revoke-${lng}-1280`, { fullPage: false });
    await dialog.getByRole('button', { name: tr(lng, 'account', 'apiKeys.confirm') }).click();
    await expect(section.getByText(tr(lng, 'account', 'apiKeys.empty'))).toBeVisible();
    expect((await meWith(page, key)).status()).toBe(401);
  });
}
