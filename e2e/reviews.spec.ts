import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import {
  expectAccessible,
  fillAndSendSurvey,
  type Lng,
  screenshot,
  shot,
  signInAsAdmin,
  signUpViaApi,
  tr,
} from './fixtures.js';

/*
 * Ratings and reviews, in both languages on a phone and a desktop: complete a demo run, rate it on the result
 * screen, see the card's average (and the top-rated order), read the reviews from the card, edit and delete
 * the review, write it again, and an admin hides it: it leaves the average, and its author is told.
 */

// Survey demo workflows that complete (demo/catalog.ts): one per journey, so each starts without reviews.
const WORKFLOWS = {
  '390-en': {
    id: 'd3e0a000-0000-4000-8000-000000000002',
    name: { en: 'Customer feedback to CSV', es: 'Opiniones de clientes a CSV' },
  },
  '390-es': {
    id: 'd3e0a000-0000-4000-8000-000000000003',
    name: { en: 'Expense report spreadsheet', es: 'Informe de gastos en Excel' },
  },
  '1280-en': {
    id: 'd3e0a000-0000-4000-8000-000000000004',
    name: { en: 'Weekly KPI chart', es: 'Gráfico semanal de KPIs' },
  },
  '1280-es': {
    id: 'd3e0a000-0000-4000-8000-000000000005',
    name: { en: 'Incident report (PDF)', es: 'Informe de incidencia (PDF)' },
  },
} as const;

/** A visible text from the translations (with i18next's plural suffixes), so each language checks its own wording. */

/** An open dialog locks the page's scrolling, so a full-page shot would stitch it: the viewport only. */
async function dialogShot(page: Page, name: string): Promise<void> {
  await screenshot(page, name, { fullPage: false });
}

/** Picks the stars and writes the comment in the open review form, then sends it. */
async function submitReview(page: Page, lng: Lng, stars: number, comment: string, update = false) {
  const form = page.getByTestId('review-form');
  const starName = tr(lng, 'reviews', 'stars', { count: stars });
  const radio = form.getByRole('radio', { name: starName, exact: true });
  // The radio is drawn as its label's star.
  await form
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: starName, exact: true }) })
    .click();
  await expect(radio).toBeChecked();
  await form.getByLabel(tr(lng, 'reviews', 'commentLabel')).fill(comment);
  await form.getByRole('button', { name: tr(lng, 'reviews', update ? 'update' : 'submit') }).click();
  await expect(page.getByTestId('my-review')).toBeVisible();
}

