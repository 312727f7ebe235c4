import { expect } from '@playwright/test';
import { test } from './journey.js';
import {
  expectAccessible,
  expectResultScreen,
  fillSurvey,
  screenshot,
  signUpViaApi,
  tr,
} from './fixtures.js';

/*
 * Results that read well, in both languages at a phone's and a desktop's width: the seeded "CSV summary"
 * demo answers GitHub-flavoured Markdown with tables (its first and last rows), long enough that the result
 * card scrolls inside itself rather than cutting the page; and a failed run says why in the page's language,
 * with the workflow's own words and without the server's technical detail.
 */

const CSV_SUMMARY = 'd3e0a000-0000-4000-8000-000000000008';
const ALWAYS_FAILS = 'd3e0a000-0000-4000-8000-000000000007';

const TEXT = {
  en: {
    choose: 'Your CSV file',
    first: 'First rows',
    last: 'Last rows',
    why: 'The workflow could not finish your request.',
    said: 'The workflow said: The inventory system refused the connection',
  },
  es: {
    choose: 'Tu archivo CSV',
    first: 'Primeras filas',
    last: 'Últimas filas',
    why: 'El workflow no pudo completar tu solicitud.',
    said: 'El workflow indicó: El sistema de inventario rechazó la conexión',
  },
} as const;

const ROWS = Array.from({ length: 40 }, (_, i) => `${i % 2 ? 'North' : 'South'},${100 + i},${i + 1}`);
const SALES = `region,sales,units\n${ROWS.join('\n')}\n`;

for (const lng of ['en', 'es'] as const) {
  for (const width of [390, 1280] as const) {
    const t = TEXT[lng];
    const tag = `${lng}-${width}`;

    test(`${tag}: a Markdown result shows its tables as tables and scrolls inside its card`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 860 });
      await signUpViaApi(page, lng === 'es' ? 'Marta Tablas' : 'Mark Tables', lng);
      await page.goto(`/workflows/${CSV_SUMMARY}/execute?lng=${lng}`);
      await expect(page.getByRole('button', { name: t.choose })).toBeVisible();
      await page
        .getByTestId('file-input-data')
        .setInputFiles({ name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from(SALES) });
      await expect(page.getByTestId('file-name')).toHaveText('sales.csv');
      await page.getByRole('checkbox', { name: t.first }).check();
      await page.getByRole('checkbox', { name: t.last }).check();
      await page.getByRole('button', { name: tr(lng, 'execute', 'survey.submit') }).click();
      await expectResultScreen(page);

      const result = page.getByTestId('result-text');
      const tables = result.locator('table');
      await expect(tables).toHaveCount(2);
      await expect(tables.first().locator('th')).toHaveText(['region', 'sales', 'units']);
      await expect(tables.first().locator('tbody tr')).toHaveCount(5);
      await expect(tables.last().locator('tbody tr').last().locator('td')).toHaveText(['North', '139', '40']);
      // Longer than the card: it scrolls inside itself and the page does not scroll sideways.
      const sizes = await result.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
      expect(sizes.scroll).toBeGreaterThan(sizes.client);
      const pageWidth = await page.evaluate('document.documentElement.scrollWidth');
      expect(pageWidth).toBeLessThanOrEqual(width);
      await expectAccessible(page);
      await screenshot(page, `result-markdown-top-${tag}`);
      await result.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await expect(tables.last()).toBeInViewport();
      await screenshot(result, `result-markdown-card-end-${tag}`);
    });

    test(`${tag}: a failed run says why in the page language, with the workflow's own words`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 860 });
      await signUpViaApi(page, lng === 'es' ? 'Fermín Fallo' : 'Fay Failure', lng);
      await page.goto(`/workflows/${ALWAYS_FAILS}/execute?lng=${lng}`);
      await fillSurvey(page, lng);
      await page.getByRole('button', { name: tr(lng, 'execute', 'survey.submit') }).click();
      await expectResultScreen(page);
      const why = page.getByTestId('result-error');
      await expect(why).toContainText(t.why);
      await expect(why).toContainText(t.said);
      await expect(why).not.toContainText('HTTP');
      await screenshot(page, `result-failed-${tag}`);
    });
  }
}
