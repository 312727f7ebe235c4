import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import {
  expectAccessible,
  fillAndSendSurvey,
  type Lng,
  originOf,
  shot,
  signInAsAdmin,
  tr,
} from './fixtures.js';

/*
 * Issue 26, sections 4-6, in both languages (Spanish on a desktop, English on a phone): the admin edits a
 * workflow's price on the edit page (the create page's form), reads the history's side-by-side difference,
 * restores the first version, runs a test run on the workflow's real webhook (a service on loopback) without
 * being charged, and archives the workflow (it leaves the catalogue) and brings it back.
 */

let service: http.Server;
let serviceUrl = '';
const calls: unknown[] = [];

test.beforeAll(async () => {
  // The workflow's service: it answers every call at once with a finished result.
  service = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      calls.push(JSON.parse(body || '{}'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'completed', output_data: { message: 'lifecycle ok' } }));
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/hook`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => service.close(() => resolve()));
});

async function signInAdmin(page: Page, lng: Lng): Promise<{ adminId: string }> {
  await signInAsAdmin(page, lng);
  const me = (await (await page.request.get('/api/auth/me')).json()) as { id: string };
  return { adminId: me.id };
}

const credits = async (page: Page) =>
  ((await (await page.request.get('/api/auth/me')).json()) as { credits: number }).credits;

const catalogueIds = async (page: Page) =>
  ((await (await page.request.get('/api/workflows/public')).json()) as Array<{ id: string }>).map(
    (w) => w.id,
  );

for (const [lng, width] of [
  ['es', 1280],
  ['en', 390],
] as const) {
  test.describe(`${lng} at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 768 ? 844 : 900 } });

    test(`edit, history, restore, test run and archive (${lng})`, async ({ page }) => {
      const { adminId } = await signInAdmin(page, lng);
      const name = `Lifecycle ${lng} ${Date.now()}`;
      const created = await page.request.post('/api/admin/workflows', {
        headers: { origin: originOf(page) },
        data: {
          userId: adminId,
          name: { es: name, en: name },
          category: { es: 'Ventas', en: 'Sales' },
          webhookUrl: serviceUrl,
          isPublic: true,
          creditsPerExecution: 3,
          interactionType: 'survey',
          surveyQuestions: [{ id: 'q1', question: { es: '¿Empresa?', en: 'Company?' }, type: 'text' }],
        },
      });
      expect(created.status()).toBe(201);
      const id = ((await created.json()) as { id: string }).id;
      const a = (key: string, vars: Record<string, string | number> = {}) => tr(lng, 'admin', key, vars);

      // The edit page is the create page's form, filled from the workflow: the price can change.
      await page.goto(`/admin/workflows/${id}?lng=${lng}`);
      await expect(page.getByRole('heading', { name: a('edit.title'), level: 1 })).toBeVisible();
      const price = page.getByLabel(a('form.creditsPerExecution'));
      await expect(price).toHaveValue('3');
      // The survey builder holds the stored question (a string: the journeys are type-checked without the DOM).
      await expect
        .poll(() =>
          page.evaluate<string[]>(
            "Array.from(document.querySelectorAll('main input, main textarea')).map((e) => e.value)",
          ),
        )
        .toContain('¿Empresa?');
      await price.fill('4');
      await page.getByRole('button', { name: a('common.save'), exact: true }).click();
      await expect(page.getByText(a('edit.saved'))).toBeVisible();
      await expect(page.getByText(a('edit.subtitle', { name, version: 2 }))).toBeVisible();
      await expectAccessible(page);
      await shot(page, `lifecycle-edit-${lng}-${width}`);

      // The history: two versions, their difference side by side, and restoring the first.
      await page.getByRole('link', { name: a('versions.open') }).click();
      await expect(page.getByRole('heading', { name: a('versions.title'), level: 1 })).toBeVisible();
      const diff = page.getByTestId('version-diff');
      await expect(diff.getByText(a('versions.fields.creditsPerExecution'))).toBeVisible();
      await expect(diff.getByText('3', { exact: true })).toBeVisible();
      await expect(diff.getByText('4', { exact: true })).toBeVisible();
      await expectAccessible(page);
      await shot(page, `lifecycle-history-${lng}-${width}`);
      await page.getByRole('button', { name: a('versions.restoreNamed', { version: 1 }) }).click();
      await page
        .getByRole('dialog', { name: a('versions.restoreTitle', { version: 1 }) })
        .getByRole('button', { name: a('versions.restore'), exact: true })
        .click();
      await expect(page.getByText(a('versions.restored', { version: 1 }))).toBeVisible();
      await expect(page.getByText(a('versions.restoredFrom', { version: 1 })).first()).toBeVisible();

      // A test run: the real webhook is called, the run ends on its page, and nothing is charged.
      const before = await credits(page);
      const callsBefore = calls.length;
      await page.goto(`/admin/workflows/${id}?lng=${lng}`);
      await page.getByRole('link', { name: a('testRun.open') }).click();
      await expect(page.getByTestId('test-run-notice')).toHaveText(tr(lng, 'execute', 'test.notice'));
      await expectAccessible(page);
      await shot(page, `lifecycle-test-run-${lng}-${width}`);
      await fillAndSendSurvey(page, lng);
      expect(calls.length).toBe(callsBefore + 1);
      expect(await credits(page)).toBe(before);

      // Archive: out of the catalogue, marked on the edit page; bringing it back puts it in again.
      expect(await catalogueIds(page)).toContain(id);
      await page.goto(`/admin/workflows/${id}?lng=${lng}`);
      await page.getByRole('button', { name: a('archive.archive'), exact: true }).click();
      await expect(page.getByText(a('archive.archived'))).toBeVisible();
      await expect(page.getByText(a('archive.explained'))).toBeVisible();
      expect(await catalogueIds(page)).not.toContain(id);
      await page.getByRole('button', { name: a('archive.unarchive'), exact: true }).click();
      await expect(page.getByText(a('archive.unarchived'))).toBeVisible();
      expect(await catalogueIds(page)).toContain(id);
    });
  });
}
