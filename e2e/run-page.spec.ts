import { expect } from '@playwright/test';
import { test } from './journey.js';
import {
  chatToTheEnd,
  expectAccessible,
  expectResultScreen,
  fillAndSendSurvey,
  shot,
  signUpViaApi,
  tr,
} from './fixtures.js';

/*
 * Results people can read and a history they can come back to, in both languages on a phone and a desktop:
 * a Markdown text result with its raw data and a copy button, the history's link to each run's page, the
 * run page's timeline and answers, running a survey again with the same answers, and a refunded failure.
 */

// The demo workflows' fixed ids (demo/catalog.ts).
const CHAT_SUMMARY = 'd3e0a000-0000-4000-8000-000000000001';
const SURVEY_CSV = 'd3e0a000-0000-4000-8000-000000000002';
const ALWAYS_FAILS = 'd3e0a000-0000-4000-8000-000000000007';

/** A visible text from the translations, so each language checks its own wording. */

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({
      viewport: { width, height: width < 768 ? 844 : 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
      ownContext: true,
    });

    for (const lng of ['en', 'es'] as const) {
      test(`results, history and run page (${lng})`, async ({ page }) => {
        test.setTimeout(180_000);
        await signUpViaApi(page, 'Rita Runpage', lng);

        // A text result: Markdown, the copy button and the raw data behind a disclosure.
        await page.goto(`/workflows/${CHAT_SUMMARY}/execute?lng=${lng}`);
        await chatToTheEnd(page, [
          'A bakery that sells bread to cafés',
          'Ten cafés a week',
          'Friendly, short',
        ]);
        await expectResultScreen(page);
        const text = page.getByTestId('result-text');
        await expect(text.locator('li').first()).toBeVisible();
        await expect(text.locator('strong').first()).toBeVisible();
        await expect(text).toContainText('bakery');
        await expect(page.getByTestId('result-json')).toBeHidden();
        await page.getByText(tr(lng, 'execute', 'result.showRaw')).click();
        await expect(page.getByTestId('result-json')).toBeVisible();
        await expect(page.getByTestId('result-json')).toContainText('"conversation"');
        await page.getByTestId('result-copy').click();
        await expect(page.getByTestId('result-copy-status')).toHaveText(tr(lng, 'execute', 'result.copied'));
        await expect(page.getByTestId('result-copy')).toHaveText(tr(lng, 'execute', 'result.copied'));
        // A string: the journeys are type-checked without the DOM's types.
        const copied = await page.evaluate<string>('navigator.clipboard.readText()');
        expect(copied).toContain('bakery');
        await expectAccessible(page);
        await shot(page, `run-page-result-text-${lng}-${width}`);

        // A survey run to come back to, and a failing one that is refunded.
        await page.goto(`/workflows/${SURVEY_CSV}/execute?lng=${lng}`);
        await fillAndSendSurvey(page, lng);
        await page.goto(`/workflows/${ALWAYS_FAILS}/execute?lng=${lng}`);
        await fillAndSendSurvey(page, lng);
        await expect(page.getByTestId('result-error')).toBeVisible();

        // The history: each row links to its run, and the failed run says its credit came back.
        await page.goto(`/my-workflows?lng=${lng}`);
        await expect(page.getByTestId('execution-link')).toHaveCount(3);
        await expect(page.getByTestId('execution-refunded')).toHaveText(
          tr(lng, 'executions', 'creditsRefunded_one', { count: 1 }),
        );
        await expectAccessible(page);
        await shot(page, `run-page-history-${lng}-${width}`);

        // The survey run's page: timeline, answers, result, and run again with the same answers.
        // Newest first: the failed run, then the survey run, then the chat.
        await page.getByTestId('execution-link').nth(1).click();
        await expect(page).toHaveURL(/\/my-workflows\/[0-9a-f-]{36}$/);
        await expect(
          page.getByRole('heading', { name: tr(lng, 'execute', 'run.timeline.title') }),
        ).toBeVisible();
        await expect(page.getByTestId('run-step-started')).toBeVisible();
        await expect(page.getByTestId('run-step-sent')).toBeVisible();
        await expect(page.getByTestId('run-step-result')).toContainText(
          tr(lng, 'execute', 'run.timeline.completed'),
        );
        await expect(page.getByTestId('run-answers')).toContainText('Acme Bakery');
        await expect(page.getByTestId('result-filename')).toHaveText(/\.csv$/);
        await expect(page.getByTestId('run-refunded')).toHaveText('0');
        await expectAccessible(page);
        await shot(page, `run-page-survey-${lng}-${width}`);

        await page.getByTestId('run-again').click();
        await expect(page).toHaveURL(new RegExp(`/workflows/${SURVEY_CSV}/execute$`));
        await expect(page.getByTestId('survey-prefill-notice')).toHaveText(
          tr(lng, 'execute', 'survey.prefilled'),
        );
        await expect(page.locator('form input[type=text]').first()).toHaveValue('Acme Bakery');
        await expectAccessible(page);
        await shot(page, `run-page-run-again-${lng}-${width}`);

        // The failed run's page: its failure and the refund on the timeline.
        // Newest first again, now under the pending run that running again started.
        await page.goto(`/my-workflows?lng=${lng}`);
        await page.getByTestId('execution-link').nth(1).click();
        await expect(page.getByTestId('run-step-ended')).toContainText(
          tr(lng, 'execute', 'run.timeline.failed'),
        );
        await expect(page.getByTestId('run-step-refund')).toBeVisible();
        await expect(page.getByTestId('run-refunded')).toHaveText('1');
        await expect(page.getByTestId('run-error')).toBeVisible();
        await expectAccessible(page);
        await shot(page, `run-page-failed-${lng}-${width}`);
      });
    }
  });
}
