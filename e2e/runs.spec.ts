import { readFileSync } from 'node:fs';
import { expect, request, type Page } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import {
  adjustCreditsAsAdmin,
  chatToTheEnd,
  expectAccessible,
  expectResultScreen,
  fillSurvey,
  type Lng,
  originOf,
  screenshot,
  signUpViaApi,
  tr,
} from './fixtures.js';

interface Demo {
  id: string;
  name: { en: string; es: string };
  interactionType: 'chatbot' | 'survey';
  creditsPerExecution: number;
  welcome: { en: string; es: string };
}

/** The seeded demo workflows by their service's path (/demo-hooks/<slug>), read through the admin API. */
async function demoWorkflows(baseURL: string): Promise<Record<string, Demo>> {
  const admin = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const signIn = await admin.post('/api/auth/signin', { data: E2E_ADMIN });
  expect(signIn.ok()).toBe(true);
  const list = await admin.get('/api/admin/workflows?limit=500');
  expect(list.ok()).toBe(true);
  const rows = (await list.json()) as Array<Omit<Demo, 'welcome'> & { webhookUrl: string }>;
  const bySlug: Record<string, Demo> = {};
  for (const row of rows) {
    const slug = /\/demo-hooks\/([\w-]+)/.exec(row.webhookUrl)?.[1];
    if (!slug) continue;
    const detail = (await (await admin.get(`/api/admin/workflows/${row.id}`)).json()) as {
      welcomeMessage: Demo['welcome'] | null;
    };
    bySlug[slug] = { ...row, welcome: detail.welcomeMessage ?? { en: '', es: '' } };
  }
  await admin.dispose();
  return bySlug;
}

let demos: Record<string, Demo>;
const demo = (slug: string): Demo => {
  const found = demos[slug];
  if (!found) throw new Error(`demo workflow ${slug} is not seeded`);
  return found;
};

test.beforeAll(async ({ baseURL }) => {
  demos = await demoWorkflows(baseURL ?? '');
});

const TEXT = {
  en: {
    execute: 'Run',
    completed: 'Workflow completed',
    finished: 'Workflow finished with an error',
    missing: 'This question needs an answer',
    submit: 'Submit answers',
    statusCompleted: 'Completed',
    statusFailed: 'Failed',
    download: 'Download',
    overlay: 'Sign in to run workflows',
  },
  es: {
    execute: 'Ejecutar',
    completed: 'Workflow completado',
    finished: 'Workflow finalizado con un error',
    missing: 'Esta pregunta necesita una respuesta',
    submit: 'Enviar respuestas',
    statusCompleted: 'Completado',
    statusFailed: 'Fallido',
    download: 'Descargar',
    overlay: 'Inicia sesión para ejecutar workflows',
  },
} as const;

const badge = (page: Page) => page.getByTestId('credits-badge').filter({ visible: true });

/** From the catalogue, the way a person does it: the card's Execute button. */
async function openFromCatalogue(page: Page, workflow: Demo, lng: Lng): Promise<void> {
  await page.goto(`/workflows?lng=${lng}`);
  await page.getByRole('button', { name: `${TEXT[lng].execute} ${workflow.name[lng]}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflow.id}/execute$`));
}

