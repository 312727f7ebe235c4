import { expect } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { expectAccessible, newEmail, SCREENS, screenshot, signUpViaApi } from './fixtures.js';

test('a new user signs up and lands on the catalogue with 5 credits in the badge', async ({ page }) => {
  await page.goto('/signup?lng=en');
  await page.getByLabel('Full name').fill('Nora Newcomer');
  await page.getByLabel('Email').fill(newEmail());
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(page.getByTestId('credits-badge').filter({ visible: true })).toHaveText('5');
  await page.getByTestId('credits-badge').filter({ visible: true }).click();
  const modal = page.getByRole('dialog', { name: 'Your credits' });
  await expect(modal.getByText('You have 5 credits')).toBeVisible();
  await modal.getByRole('button', { name: 'View plans' }).click();
  await expect(page).toHaveURL(/\/buy-credits$/);
  await expect(modal).toHaveCount(0);
});

test('the admin signs in and lands on /admin', async ({ page }) => {
  await page.goto('/signin?lng=en');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

test('a wrong password shows the red banner', async ({ page }) => {
  await page.goto('/signin?lng=en');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill('definitely-wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password');
  await expect(page).toHaveURL(/\/signin/);
});

test('?lng=es renders Spanish and the choice survives a reload', async ({ page }) => {
  await page.goto('/?lng=es');
  await expect(page.getByRole('link', { name: 'Explorar workflows' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Explorar workflows' })).toBeVisible();
  await page.getByRole('button', { name: 'en', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Explore workflows' })).toBeVisible();
});

test('signed-out visitors are sent to /signin from a guarded page, and a non-admin away from /admin', async ({
  page,
}) => {
  await page.goto('/account?lng=en');
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto('/signup?lng=en');
  await page.getByLabel('Full name').fill('Guarded');
  await page.getByLabel('Email').fill(newEmail());
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the menu opens and closes', async ({ page }) => {
    await page.goto('/?lng=en');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    await expect(page.locator('#mobile-menu')).toBeVisible();
    await page.locator('#mobile-menu').getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.locator('#mobile-menu')).toHaveCount(0);
  });
});

for (const lng of ['en', 'es'] as const) {
  for (const width of [1280, 390]) {
    test(
      `home, sign-in and sign-up are accessible and look finished (${lng}, ${width}px)`,
      SCREENS,
      async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        for (const [name, path] of [
          ['home', '/'],
          ['signin', '/signin'],
          ['signup', '/signup'],
        ] as const) {
          await page.goto(`${path}?lng=${lng}`);
          await expect(page.locator('h1')).toBeVisible();
          await expectAccessible(page);
          await screenshot(page, `${name}-${lng}-${width}`);
        }
      },
    );
  }
}

test('unknown routes show the 404 page with a link home', async ({ page }) => {
  await page.goto('/no/such/page?lng=en');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a session that ends while the app is open sends the person to sign in at the next call', async ({
  page,
  context,
}) => {
  await signUpViaApi(page, 'Sam Expired', 'en');
  // The bell loads lazily and reads its count: once that call is answered, the next call is the click below.
  const bellRead = page.waitForResponse((r) => r.url().includes('/api/notifications/unread-count'));
  await page.goto('/workflows');
  await expect(page.getByTestId('credits-badge').filter({ visible: true })).toHaveText('5');
  await bellRead;
  // The cookie goes (as when the session expires or is revoked elsewhere); the app still holds the user.
  await context.clearCookies();
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'My runs' })
    .click();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByTestId('credits-badge')).toHaveCount(0);
});
