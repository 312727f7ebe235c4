import { readFileSync } from 'node:fs';
import { expect, request } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { chooseLanguage, expectAccessible, type Lng, originOf, shot, signUpViaApi, tr } from './fixtures.js';

/*
 * Admin > Insights: a customer runs a workflow of its own (so no other journey's runs count in it), the admin
 * narrows the insights to that workflow and today, reads the figures, and downloads the runs of the day as CSV
 * with the run list's filters. In both languages, on a desktop and a phone.
 */

for (const lng of ['en', 'es'] as const satisfies Lng[]) {
  test(`an admin reads a workflow's day and downloads its runs (${lng})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    const admin = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
    expect((await admin.post('/api/auth/signin', { data: E2E_ADMIN })).ok()).toBe(true);
    const adminUser = (await (await admin.get('/api/auth/me')).json()) as { id: string };
    const names = { es: `Cuadro ${lng} ${Date.now()}`, en: `Scorecard ${lng} ${Date.now()}` };
    const created = await admin.post('/api/admin/workflows', {
      data: {
        userId: adminUser.id,
        name: names,
        category: { es: 'Ventas', en: 'Sales' },
        // No service answers there: the run is charged at submission and stays running while this
        // journey reads it (only runs, customers and charged credits are checked, not refunds).
        webhookUrl: 'https://hooks.example.com/insights',
        isPublic: true,
        interactionType: 'survey',
        creditsPerExecution: 2,
        surveyQuestions: [{ id: 'q', question: { es: 'Equipo', en: 'Team' }, type: 'text', required: true }],
      },
    });
    expect(created.status()).toBe(201);
    const { id: workflowId } = (await created.json()) as { id: string };

    // The customer, in a browser of their own.
    const customerContext = await browser.newContext({ baseURL });
    const customer = await customerContext.newPage();
    await customer.goto('/');
    const { email } = await signUpViaApi(customer, 'Insight Customer');
    const headers = { origin: originOf(customer) };
    const started = await customer.request.post('/api/executions/start', { data: { workflowId }, headers });
    expect(started.status()).toBeLessThan(300);
    const { executionId } = (await started.json()) as { executionId: string };
    const completed = await customer.request.post(`/api/executions/${executionId}/complete`, {
      data: { responses: [{ questionId: 'q', answer: 'Ventas norte' }] },
      headers,
    });
    expect(completed.status()).toBeLessThan(300);
    await customerContext.close();

    await page.setViewportSize({ width: 1280, height: 900 });
    await chooseLanguage(page, lng);
    expect(
      (
        await page.request.post('/api/auth/signin', {
          data: E2E_ADMIN,
          headers: { origin: originOf(page) },
        })
      ).ok(),
    ).toBe(true);
    await page.goto(`/admin?lng=${lng}`);
    await page.getByRole('link', { name: tr(lng, 'admin', 'nav.insights') }).click();
    await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'insights', 'title') })).toBeVisible();

    await page.getByLabel(tr(lng, 'insights', 'period.label'), { exact: true }).selectOption('day');
    await page.getByLabel(tr(lng, 'insights', 'workflow'), { exact: true }).selectOption(workflowId);
    const totals = page.getByRole('region', { name: tr(lng, 'insights', 'totals') });
    // Each total is a card of its label and its figure.
    const total = (key: string) =>
      totals.locator('div').filter({ has: page.getByText(tr(lng, 'insights', key), { exact: true }) });
    await expect(total('figures.runs')).toHaveText(`${tr(lng, 'insights', 'figures.runs')}1`);
    await expect(total('figures.customers')).toHaveText(`${tr(lng, 'insights', 'figures.customers')}1`);
    await expect(total('figures.creditsCharged')).toHaveText(
      `${tr(lng, 'insights', 'figures.creditsCharged')}2`,
    );
    const perWorkflow = page.getByRole('table', { name: tr(lng, 'insights', 'perWorkflow') });
    await expect(perWorkflow.getByRole('row').filter({ hasText: names[lng] })).toBeVisible();
    await expect(page.getByText(tr(lng, 'insights', 'purchasesAccountWide'))).toBeVisible();
    await expectAccessible(page);
    await shot(page, `admin-insights-${lng}-1280`);

    // The runs of the day as CSV, narrowed by the run list's origin filter.
    await page.getByLabel(tr(lng, 'insights', 'exports.origin'), { exact: true }).selectOption('web');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: tr(lng, 'insights', 'exports.runs') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^flujo-runs-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    const rows = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toMatch(/^id,created_at,completed_at,status,origin,workflow_id,/);
    expect(rows.slice(1)).toHaveLength(1);
    expect(rows[1]).toContain(executionId);
    expect(rows[1]).toContain(email);
    expect(rows[1]).toContain(names.en);

    // The download is in the audit log.
    const audit = await admin.get('/api/admin/audit?action=data_exported&limit=5');
    const entries = (await audit.json()) as Array<{ targetId: string; details: { workflowId?: string } }>;
    expect(entries.some((e) => e.targetId === 'runs' && e.details.workflowId === workflowId)).toBe(true);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(total('figures.runs')).toHaveText(`${tr(lng, 'insights', 'figures.runs')}1`);
    await expectAccessible(page);
    // The download link kept the focus; a person reading the page would not have it there.
    await page.locator(':focus').blur();
    await shot(page, `admin-insights-${lng}-390`);

    expect((await admin.delete(`/api/workflows/${workflowId}`)).ok()).toBe(true);
    await admin.dispose();
  });
}