test('visitors see the catalogue blurred behind an overlay that leads to sign-up and sign-in', async ({
  page,
}) => {
  await page.goto('/workflows?lng=en');
  const overlay = page.getByRole('region', { name: TEXT.en.overlay });
  await expect(overlay).toBeVisible();
  const grid = page.getByTestId('catalogue-grid');
  await expect(grid).toHaveAttribute('aria-hidden', 'true');
  await expect(grid).toHaveAttribute('inert', '');
  await expect(page.getByRole('button', { name: /^Execute / })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, 'runs-catalogue-visitor-en-1280');
  await overlay.getByRole('link', { name: 'Create a free account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.goto('/workflows?lng=es');
  await page
    .getByRole('region', { name: TEXT.es.overlay })
    .getByRole('link', { name: 'Ya tengo una cuenta' })
    .click();
  await expect(page).toHaveURL(/\/signin$/);
});

for (const lng of ['es', 'en'] as const) {
  test(`a new user runs the chat demo to a summary and the survey demo to a CSV file (${lng})`, async ({
    page,
  }) => {
    const t = TEXT[lng];
    await page.setViewportSize({ width: 1280, height: 900 });
    await signUpViaApi(page, lng === 'es' ? 'Lucía Prueba' : 'Liam Tester', lng);

    // The catalogue: search and the category filter narrow the grid, once it shows. Typed into while the grid
    // was still empty, on the first page of a fresh browser, the search once came back empty (CI, 2026-11-30);
    // 16 runs here, and typing while the page's scripts, texts or calls were held back, kept it every time.
    await page.goto(`/workflows?lng=${lng}`);
    await expect(badge(page)).toHaveText('5');
    await expect(page.getByTestId('workflow-card').first()).toBeVisible();
    const chat = demo('chat-summary');
    const survey = demo('survey-csv');
    await page.getByRole('searchbox').fill(chat.name[lng].toUpperCase());
    await expect(page.getByTestId('workflow-card')).toHaveCount(1);
    await expect(page.getByTestId('workflow-card')).toContainText(chat.name[lng]);
    await page.getByRole('searchbox').fill('zzz-nothing-matches');
    await expect(
      page.getByText(lng === 'es' ? 'No se encontraron workflows' : 'No workflows found'),
    ).toBeVisible();
    await page.getByRole('searchbox').fill('');
    await expectAccessible(page);
    await screenshot(page, `runs-catalogue-${lng}-1280`);

    // Chat: Enter sends, Shift+Enter breaks the line, blanks are not sent.
    await openFromCatalogue(page, chat, lng);
    const input = page.locator('#chat-input');
    await expect(input).toBeEnabled();
    // The welcome message opens the conversation, in the page's language.
    await expect(page.locator('[role=log] [data-role=assistant]')).toHaveCount(1);
    await expect(page.locator('[role=log] [data-role=assistant]')).toContainText(chat.welcome[lng]);
    // Opening the chat charges nothing: its first message will.
    await expect(badge(page)).toHaveText('5');
    await input.fill('   ');
    await input.press('Enter');
    await expect(page.locator('[role=log] [data-role=user]')).toHaveCount(0);
    await input.fill('');
    await input.pressSequentially('Line one');
    await input.press('Shift+Enter');
    await input.pressSequentially('line two');
    await expect(input).toHaveValue('Line one\nline two');
    await expectAccessible(page);
    await screenshot(page, `runs-chat-${lng}-1280`);
    await input.press('Enter');
    await expect(page.locator('[role=log] [data-role=user]').first()).toHaveText(/Line one\s+line two/);
    await chatToTheEnd(page, ['A bakery that sells bread to cafés', 'Ten cafés a week', 'Friendly, short']);
    await expectResultScreen(page);
    await expect(page.getByRole('heading', { name: t.completed })).toBeVisible();
    await expect(page.getByTestId('result-text')).toContainText('bakery');
    // The ended run's address is its own page.
    await expect(page).toHaveURL(/\/my-workflows\/[0-9a-f-]{36}$/);
    await expectAccessible(page);
    await screenshot(page, `runs-result-chat-${lng}-1280`);
    await expect(badge(page)).toHaveText('4');

    // Survey: required answers are enforced, then the result is a CSV to download.
    await openFromCatalogue(page, survey, lng);
    await expect(page.getByRole('button', { name: t.submit })).toBeVisible();
    await expect(badge(page)).toHaveText('4');
    await page.getByRole('button', { name: t.submit }).click();
    await expect(page.getByText(t.missing).first()).toBeVisible();
    await expect(badge(page)).toHaveText('4');
    await expect(page.locator('[aria-invalid=true]').first()).toBeFocused();
    await expectAccessible(page);
    await page.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
    await screenshot(page, `runs-survey-${lng}-1280`);
    await fillSurvey(page, lng);
    await expect(page.getByText(t.missing)).toHaveCount(0);
    await page.getByRole('button', { name: t.submit }).click();
    await expectResultScreen(page);
    await expect(page.getByRole('heading', { name: t.completed })).toBeVisible();
    await expect(page.getByTestId('result-filename')).toHaveText(/\.csv$/);
    await expect(page.getByText(lng === 'es' ? 'Archivo CSV' : 'CSV file')).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('result-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv).toContain('Acme Bakery');
    // The workflow got the questions in the language of the person who answered them.
    const detail = (await (await page.request.get(`/api/workflows/public/${survey.id}`)).json()) as {
      surveyQuestions: Array<{ question: { en: string; es: string } }>;
    };
    expect(csv).toContain(detail.surveyQuestions[0]?.question[lng] ?? '?');
    await screenshot(page, `runs-result-survey-${lng}-1280`);
    await expect(badge(page)).toHaveText('3');

    // History: both runs, completed, with the file's download link.
    await page.goto(`/my-workflows?lng=${lng}`);
    const rows = page.getByTestId('execution-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: chat.name[lng] })).toContainText(t.statusCompleted);
    const surveyRow = rows.filter({ hasText: survey.name[lng] });
    await expect(surveyRow).toContainText(t.statusCompleted);
    await expect(surveyRow.getByRole('link', { name: new RegExp(t.download) })).toHaveAttribute(
      'href',
      /^\/result\//,
    );
    await expectAccessible(page);
    await screenshot(page, `runs-my-executions-${lng}-1280`);
  });
}

for (const lng of ['es', 'en'] as const) {
  for (const width of [390, 1280] as const) {
    test(`opening, reloading, Back and Forward charge nothing; a reloaded result shows again (${lng}, ${width}px)`, async ({
      page,
    }) => {
      const t = TEXT[lng];
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await signUpViaApi(page, 'Rita Reload', lng);
      const survey = demo('survey-csv');
      const runs = async () =>
        (await (await page.request.get('/api/executions')).json()) as Array<{ id: string; status: string }>;

      await openFromCatalogue(page, survey, lng);
      await expect(page.getByRole('button', { name: t.submit })).toBeVisible();
      await expect.poll(async () => (await runs()).length).toBe(1);
      const [opened] = await runs();
      await page.reload();
      await expect(page.getByRole('button', { name: t.submit })).toBeVisible();
      await page.goBack();
      await expect(page).toHaveURL(/\/workflows(\?|$)/);
      await page.goForward();
      await expect(page.getByRole('button', { name: t.submit })).toBeVisible();
      await expect(badge(page)).toHaveText('5');
      // One run, still waiting for its answers, and not a credit spent.
      expect(await runs()).toEqual([expect.objectContaining({ id: opened!.id, status: 'pending' })]);
      await screenshot(page, `runs-reopen-${lng}-${width}`);

      await fillSurvey(page, lng);
      await page.getByRole('button', { name: t.submit }).click();
      await expectResultScreen(page);
      await expect(page).toHaveURL(new RegExp(`/my-workflows/${opened!.id}$`));
      await expect(badge(page)).toHaveText(String(5 - survey.creditsPerExecution));
      await page.reload();
      await expectResultScreen(page);
      await expect(page.getByRole('heading', { name: t.completed })).toBeVisible();
      await expect(page.getByTestId('result-filename')).toHaveText(/\.csv$/);
      await expect(badge(page)).toHaveText(String(5 - survey.creditsPerExecution));
      expect(await runs()).toHaveLength(1);
      await expectAccessible(page);
      await screenshot(page, `runs-result-reloaded-${lng}-${width}`);
    });
  }
}

test('a reopened chat continues its conversation, charged once at its first message', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpViaApi(page, 'Chris Continue', 'en');
  const chat = demo('chat-summary');
  await openFromCatalogue(page, chat, 'en');
  await expect(badge(page)).toHaveText('5');
  const input = page.locator('#chat-input');
  await input.fill('A bakery that sells bread to cafés');
  await input.press('Enter');
  await expect(page.locator('[role=log] [data-role=assistant]')).toHaveCount(2);
  await expect(input).toBeEnabled();
  await expect(badge(page)).toHaveText(String(5 - chat.creditsPerExecution));
  await page.reload();
  // The same run, its conversation shown again; no second charge.
  await expect(page.locator('[role=log] [data-role=user]')).toHaveCount(1);
  await expect(page.locator('[role=log] [data-role=user]')).toContainText(
    'A bakery that sells bread to cafés',
  );
  await expect(page.locator('[role=log] [data-role=assistant]')).toHaveCount(2);
  await expect(badge(page)).toHaveText(String(5 - chat.creditsPerExecution));
  expect(((await (await page.request.get('/api/executions')).json()) as unknown[]).length).toBe(1);
  await screenshot(page, 'runs-chat-reopened-en-1280');
});

for (const lng of ['es', 'en'] as const) {
  test(`answers the balance no longer covers get the insufficient-credits dialog and keep the form (${lng})`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUpViaApi(page, 'Nora Nocredit', lng);
    const survey = demo('survey-csv');
    await openFromCatalogue(page, survey, lng);
    await fillSurvey(page, lng);
    // The balance is spent elsewhere while the form is filled in.
    await adjustCreditsAsAdmin(baseURL!, page, -5, 'spent elsewhere');
    await page.getByRole('button', { name: TEXT[lng].submit }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(tr(lng, 'execute', 'credits.title'));
    await expect(dialog.getByTestId('required-credits')).toBeVisible();
    await screenshot(page, `runs-submit-402-${lng}-390`);
    await dialog.getByRole('button', { name: tr(lng, 'execute', 'credits.cancel') }).click();
    // Back to the same form, answers kept; nothing charged, the run still waiting.
    await expect(page.locator('form input[type=text]').first()).toHaveValue('Acme Bakery');
    await expect(badge(page)).toHaveText('0');
    const runs = (await (await page.request.get('/api/executions')).json()) as Array<{ status: string }>;
    expect(runs.map((r) => r.status)).toEqual(['pending']);
  });
}

test('the failing demo workflow ends failed with its error, and the credit comes back', async ({ page }) => {
  await signUpViaApi(page, 'Fiona Failure', 'en');
  const failing = demo('always-fails');
  await openFromCatalogue(page, failing, 'en');
  if (failing.interactionType === 'chatbot') await chatToTheEnd(page, ['Sync my stock', 'All warehouses']);
  else {
    await fillSurvey(page, 'en');
    await page.getByRole('button', { name: TEXT.en.submit }).click();
  }
  await expectResultScreen(page);
  await expect(page.getByRole('heading', { name: TEXT.en.finished })).toBeVisible();
  await expect(page.getByTestId('result-error')).toContainText('inventory');
  await expect(page.getByText('returned to your balance')).toBeVisible();
  await expect(page.getByTestId('result-credits')).toHaveText(
    `${failing.creditsPerExecution} credit${failing.creditsPerExecution === 1 ? '' : 's'} refunded`,
  );
  await expect(badge(page)).toHaveText('5');
  await screenshot(page, 'runs-result-failed-en-1280');
  await page.goto('/my-workflows?lng=en');
  await expect(page.getByTestId('execution-row')).toContainText(TEXT.en.statusFailed);
});

test('a slow workflow shows its progress messages, and an image result is previewed', async ({ page }) => {
  await signUpViaApi(page, 'Paula Patience', 'en');
  const slow = demo('slow-research');
  await openFromCatalogue(page, slow, 'en');
  await chatToTheEnd(page, ['Vegan pastries for offices', 'Madrid', 'Small teams']);
  // The workflow's own words while it works, pushed by the event stream.
  const progress = page.getByTestId('progress-message');
  await expect(progress).toHaveText(/Reading|Comparing|Writing/, { timeout: 30_000 });
  await screenshot(page, 'runs-progress-en-1280');
  await expectAccessible(page);
  await expectResultScreen(page, 60_000);
  await expect(page.getByTestId('result-credits')).toHaveText(`${slow.creditsPerExecution} credits consumed`);

  const chart = demo('chart-png');
  await openFromCatalogue(page, chart, 'en');
  await fillSurvey(page, 'en');
  await page.getByRole('button', { name: TEXT.en.submit }).click();
  await expectResultScreen(page);
  const image = page.getByTestId('result-image');
  await expect(image).toHaveAttribute('src', /^\/result\/[\w-]+\?inline=1$/);
  await expect
    .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
    .toBeGreaterThan(0);
  await expect(page.getByTestId('result-file-details')).toHaveText(/^Image · \d+(\.\d{2} KB| B)$/);
  await screenshot(page, 'runs-result-image-en-1280');
});

test.describe('without server-sent events', () => {
  // The init script stays on its page for good: the journey gets a page of its own (e2e/journey.ts).
  test.use({ ownContext: true });

  test('a browser without server-sent events follows the slow run by polling to its result', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      Reflect.deleteProperty(globalThis, 'EventSource');
    });
    await signUpViaApi(page, 'Sara Sondeo', 'es');
    const slow = demo('slow-research');
    await openFromCatalogue(page, slow, 'es');
    await chatToTheEnd(page, ['Pasteles veganos', 'Madrid', 'Equipos pequeños']);
    await expect(page.getByTestId('progress-message')).toHaveText(/Leyendo|Comparando|Redactando/, {
      timeout: 30_000,
    });
    await expectResultScreen(page, 60_000);
    await expect(page.getByRole('heading', { name: TEXT.es.completed })).toBeVisible();
    await expect(badge(page)).toHaveText(String(5 - slow.creditsPerExecution));
  });
});

