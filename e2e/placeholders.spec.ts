import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { type Lng, SCREENS, signInAsAdmin, tr } from './fixtures.js';

/*
 * Every placeholder fits its field, in both languages on a phone and a desktop: a hint cut off at the field's
 * edge says half of what it means. Measured with the field's own font against the room inside its padding.
 */

/** The placeholders of the page's visible one-line fields that are wider than the room they have. */
async function cutPlaceholders(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const canvas = document.createElement('canvas').getContext('2d');
    const cut = [];
    for (const el of document.querySelectorAll('input[placeholder]')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || !el.placeholder) continue;
      const style = getComputedStyle(el);
      canvas.font = style.font;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (canvas.measureText(el.placeholder).width > room) cut.push(el.placeholder + ' (' + Math.round(room) + ' px)');
    }
    return cut;
  })()`);
}

const PAGES = [
  '/signin',
  '/signup',
  '/forgot-password',
  '/workflows',
  '/admin/users',
  '/admin/workflows',
  '/admin/executions',
  '/admin/credits',
  '/admin/audit',
  '/admin/emails',
  '/admin/create-workflow',
];

for (const width of [390, 1280] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 768 ? 844 : 900 } });

    for (const lng of ['es', 'en'] as const satisfies Lng[]) {
      test(`every placeholder fits its field (${lng})`, SCREENS, async ({ page }) => {
        await signInAsAdmin(page, lng);
        const cut: string[] = [];
        for (const path of PAGES) {
          await page.goto(`${path}?lng=${lng}`);
          await expect(page.locator('main h1, main h2').first()).toBeVisible();
          if (path === '/admin/create-workflow') {
            // The survey builder's option field shows once a choice question is there.
            await page.getByText(tr(lng, 'admin', 'interaction.survey'), { exact: true }).click();
            await page.getByRole('button', { name: tr(lng, 'admin', 'survey.add') }).click();
            await page
              .getByLabel(tr(lng, 'admin', 'survey.type'))
              .first()
              .selectOption('select');
          }
          cut.push(...(await cutPlaceholders(page)).map((p) => `${path}: ${p}`));
        }
        expect(cut).toEqual([]);
      });
    }
  });
}
