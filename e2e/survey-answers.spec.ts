import { expect, request } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { expectAccessible, type Lng, SCREENS, screenshot, signUpViaApi, tr } from './fixtures.js';

/*
 * The survey form checks the answers itself, by the server's rules, and says what is wrong next to each
 * field in the page's language (never the browser's own bubbles, which follow the browser's language).
 */

let workflowId: string;

test.beforeAll(async ({ baseURL }) => {
  const admin = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  expect((await admin.post('/api/auth/signin', { data: E2E_ADMIN })).ok()).toBe(true);
  const me = (await (await admin.get('/api/auth/me')).json()) as { id: string };
  const created = await admin.post('/api/admin/workflows', {
    data: {
      userId: me.id,
      name: { es: 'Presupuesto de evento', en: 'Event budget' },
      category: { es: 'Ventas', en: 'Sales' },
      webhookUrl: 'https://hooks.example.com/event-budget',
      isPublic: true,
      interactionType: 'survey',
      surveyQuestions: [
        {
          id: 'host',
          question: { es: 'Nombre del anfitrión', en: 'Host name' },
          type: 'text',
          required: true,
        },
        {
          id: 'guests',
          question: { es: 'Número de invitados', en: 'Number of guests' },
          type: 'number',
          required: true,
          min: 1,
          max: 200,
        },
        { id: 'notes', question: { es: 'Notas', en: 'Notes' }, type: 'textarea', required: false },
      ],
    },
  });
  expect(created.status()).toBe(201);
  workflowId = ((await created.json()) as { id: string }).id;
  await admin.dispose();
});

for (const lng of ['es', 'en'] as const satisfies readonly Lng[]) {
  test(
    `the survey form shows its own translated messages next to the fields (${lng})`,
    SCREENS,
    async ({ page }) => {
      await signUpViaApi(page, lng === 'es' ? 'Lucía Prueba' : 'Liam Tester', lng);
      await page.goto(`/workflows/${workflowId}/execute`);
      const submit = page.getByRole('button', { name: tr(lng, 'execute', 'survey.submit') });
      await expect(submit).toBeVisible();
      await page.locator('#survey-guests').fill('500');
      await submit.click();

      const required =
        lng === 'es' ? 'Esta pregunta necesita una respuesta' : 'This question needs an answer';
      const range = lng === 'es' ? 'Escribe un número entre 1 y 200' : 'Enter a number from 1 to 200';
      await expect(page.getByText(tr(lng, 'execute', 'survey.invalidSummary', { count: 2 }))).toBeVisible();
      await expect(page.locator('#survey-host')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#survey-host')).toBeFocused();
      await expect(page.locator('#survey-host-error')).toHaveText(required);
      await expect(page.locator('#survey-guests-error')).toHaveText(range);
      await expect(page.locator('#survey-guests')).toHaveAttribute('aria-describedby', 'survey-guests-error');
      // The optional question is fine left empty.
      await expect(page.locator('#survey-notes')).not.toHaveAttribute('aria-invalid', 'true');
      // No browser bubble: the browser's own check is off.
      await expect(page.getByTestId('survey-form')).toHaveAttribute('novalidate', '');
      await expectAccessible(page);
      await page.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
      await screenshot(page, `survey-answers-errors-${lng}-1280`);
      await page.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(page);
      await screenshot(page, `survey-answers-errors-${lng}-390`);

      // Mended, the messages go.
      await page.locator('#survey-host').fill('Ana');
      await page.locator('#survey-guests').fill('120');
      await expect(page.getByRole('alert')).toHaveCount(0);
    },
  );
}
