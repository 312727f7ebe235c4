import { expect } from '@playwright/test';
import { test } from './journey.js';
import { expectAccessible, type Lng, SCREENS, screenshot, signUpViaApi, tr } from './fixtures.js';

/*
 * A file kept with saved answers (decision 159), in both languages at a phone's and a desktop's width: saved
 * answers of the seeded "CSV summary" demo wait for their file ("needs review", never sent), the file is
 * uploaded where the review names it, and the list then names the file. "Edit" opens the form with the kept
 * file shown by name and size: saved untouched it is kept; replaced in the form, the new one is kept instead.
 * "Run now" sends it: the demo service reads its copy through the run's signed link and the summary comes back.
 */

const CSV_SUMMARY = 'd3e0a000-0000-4000-8000-000000000008';
const CSV = Buffer.from('city,total\nMadrid,3\nSevilla,4\nBilbao,5\n');
const NORTH = Buffer.from('city,total\nBilbao,5\nOviedo,2\n');

for (const lng of ['es', 'en'] as const satisfies readonly Lng[]) {
  test(
    `keeps a file with saved answers and runs them with it (${lng})`,
    SCREENS,
    async ({ page, baseURL }) => {
      await signUpViaApi(page, lng === 'es' ? 'Nuria Archivo' : 'Fran Files', lng);
      const name = lng === 'es' ? 'Ventas con archivo' : 'Sales with a file';
      const created = await page.request.post('/api/saved-inputs', {
        data: { workflowId: CSV_SUMMARY, name, answers: {}, lang: lng },
        // The cookie routes refuse a call without the app's own Origin (CSRF).
        headers: { origin: baseURL ?? '' },
      });
      expect(created.status()).toBe(201);

      await page.goto('/saved-answers');
      const row = page.getByTestId('saved-row').filter({ hasText: name });
      await expect(row.getByTestId('saved-review')).toBeVisible();
      await expect(row.getByTestId('saved-run')).toBeDisabled();
      await expectAccessible(page);
      await screenshot(page, `saved-answer-files-review-${lng}-1280`);

      await row
        .getByLabel(tr(lng, 'saved', 'uploadFile', { question: 'data' }))
        .setInputFiles({ name: 'sales.csv', mimeType: 'text/csv', buffer: CSV });
      await expect(row.getByTestId('saved-review')).toHaveCount(0);
      await expect(row.getByTestId('saved-files')).toHaveText('sales.csv');
      await page.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(page);
      await screenshot(page, `saved-answer-files-kept-${lng}-390`);

      // Edit: the same form, the kept file shown by name and size; saved untouched, it stays.
      const edit = row.getByRole('link', { name: tr(lng, 'saved', 'edit') });
      await edit.click();
      const kept = page.getByTestId('file-answer-data');
      await expect(kept.getByTestId('file-name')).toHaveText('sales.csv');
      await expect(kept).toContainText(tr(lng, 'execute', 'file.kept'));
      await expect(
        kept.getByRole('button', { name: tr(lng, 'execute', 'file.removeNamed', { name: 'sales.csv' }) }),
      ).toBeVisible();
      await expectAccessible(page);
      await screenshot(page, `saved-answer-files-edit-${lng}-390`);
      await page.getByTestId('save-answers-submit').click();
      await expect(page.getByTestId('save-answers-done')).toContainText(name);
      await page.goto('/saved-answers');
      await expect(row.getByTestId('saved-files')).toHaveText('sales.csv');

      // Replaced in the form: saving keeps the new file in the old one's place.
      await page.setViewportSize({ width: 1280, height: 900 });
      await edit.click();
      await expect(kept.getByTestId('file-name')).toHaveText('sales.csv');
      await page
        .getByTestId('file-input-data')
        .setInputFiles({ name: 'north.csv', mimeType: 'text/csv', buffer: NORTH });
      await expect(kept.getByTestId('file-name')).toHaveText('north.csv');
      await expect(kept).toContainText(tr(lng, 'execute', 'file.uploaded'));
      await expectAccessible(page);
      await screenshot(page, `saved-answer-files-edit-${lng}-1280`);
      await page.getByTestId('save-answers-submit').click();
      await expect(page.getByTestId('save-answers-done')).toContainText(name);
      await page.goto('/saved-answers');
      await expect(row.getByTestId('saved-files')).toHaveText('north.csv');

      await row.getByTestId('saved-run').click();
      await expect(page).toHaveURL(/\/my-workflows\/[0-9a-f-]{36}$/);
      await expect(page.getByText(tr(lng, 'common', 'runStatus.completed')).first()).toBeVisible({
        timeout: 45_000,
      });
      // The replaced file was sent: two rows, not the first file's three.
      await expect(page.getByText(lng === 'es' ? /2 filas/ : /2 rows/).first()).toBeVisible();
    },
  );
}
