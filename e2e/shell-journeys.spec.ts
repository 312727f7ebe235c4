import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import {
  chooseLanguage,
  expectAccessible,
  originOf,
  SCREENS,
  screenshot,
  setConfig,
  SETTINGS,
  signInAsAdmin,
  signUpViaApi,
} from './fixtures.js';

// Fixed ids of the demo workflows (demo/catalog.ts).
const CHAT_DEMO = 'd3e0a000-0000-4000-8000-000000000001';
const SURVEY_DEMO = 'd3e0a000-0000-4000-8000-000000000005';

const badge = (page: Page) => page.getByTestId('credits-badge').filter({ visible: true });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('every screen names itself in the title bar, in the current language', SCREENS, async ({ page }) => {
  await page.goto('/workflows?lng=es');
  await expect(page).toHaveTitle('Catálogo de workflows · Flujo');
  await page.getByRole('button', { name: 'en', exact: true }).click();
  await expect(page).toHaveTitle('Workflow catalogue · Flujo');
  await page.goto('/signin?lng=en');
  await expect(page).toHaveTitle('Sign in · Flujo');
  await page.goto('/no/such/page?lng=es');
  await expect(page).toHaveTitle('Página no encontrada · Flujo');
  await signInAsAdmin(page, 'en');
  await page.goto('/admin/users?lng=es');
  await expect(page).toHaveTitle('Usuarios · Panel de administración · Flujo');
});

test(
  'the skip link appears on the first Tab and moves focus to the main content',
  SCREENS,
  async ({ page }) => {
    await page.goto('/workflows?lng=en');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    const hidden = await skip.boundingBox();
    expect((hidden?.y ?? 0) + (hidden?.height ?? 0)).toBeLessThanOrEqual(0);
    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    const box = await skip.boundingBox();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect(box?.height ?? 0).toBeGreaterThan(30);
    await screenshot(page, 'skip-link-en-1280');
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    await expect(page).toHaveURL(/\/workflows(\?lng=en)?$/);
    await expectAccessible(page);
  },
);

test('closing the credits modal puts focus back on the credits badge', SCREENS, async ({ page }) => {
  await signUpViaApi(page, 'Focus Keeper', 'en');
  await page.goto('/workflows?lng=en');
  await badge(page).focus();
  await page.keyboard.press('Enter');
  const modal = page.getByRole('dialog', { name: 'Your credits' });
  await expect(modal).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await expect(badge(page)).toBeFocused();
  // Closed with the X too.
  await badge(page).click();
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(badge(page)).toBeFocused();
});

test('a malformed workflow id shows "Workflow not found", not a temporary error', async ({ page }) => {
  await signUpViaApi(page, 'Typo Typer', 'en');
  await page.goto('/workflows/not-a-uuid/execute?lng=en');
  await expect(page.getByRole('heading', { name: 'Workflow not found' })).toBeVisible();
  await expect(page.getByText('try again', { exact: false })).toHaveCount(0);
  await expect(page).toHaveTitle('Run a workflow · Flujo');
  await expectAccessible(page);
});

for (const width of [390, 1280]) {
  test(`a toast never covers the chat's message box (${width}px)`, SCREENS, async ({ page }) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await signUpViaApi(page, 'Toast Watcher', 'en');
    // The assistant fails once, which is what raises a toast on this screen.
    await page.route('**/api/chat', (route) =>
      route.fulfill({
        status: 502,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'The assistant is not available', code: 'BAD_GATEWAY' }),
      }),
    );
    await page.goto(`/workflows/${CHAT_DEMO}/execute?lng=en`);
    const input = page.locator('#chat-input');
    await expect(input).toBeEnabled();
    await input.fill('A birthday party');
    await input.press('Enter');
    const toast = page.locator('[data-sonner-toast]').first();
    await expect(toast).toBeVisible();
    // Let the toast's entry animation end before measuring.
    await page.waitForTimeout(600);
    const toastBox = await toast.boundingBox();
    const composerBox = await page.getByTestId('chat-composer').boundingBox();
    expect(toastBox).not.toBeNull();
    expect(composerBox).not.toBeNull();
    if (toastBox && composerBox) expect(overlaps(toastBox, composerBox)).toBe(false);
    if (width < 600 && toastBox) expect(toastBox.y).toBeLessThan(200);
    await screenshot(page, `toast-chat-en-${width}`);
  });
}

test('on a phone a toast over the survey stays clear of its submit button', SCREENS, async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpViaApi(page, 'Survey Toaster', 'en');
  await page.route('**/api/executions/*/complete', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Internal error', code: 'INTERNAL' }),
    }),
  );
  await page.goto(`/workflows/${SURVEY_DEMO}/execute?lng=en`);
  const submit = page.getByRole('button', { name: 'Submit answers' });
  await expect(submit).toBeVisible();
  await page.getByLabel(/Reported by/).fill('Ana');
  await page.getByLabel(/Severity/).selectOption({ label: 'High' });
  await page.getByLabel(/People affected/).fill('3');
  await page.getByLabel(/What happened/).fill('The printer caught fire');
  await submit.scrollIntoViewIfNeeded();
  await submit.click();
  const toast = page.locator('[data-sonner-toast]').first();
  await expect(toast).toBeVisible();
  await page.waitForTimeout(600);
  const toastBox = await toast.boundingBox();
  const submitBox = await submit.boundingBox();
  if (toastBox && submitBox) expect(overlaps(toastBox, submitBox)).toBe(false);
});

