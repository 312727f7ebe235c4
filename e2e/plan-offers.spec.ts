import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { ACCOUNT_OFFERS, formatUsd, planBonusCredits } from '../src/shared/contract/plans.js';
import { E2E_ADMIN } from '../playwright.config.js';
import {
  expectAccessible,
  fillAndSendSurvey,
  type Lng,
  screenshot,
  shot,
  signUpViaApi,
  tr,
} from './fixtures.js';

/*
 * The account page's three cards are real offers: each leads to a purchase of exactly that card (its name,
 * credits, bonus and price), the history shows what was paid, and a run's charge leads to its run.
 */

const badge = (page: Page) => page.getByTestId('credits-badge').filter({ visible: true });

/** The seeded survey demo that answers with a CSV file, read through the admin API. */
async function surveyDemo(baseURL: string, page: Page): Promise<string> {
  const admin = await page
    .context()
    .browser()!
    .newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const signIn = await admin.request.post('/api/auth/signin', { data: E2E_ADMIN });
  expect(signIn.ok()).toBe(true);
  const rows = (await (await admin.request.get('/api/admin/workflows?limit=500')).json()) as Array<{
    id: string;
    webhookUrl: string;
  }>;
  await admin.close();
  const survey = rows.find((r) => r.webhookUrl.endsWith('/demo-hooks/survey-csv'));
  if (!survey) throw new Error('the survey-csv demo workflow is not seeded');
  return survey.id;
}

for (const lng of ['en', 'es'] as const satisfies Lng[]) {
  for (const width of [1280, 390]) {
    test(`each account card buys exactly itself, and the history shows the payment and the run (${lng}, ${width}px)`, async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(150_000);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await signUpViaApi(page, 'Olga Oferta', lng);
      let balance = 5;

      for (const offer of ACCOUNT_OFFERS) {
        const bonus = planBonusCredits(offer);
        const price = formatUsd(offer.priceUsd, lng);
        await page.goto('/account');
        const card = page.getByTestId(`choose-offer-${offer.id}`);
        await expect(card).toHaveText(tr(lng, 'account', 'plans.choose', { plan: offer.name }));
        await card.click();
        await expect(page).toHaveURL(new RegExp(`/credits\\?type=offer&plan=${offer.id}$`));

        // The purchase screen opens on that very card, with the card's price on the button.
        const chosen = page.getByTestId(`plan-offer-${offer.id}`);
        await expect(chosen.getByRole('radio')).toBeChecked();
        await expect(chosen).toContainText(price);
        await expect(chosen).toContainText(tr(lng, 'billing', 'card.credits', { count: offer.credits }));
        if (bonus > 0)
          await expect(chosen).toContainText(tr(lng, 'billing', 'card.bonusOnce', { count: bonus }));
        const buy = page.getByTestId('buy-button');
        await expect(buy).toHaveText(tr(lng, 'billing', 'buy', { plan: offer.name, price }));
        if (offer.id === 'pro') {
          await expectAccessible(page);
          await shot(page, `offers-chosen-${lng}-${width}`);
        }
        await buy.click();

        const dialog = page.getByRole('dialog', { name: tr(lng, 'billing', 'success.title') });
        await expect(dialog).toContainText(
          tr(lng, 'billing', 'success.body', { count: offer.credits + bonus }),
        );
        balance += offer.credits + bonus;
        await expect(dialog.getByTestId('success-balance')).toHaveText(
          tr(lng, 'billing', 'success.balance', { count: balance }),
        );
        await expect(badge(page)).toHaveText(String(balance));
        await page.keyboard.press('Escape');
        await expect(dialog).toHaveCount(0);
      }
      expect(balance).toBe(5 + 10 + 55 + 330);

      // The history: each payment with the dollars paid and the reference its receipt quotes.
      await page.goto('/account');
      await page
        .getByRole('group')
        .getByRole('button', { name: tr(lng, 'account', 'history.filters.purchase'), exact: true })
        .click();
      await expect(page.getByTestId('history-count')).toHaveText(
        tr(lng, 'account', 'history.count', { count: 3 }),
      );
      const pro = page.getByTestId('transaction').filter({ hasText: '+50' });
      await expect(pro).toContainText(formatUsd(20, lng));
      await pro.getByRole('button').click();
      await expect(pro.getByTestId('transaction-paid')).toHaveText(formatUsd(20, lng));
      await expect(
        pro.getByText(tr(lng, 'account', 'history.details.reference'), { exact: true }),
      ).toBeVisible();
      await expectAccessible(page);
      // The history alone: a full page would paint the sticky header half-way down.
      const history = page.locator('section', { has: page.getByTestId('history-count') });
      await screenshot(history, `offers-history-${lng}-${width}`);

      // A run, charged when its answers are sent: its row in the history leads to its page.
      const surveyId = await surveyDemo(baseURL ?? '', page);
      await page.goto(`/workflows/${surveyId}/execute`);
      await fillAndSendSurvey(page, lng);
      await page.goto('/account');
      await page
        .getByRole('group')
        .getByRole('button', { name: tr(lng, 'account', 'history.filters.usage'), exact: true })
        .click();
      const charge = page.getByTestId('transaction').first();
      await charge.getByRole('button').click();
      const runLink = charge.getByTestId('transaction-run');
      await expect(runLink).toHaveText(tr(lng, 'account', 'history.openRun'));
      await screenshot(history, `offers-run-charge-${lng}-${width}`);
      await runLink.click();
      await expect(page).toHaveURL(/\/my-workflows\/[0-9a-f-]{36}$/);
      await expect(page.getByTestId('run-credits')).toBeVisible();
      await shot(page, `offers-run-page-${lng}-${width}`);
      await context.close();
    });
  }
}
