import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import {
  chooseLanguage,
  expectAccessible,
  fillAndSendSurvey,
  originOf,
  screenshot,
  setConfig,
  SETTINGS,
  signUpViaApi,
} from './fixtures.js';

// The words each language shows; both journeys assert on what a reader of that language sees.
const TEXT = {
  en: {
    buyCredits: 'Buy Credits',
    demo: 'Demo mode',
    select: 'Select a plan to continue',
    monthlyTab: 'Monthly Subscription',
    buyPack: 'Buy Pro - $12',
    buyMonthly: 'Buy Business - $60/month',
    success: 'Purchase complete',
    added30: '30 credits were added to your account.',
    balance35: 'New balance: 35 credits',
    added260: '260 credits were added to your account.',
    balance295: 'New balance: 295 credits',
    explore: 'Explore workflows',
    close: 'Close',
    never: 'No runs yet',
    filters: { all: 'All', usage: 'Runs', purchase: 'Purchases', bonus: 'Bonuses' },
    records: (n: number) => `${n} record${n === 1 ? '' : 's'}`,
    emptyFilter: 'No transactions match this filter',
    empty: 'No transactions',
    cancelPlan: 'Cancel plan',
    confirmCancel: 'Yes, cancel the plan',
    cancelled: 'Your monthly plan was cancelled',
    type: 'Type',
    purchaseType: 'Purchase',
    back: 'Back to my account',
    purchaseError: 'Purchase error',
    activePlan:
      'You already have an active monthly plan. Cancel it from your account before choosing another.',
  },
  es: {
    buyCredits: 'Comprar créditos',
    demo: 'Modo demo',
    select: 'Selecciona un plan para continuar',
    monthlyTab: 'Suscripción mensual',
    buyPack: 'Comprar Pro - 12 US$',
    buyMonthly: 'Comprar Business - 60 US$/mes',
    success: 'Compra completada',
    added30: 'Se han añadido 30 créditos a tu cuenta.',
    balance35: 'Nuevo saldo: 35 créditos',
    added260: 'Se han añadido 260 créditos a tu cuenta.',
    balance295: 'Nuevo saldo: 295 créditos',
    explore: 'Explorar workflows',
    close: 'Cerrar',
    never: 'Aún no hay ejecuciones',
    filters: { all: 'Todas', usage: 'Ejecuciones', purchase: 'Compras', bonus: 'Bonificaciones' },
    records: (n: number) => `${n} registro${n === 1 ? '' : 's'}`,
    emptyFilter: 'Ninguna transacción coincide con este filtro',
    empty: 'No hay transacciones',
    cancelPlan: 'Cancelar plan',
    confirmCancel: 'Sí, cancelar el plan',
    cancelled: 'Tu plan mensual se ha cancelado',
    type: 'Tipo',
    purchaseType: 'Compra',
    back: 'Volver a mi cuenta',
    purchaseError: 'Error en la compra',
    activePlan: 'Ya tienes un plan mensual activo. Cancélalo desde tu cuenta antes de elegir otro.',
  },
} as const;

const badge = (page: Page) => page.getByTestId('credits-badge').filter({ visible: true });
const filter = (page: Page, name: string) =>
  page.getByRole('group').getByRole('button', { name, exact: true });

for (const lng of ['en', 'es'] as const) {
  const t = TEXT[lng];

  test(`buying a pack and a monthly plan, then reading the history (${lng})`, async ({ page }) => {
    await signUpViaApi(page, 'Beatriz Buyer', lng);

    await page.goto('/account');
    await expect(page.getByTestId('account-name')).toHaveText('Beatriz Buyer');
    await expect(page.getByTestId('last-execution')).toHaveText(t.never);
    await expect(page.getByTestId('history-count')).toHaveText(t.records(1));
    await filter(page, t.filters.usage).click();
    await expect(page.getByText(t.emptyFilter)).toBeVisible();
    await filter(page, t.filters.all).click();
    await expect(page.getByTestId('transaction')).toHaveCount(1);

    await page.getByRole('link', { name: t.buyCredits }).first().click();
    await expect(page).toHaveURL(/\/credits$/);
    await expect(page.getByTestId('demo-mode')).toContainText(t.demo);
    const buy = page.getByTestId('buy-button');
    await expect(buy).toHaveText(t.select);
    await expect(buy).toBeDisabled();

    await page.getByTestId('plan-unique-pro').click();
    await expect(page.getByRole('radio', { name: /^Pro/ })).toBeChecked();
    await expect(buy).toHaveText(t.buyPack);
    await buy.click();
    const dialog = page.getByRole('dialog', { name: t.success });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(t.added30);
    await expect(dialog.getByTestId('success-balance')).toHaveText(t.balance35);
    await expect(badge(page)).toHaveText('35');
    await dialog.getByRole('button', { name: t.close }).first().click();
    await expect(dialog).toHaveCount(0);
    await expect(buy).toHaveText(t.select);

    await page.getByRole('tab', { name: t.monthlyTab }).click();
    await page.getByTestId('plan-monthly-business').click();
    await expect(buy).toHaveText(t.buyMonthly);
    await buy.click();
    await expect(dialog).toContainText(t.added260);
    await expect(dialog.getByTestId('success-balance')).toHaveText(t.balance295);
    await expect(badge(page)).toHaveText('295');
    await dialog.getByRole('button', { name: t.explore }).click();
    await expect(page).toHaveURL(/\/workflows$/);

    await page.goto('/account');
    await expect(page.getByTestId('account-balance')).toContainText('295');
    await expect(page.getByTestId('history-count')).toHaveText(t.records(4));
    await filter(page, t.filters.purchase).click();
    await expect(page.getByTestId('history-count')).toHaveText(t.records(2));
    await expect(page.getByTestId('transaction').first()).toContainText('+200');
    await filter(page, t.filters.bonus).click();
    await expect(page.getByTestId('history-count')).toHaveText(t.records(2));
    await expect(page.getByTestId('transaction').first()).toContainText('+60');
    await filter(page, t.filters.usage).click();
    await expect(page.getByText(t.emptyFilter)).toBeVisible();
    await filter(page, t.filters.purchase).click();
    const row = page.getByTestId('transaction').last();
    await row.getByRole('button').click();
    await expect(row.getByText(t.type, { exact: true })).toBeVisible();
    await expect(row.locator('dd').first()).toHaveText(t.purchaseType);
    await expect(row.locator('dd.text-green-700')).toHaveText('+30');

    // A second monthly plan while one is active: the error toast, and nothing changes.
    await page.getByRole('link', { name: t.buyCredits }).first().click();
    await page.getByRole('tab', { name: t.monthlyTab }).click();
    await page.getByTestId('plan-monthly-starter').click();
    await page.getByTestId('buy-button').click();
    await expect(page.getByText(t.purchaseError)).toBeVisible();
    await expect(page.getByText(t.activePlan)).toBeVisible();
    await expect(badge(page)).toHaveText('295');
    await page.getByRole('link', { name: t.back }).click();

    const subscription = page.getByTestId('subscription');
    await expect(subscription).toContainText('Business');
    await subscription.getByRole('button', { name: t.cancelPlan }).click();
    await page.getByRole('button', { name: t.confirmCancel }).click();
    await expect(page.getByText(t.cancelled)).toBeVisible();
    await expect(subscription).toHaveCount(0);
    await expect(page.getByTestId('account-balance')).toContainText('295');
  });
}

