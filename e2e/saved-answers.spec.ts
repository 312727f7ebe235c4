import { expect, request } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import {
  expectAccessible,
  expectResultScreen,
  fillSurvey,
  type Lng,
  SCREENS,
  screenshot,
  signUpViaApi,
  tr,
} from './fixtures.js';

/*
 * Saved answers: saved from the survey form without running, saved again from the result screen, listed on
 * their page (phone and desktop, both languages), and run from there without the form: the run page opens
 * and the list then shows that run.
 */

let surveyId: string;

test.beforeAll(async ({ baseURL }) => {
  const admin = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  expect((await admin.post('/api/auth/signin', { data: E2E_ADMIN })).ok()).toBe(true);
  const rows = (await (await admin.get('/api/admin/workflows?limit=500')).json()) as Array<{
    id: string;
    webhookUrl: string;
  }>;
  const survey = rows.find((r) => r.webhookUrl.includes('/demo-hooks/survey-csv'));
  if (!survey) throw new Error('the survey-csv demo workflow is not seeded');
  surveyId = survey.id;
  await admin.dispose();
});

for (const lng of ['es', 'en'] as const satisfies readonly Lng[]) {
  test(
    `saves a survey's answers, lists them and runs them without the form (${lng})`,
    SCREENS,
    async ({ page }) => {
      await signUpViaApi(page, lng === 'es' ? 'Lucía Guardada' : 'Sam Saver', lng);

      // Saved from the form, without running.
      await page.goto(`/workflows/${surveyId}/execute`);
      await fillSurvey(page, lng);
      const formName = lng === 'es' ? 'Opiniones del lunes' : 'Monday feedback';
      await page.getByRole('textbox', { name: tr(lng, 'execute', 'save.withoutRunning') }).fill(formName);
      await page.getByTestId('save-answers-submit').click();
      await expect(page.getByTestId('save-answers-done')).toContainText(formName);

      // Sent, then saved again from the result screen under another name.
      await page.getByRole('button', { name: tr(lng, 'execute', 'survey.submit') }).click();
      await expectResultScreen(page);
      const runName = lng === 'es' ? 'Tras la ejecución' : 'After the run';
      await page.getByRole('textbox', { name: tr(lng, 'execute', 'save.title') }).fill(runName);
      await page.getByTestId('save-answers-submit').click();
      await expect(page.getByTestId('save-answers-done')).toContainText(runName);

      await page.goto('/saved-answers');
      await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'saved', 'title') })).toBeVisible();
      const rows = page.getByTestId('saved-row');
      await expect(rows).toHaveCount(2);
      const row = rows.filter({ hasText: formName });
      await expect(row.getByTestId('saved-last-run')).toHaveText(tr(lng, 'saved', 'never'));
      await expectAccessible(page);
      await screenshot(page, `saved-answers-${lng}-1280`);
      await page.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(page);
      await screenshot(page, `saved-answers-${lng}-390`);

      // Run now: no form, the run page opens, and the list shows the run afterwards.
      await row.getByTestId('saved-run').click();
      await expect(page).toHaveURL(/\/my-workflows\/[0-9a-f-]{36}$/);
      await expect(page.getByText(tr(lng, 'common', 'runStatus.completed')).first()).toBeVisible({
        timeout: 45_000,
      });
      await page.goto('/saved-answers');
      await expect(
        page.getByTestId('saved-row').filter({ hasText: formName }).getByTestId('saved-last-run'),
      ).toContainText(tr(lng, 'common', 'runStatus.completed'));

      // Edit: the same form, prefilled with the saved answers and their name; saving replaces them.
      await page
        .getByTestId('saved-row')
        .filter({ hasText: formName })
        .getByRole('link', { name: tr(lng, 'saved', 'edit') })
        .click();
      const nameField = page.getByRole('textbox', { name: tr(lng, 'execute', 'save.withoutRunning') });
      await expect(nameField).toHaveValue(formName);
      await expect(page.locator('form input[type=text]').first()).toHaveValue('Acme Bakery');
      await page.getByTestId('save-answers-submit').click();
      await expect(page.getByTestId('save-answers-done')).toContainText(formName);
      await page.goto('/saved-answers');
      await expect(page.getByTestId('saved-row')).toHaveCount(2);
    },
  );
}