for (const width of [390, 1280] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 768 ? 844 : 900 } });

    for (const lng of ['en', 'es'] as const) {
      test(`rate, read, edit, delete and hide a review (${lng})`, async ({ page, browser }) => {
        test.setTimeout(180_000);
        const workflow = WORKFLOWS[`${width}-${lng}`];
        const name = workflow.name[lng];
        await signUpViaApi(page, 'Rosa Reviewer', lng);

        // Before any run: the card offers the reviews, but no form to write one.
        await page.goto(`/workflows?lng=${lng}`);
        const card = page.getByTestId('workflow-card').filter({ hasText: name });
        await expect(card.getByTestId('rating-summary')).toHaveText(tr(lng, 'reviews', 'noReviews'));
        await card.getByRole('button', { name: tr(lng, 'reviews', 'open', { name, count: 0 }) }).click();
        const dialog = page.getByRole('dialog');
        await expect(dialog.getByTestId('review-needs-run')).toHaveText(tr(lng, 'reviews', 'needsRun'));
        await page.keyboard.press('Escape');

        // A completed run: the result screen asks for a rating.
        await page.goto(`/workflows/${workflow.id}/execute?lng=${lng}`);
        await fillAndSendSurvey(page, lng);
        await expect(page.getByTestId('review-form')).toBeVisible();
        await expectAccessible(page);
        await shot(page, `reviews-result-form-${lng}-${width}`);
        // Markup in a comment stays text.
        await submitReview(page, lng, 4, 'Fast and clear <b>not bold</b>');
        await expect(page.getByTestId('my-review')).toContainText('Fast and clear <b>not bold</b>');
        await expect(page.getByTestId('my-review').locator('b')).toHaveCount(0);
        await expect(page.getByTestId('reviews-panel').getByTestId('rating-summary')).toContainText(
          tr(lng, 'reviews', 'summary', { average: 4, count: 1 }),
        );

        // The catalogue: the card's average and count, first in the top-rated order (kept in the address).
        await page.goto(`/workflows?lng=${lng}`);
        await page.getByLabel(tr(lng, 'catalogue', 'sortLabel')).selectOption('rating');
        await expect(page).toHaveURL(/[?&]sort=rating/);
        await expect(page.getByTestId('workflow-card').first()).toContainText(name);
        await expect(card.getByTestId('rating-summary')).toContainText(
          tr(lng, 'reviews', 'summary', { average: 4, count: 1 }),
        );
        await expectAccessible(page);
        await shot(page, `reviews-catalogue-${lng}-${width}`);

        // The reviews from the card: read, edit to five stars, then delete.
        await card.getByRole('button', { name: tr(lng, 'reviews', 'open', { name, count: 1 }) }).click();
        // The reader's own review is listed once: as theirs, not again among the others'.
        await expect(dialog.getByTestId('my-review')).toContainText('Fast and clear');
        await expect(dialog.getByTestId('review-item')).toHaveCount(0);
        await expect(dialog.getByText(tr(lng, 'reviews', 'noOthers'))).toBeVisible();
        await expectAccessible(page);
        await dialogShot(page, `reviews-dialog-${lng}-${width}`);
        await dialog.getByRole('button', { name: tr(lng, 'reviews', 'edit') }).click();
        await submitReview(page, lng, 5, 'Even better the second time', true);
        await expect(dialog.getByTestId('my-review')).toContainText('Even better the second time');
        await expect(dialog.getByTestId('review-item')).toHaveCount(0);
        await expect(dialog.getByTestId('rating-summary')).toContainText(
          tr(lng, 'reviews', 'summary', { average: 5, count: 1 }),
        );
        await dialog.getByRole('button', { name: tr(lng, 'reviews', 'delete'), exact: true }).click();
        await dialog.getByRole('button', { name: tr(lng, 'reviews', 'deleteYes') }).click();
        await expect(dialog.getByTestId('review-form')).toBeVisible();
        await expect(dialog.getByText(tr(lng, 'reviews', 'empty'))).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(card.getByTestId('rating-summary')).toHaveText(tr(lng, 'reviews', 'noReviews'));

        // Written again, then hidden by an admin in the admin's workflow screen.
        await card.getByRole('button', { name: tr(lng, 'reviews', 'open', { name, count: 0 }) }).click();
        await submitReview(page, lng, 2, 'Spam spam spam');
        await page.keyboard.press('Escape');
        await expect(card.getByTestId('rating-summary')).toContainText(
          tr(lng, 'reviews', 'summary', { average: 2, count: 1 }),
        );

        const adminContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
        const admin = await adminContext.newPage();
        await signInAsAdmin(admin, lng);
        await admin.goto(`/admin/workflows?lng=${lng}&q=${encodeURIComponent(name)}`);
        await admin.getByRole('button', { name: tr(lng, 'admin', 'reviews.openNamed', { name }) }).click();
        const adminDialog = admin.getByRole('dialog');
        await expect(adminDialog.getByTestId('admin-review')).toHaveCount(1);
        await expect(adminDialog.getByTestId('admin-review')).toContainText('Spam spam spam');
        await adminDialog.getByRole('button', { name: tr(lng, 'admin', 'reviews.hide') }).click();
        await expect(
          adminDialog.getByText(tr(lng, 'admin', 'reviews.hiddenBadge'), { exact: true }),
        ).toBeVisible();
        // The confirmation comes as a toast (its module loads on first use, after the badge may show): the page
        // is checked with it on screen.
        await expect(
          admin.locator('[data-sonner-toast]').filter({ hasText: tr(lng, 'admin', 'reviews.hiddenToast') }),
        ).toBeVisible();
        await expectAccessible(admin);
        await dialogShot(admin, `reviews-admin-${lng}-${width}`);
        await adminContext.close();

        // For the author: out of the average, and a note on their own review.
        await page.reload();
        await expect(card.getByTestId('rating-summary')).toHaveText(tr(lng, 'reviews', 'noReviews'));
        await card.getByRole('button', { name: tr(lng, 'reviews', 'open', { name, count: 0 }) }).click();
        await expect(dialog.getByTestId('my-review')).toContainText(tr(lng, 'reviews', 'hiddenNote'));
        await expect(dialog.getByTestId('review-item')).toHaveCount(0);
        await expectAccessible(page);
        await dialogShot(page, `reviews-hidden-${lng}-${width}`);
      });
    }
  });
}