test('when the assistant cannot answer, the chat says so in Spanish and lets the person write again', async ({
  page,
  baseURL,
}) => {
  // A real failure: the admin deletes the workflow while someone is chatting with it.
  const origin = baseURL ?? '';
  const admin = await request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  expect((await admin.post('/api/auth/signin', { data: E2E_ADMIN })).ok()).toBe(true);
  const adminUser = (await (await admin.get('/api/auth/me')).json()) as { id: string };
  const created = await admin.post('/api/admin/workflows', {
    data: {
      userId: adminUser.id,
      name: { es: 'Chat efímero', en: 'Short-lived chat' },
      category: { es: 'Otros', en: 'Other' },
      webhookUrl: `${origin}/demo-hooks/chat-summary`,
      isPublic: true,
      interactionType: 'chatbot',
      welcomeMessage: { es: '¿En qué te ayudo?', en: 'How can I help?' },
      aiPrompt: 'Ask what they need. ¿Qué necesitas?',
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await signUpViaApi(page, 'Elena Error', 'es');
  await page.goto(`/workflows/${id}/execute?lng=es`);
  const input = page.locator('#chat-input');
  await expect(input).toBeEnabled();
  expect((await admin.delete(`/api/workflows/${id}`)).ok()).toBe(true);
  await admin.dispose();

  await input.fill('Necesito un resumen');
  await input.press('Enter');
  await expect(page.getByText('Error en la conversación')).toBeVisible();
  await expect(page.locator('[role=log] [data-role=assistant]').last()).toContainText(
    'Lo siento, tuve un problema al procesar tu mensaje. Por favor, intenta de nuevo.',
  );
  await expect(page.locator('[role=log] [data-role=user]')).toHaveText(/Necesito un resumen/);
  await expect(input).toBeEnabled();
});

test('someone without credits gets the insufficient-credits dialog and can go buy some', async ({
  page,
  baseURL,
}) => {
  await signUpViaApi(page, 'Penny Less', 'en');
  const chat = demo('chat-summary');
  // The free credits are gone; opening a run page only checks the balance, so the start is refused.
  await adjustCreditsAsAdmin(baseURL!, page, -5, 'spent elsewhere');
  const origin = originOf(page);
  const start = await page.request.post('/api/executions/start', {
    data: { workflowId: chat.id },
    headers: { origin },
  });
  expect(start.status()).toBe(402);
  await page.goto(`/workflows/${chat.id}/execute?lng=en`);
  const dialog = page.getByRole('dialog', { name: 'Insufficient credits' });
  await expect(dialog).toBeVisible();
  const needs = chat.creditsPerExecution;
  await expect(dialog.getByTestId('required-credits')).toHaveText(
    `This workflow needs ${needs} credit${needs === 1 ? '' : 's'}`,
  );
  await expectAccessible(page);
  await screenshot(page, 'runs-insufficient-credits-en-1280');
  await dialog.getByRole('button', { name: 'Buy credits' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.goto('/workflows?lng=en');
  await page.getByRole('button', { name: `Run ${chat.name.en}`, exact: true }).click();
  await expect(page.getByText('You need at least 1 credit to run a workflow.')).toBeVisible();
  await expect(page).toHaveURL(/\/workflows\?lng=en$/);
});

test('an unknown workflow shows not found with a way back', async ({ page }) => {
  await signUpViaApi(page, 'E2E User', 'en');
  await page.goto('/workflows/00000000-0000-4000-8000-000000000000/execute?lng=en');
  await expect(page.getByRole('heading', { name: 'Workflow not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to workflows' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('catalogue, chat, survey, result and history fit a 390 px screen', async ({ page }) => {
    await signUpViaApi(page, 'Pablo Móvil', 'es');
    await page.goto('/workflows?lng=es');
    await expect(page.getByTestId('workflow-card').first()).toBeVisible();
    await screenshot(page, 'runs-catalogue-es-390');

    await openFromCatalogue(page, demo('chat-summary'), 'es');
    await expect(page.locator('#chat-input')).toBeEnabled();
    await chatToTheEnd(page, ['Una panadería', 'Diez cafeterías', 'Breve']);
    await screenshot(page, 'runs-chat-es-390');
    await expectResultScreen(page);

    await openFromCatalogue(page, demo('survey-csv'), 'es');
    await page.getByRole('button', { name: TEXT.es.submit }).click();
    await expect(page.getByText(TEXT.es.missing).first()).toBeVisible();
    await screenshot(page, 'runs-survey-es-390');
    await fillSurvey(page, 'es');
    await page.getByRole('button', { name: TEXT.es.submit }).click();
    await expectResultScreen(page);
    await screenshot(page, 'runs-result-es-390');

    await page.goto('/my-workflows?lng=es');
    await expect(page.getByTestId('execution-card')).toHaveCount(2);
    const width = await page.locator('html').evaluate((el) => el.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, 'runs-my-executions-es-390');
  });
});