test('a run shows as the last execution and under Executions, in red with its workflow', async ({ page }) => {
  await signUpViaApi(page, 'Rita Runner', 'en');
  const workflows = (await (await page.request.get('/api/workflows/public')).json()) as Array<{
    id: string;
    name: { en: string };
    creditsPerExecution: number;
  }>;
  // A survey without a file question, so the form can be filled in by the shared fixture; a run is charged
  // when its answers are sent.
  const workflow = workflows.find((w) => w.name.en === 'Customer feedback to CSV');
  expect(workflow).toBeDefined();
  await page.goto(`/workflows/${workflow!.id}/execute?lng=en`);
  await fillAndSendSurvey(page, 'en');

  await page.goto('/account');
  await expect(page.getByTestId('last-execution')).toHaveText('Less than an hour ago');
  await filter(page, TEXT.en.filters.usage).click();
  await expect(page.getByTestId('history-count')).toHaveText(TEXT.en.records(1));
  const row = page.getByTestId('transaction');
  await expect(row).toContainText(workflow!.name.en);
  await row.getByRole('button').click();
  await expect(row.locator('dd.text-red-700')).toHaveText(`-${workflow!.creditsPerExecution}`);
  await expect(page.getByTestId('account-balance')).toContainText(String(5 - workflow!.creditsPerExecution));
});

test('a new account with no sign-up bonus sees the empty history', SETTINGS, async ({ page, request }) => {
  // The admin turns the sign-up gift off for a moment, so this account starts with no ledger rows at all.
  await chooseLanguage(page, 'en');
  const headers = { origin: originOf(page) };
  const signin = await request.post('/api/auth/signin', { data: E2E_ADMIN, headers });
  expect(signin.status()).toBe(200);
  const restore = await setConfig({ request, origin: headers.origin }, 'signup_bonus_credits', 0);
  try {
    await signUpViaApi(page, 'Empty Ledger');
  } finally {
    await restore();
  }
  await page.goto('/account');
  await expect(page.getByText(TEXT.en.empty, { exact: true })).toBeVisible();
  await expect(page.getByTestId('history-count')).toHaveText(TEXT.en.records(0));
  await expect(page.getByTestId('account-balance')).toContainText('0');
});

for (const lng of ['en', 'es'] as const) {
  for (const width of [1280, 390]) {
    test(`account and buy-credits are accessible and look finished (${lng}, ${width}px)`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await signUpViaApi(page, 'Ana Accesible', lng);
      await page.goto('/buy-credits');
      await expect(page.getByTestId('demo-mode')).toBeVisible();
      await page.getByTestId('plan-unique-business').click();
      await expectAccessible(page);
      await screenshot(page, `billing-buy-${lng}-${width}`);
      await page.getByTestId('buy-button').click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectAccessible(page);
      // The modal is fixed to the viewport: a full-page capture would smear it, so this one is the viewport.
      await screenshot(page, `billing-success-${lng}-${width}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: TEXT[lng].monthlyTab }).click();
      await page.getByTestId('plan-monthly-pro').click();
      await page.getByTestId('buy-button').click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.keyboard.press('Escape');
      await screenshot(page, `billing-buy-monthly-${lng}-${width}`);

      await page.goto('/account');
      await expect(page.getByTestId('history-count')).toHaveText(TEXT[lng].records(4));
      await page.getByTestId('transaction').first().getByRole('button').click();
      await expectAccessible(page);
      await screenshot(page, `billing-account-${lng}-${width}`);
      await page.getByRole('link', { name: TEXT[lng].buyCredits }).first().click();
      await expect(page.getByRole('link', { name: TEXT[lng].back })).toBeVisible();
      await context.close();
    });
  }
}