test("the admin's own row in the users list offers no Suspend", async ({ page }) => {
  await chooseLanguage(page, 'en');
  const other = await signUpViaApi(page, 'Someone Else');
  await page.context().clearCookies();
  await signInAsAdmin(page, 'en');
  await page.goto('/admin/users?lng=en');
  await page.getByRole('searchbox').fill(E2E_ADMIN.email);
  const ownRow = page.getByRole('row').filter({ hasText: E2E_ADMIN.email });
  await expect(ownRow).toHaveCount(1);
  await expect(ownRow).toContainText('(you)');
  await expect(ownRow.getByRole('button', { name: `Suspend ${E2E_ADMIN.email}` })).toHaveCount(0);
  await expect(ownRow.getByRole('button', { name: `Adjust credits of ${E2E_ADMIN.email}` })).toHaveCount(1);
  await page.getByRole('searchbox').fill(other.email);
  const otherRow = page.getByRole('row').filter({ hasText: other.email });
  await expect(otherRow.getByRole('button', { name: `Suspend ${other.email}` })).toHaveCount(1);
  await expectAccessible(page);
});

test('the configuration screen says when chats use the built-in demo assistant', async ({ page }) => {
  await signInAsAdmin(page, 'en');
  await page.goto('/admin/config?lng=es');
  await expect(page.getByTestId('assistant-notice')).toContainText(
    'Los chats usan el asistente de demostración integrado.',
  );
  await expectAccessible(page);
  await screenshot(page, 'admin-config-assistant-es-1280');
});

test(
  'near its message limit the chat counts down, and at the limit it wraps up and the run is sent',
  SETTINGS,
  async ({ page, browser, baseURL }) => {
    await signInAsAdmin(page, 'en');
    const restore = await setConfig(
      { request: page.request, origin: originOf(page) },
      'chat_max_messages',
      2,
    );
    const context = await browser.newContext({ baseURL });
    try {
      const user = await context.newPage();
      await user.goto('/?lng=en');
      await signUpViaApi(user, 'Brief Talker');
      await user.goto(`/workflows/${CHAT_DEMO}/execute?lng=en`);
      const input = user.locator('#chat-input');
      await expect(input).toBeEnabled();
      await input.fill('A birthday party');
      await input.press('Enter');
      await expect(user.getByTestId('chat-remaining')).toHaveText(
        'Last message: the assistant will wrap up after it',
      );
      await expect(input).toBeEnabled();
      await expectAccessible(user);
      await screenshot(user, 'chat-last-message-en-1280');
      await input.fill('Twenty guests');
      await input.press('Enter');
      // The demo assistant had more questions, but the last allowed message gets the summary instead. The
      // summary is a Markdown list, so its numbers are list markers rather than text.
      await expect(user.locator('[role=log] [data-role=assistant]').last()).toContainText(
        /summary of your answers[\s\S]*A birthday party[\s\S]*Twenty guests/,
      );
      await expect(user.getByText('Workflow completed')).toBeVisible({ timeout: 30_000 });
    } finally {
      await restore();
      await context.close();
    }
  },
);

test('survey options read in the UI language only', async ({ page }) => {
  await signUpViaApi(page, 'Lectora Bilingüe', 'es');
  await page.goto(`/workflows/${SURVEY_DEMO}/execute?lng=es`);
  const severity = page.getByLabel(/Gravedad/);
  await expect(severity.locator('option')).toHaveText([
    'Elige una opción',
    'Baja',
    'Media',
    'Alta',
    'Crítica',
  ]);
  await expect(page.getByRole('checkbox', { name: 'Informática' })).toBeVisible();
  await expect(page.getByTestId('survey-form')).not.toContainText(' / ');
  await expectAccessible(page);
});

test('a screen whose code is still loading keeps the last one, with a line across the top, until it arrives', async ({
  page,
}) => {
  await signUpViaApi(page, 'Slow Network', 'en');
  await page.goto('/workflows');
  await expect(page.getByTestId('workflow-card').first()).toBeVisible();
  // The runs screen's code held back, as on a slow network, until the journey lets it through.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/my-executions-page-[\w-]+\.js$/i, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('link', { name: 'My runs' }).first().click();
  await expect(page.getByTestId('screen-loading')).toBeVisible();
  await expect(page.locator('main')).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('heading', { level: 1, name: 'Workflow catalogue' })).toBeVisible();
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'My runs' })).toBeVisible();
  await expect(page.getByTestId('screen-loading')).toHaveCount(0);
  await expect(page.locator('main')).not.toHaveAttribute('aria-busy', 'true');
});
