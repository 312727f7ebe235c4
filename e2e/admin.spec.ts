import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import {
  escapeRegExp,
  expectAccessible,
  originOf,
  SCREENS,
  screenshot,
  SETTINGS,
  signInAsAdmin,
  signUpViaApi,
} from './fixtures.js';

const run = Date.now().toString(36);
const CHATBOT = { en: `Lead qualifier ${run}`, es: `Calificador de leads ${run}` };
const SURVEY = { en: `Feedback survey ${run}`, es: `Encuesta de opinión ${run}` };

/** Signs the admin in through the API (the sign-in form has its own journey) and opens an admin page. */
async function openAsAdmin(page: Page, path: string, lng: 'en' | 'es'): Promise<void> {
  await signInAsAdmin(page, lng);
  await page.goto(`${path}${path.includes('?') ? '&' : '?'}lng=${lng}`);
}

async function pickAdminAsOwner(page: Page, ownerLabel: string, searchLabel: string): Promise<void> {
  // The list holds the newest 100 accounts; the admin, the oldest of the journeys' many, is found by a search.
  await page.getByRole('searchbox', { name: searchLabel, exact: true }).fill(E2E_ADMIN.email);
  const owner = page.getByRole('combobox', { name: ownerLabel, exact: true });
  const option = owner.locator('option', { hasText: E2E_ADMIN.email });
  await expect(option).toHaveCount(1);
  await owner.selectOption((await option.getAttribute('value')) ?? '');
}

async function adminWorkflowByName(page: Page, name: string) {
  const res = await page.request.get(`/api/admin/workflows?q=${encodeURIComponent(name)}`);
  expect(res.ok()).toBe(true);
  const rows = (await res.json()) as Array<{ id: string; name: { en: string; es: string } }>;
  return rows.find((w) => w.name.en === name || w.name.es === name);
}

async function userPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const { email } = await signUpViaApi(page, 'Casey Customer', 'en');
  return { context, page, email };
}

async function publicNames(page: Page): Promise<string[]> {
  const res = await page.request.get('/api/workflows/public');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Array<{ name: { en: string } }>).map((w) => w.name.en);
}

// One story, in order: what is created first is deactivated, deleted and audited later.
test.describe('the admin runs the marketplace', SETTINGS, () => {
  test.describe.configure({ mode: 'serial' });

  test('in English, the admin creates a chatbot workflow and it reaches the catalogue', async ({ page }) => {
    await openAsAdmin(page, '/admin/create-workflow', 'en');
    await expect(page.getByRole('heading', { name: 'Create workflow', level: 1 })).toBeVisible();

    // No language model is configured on the journey's server: the translate buttons stay, greyed, and say why.
    const name = page.getByRole('group', { name: 'Name', exact: true });
    const translateName = name.getByRole('button', { name: /Translate from Spanish/ });
    await expect(translateName).toHaveAttribute('aria-disabled', 'true');
    await expect(translateName).toHaveAccessibleDescription(
      'Translation is not available: no language model is set up on this server',
    );

    await pickAdminAsOwner(page, 'User (owner)', 'Search users by e-mail or name');
    await name.getByLabel('Spanish').fill(CHATBOT.es);
    await name.getByLabel('English').fill(CHATBOT.en);
    const description = page.getByRole('group', { name: 'Description', exact: true });
    await description.getByLabel('Spanish').fill('Hace preguntas y puntúa el lead.');
    await description.getByLabel('English').fill('Asks questions and scores the lead.');
    await page.getByLabel('Category').selectOption({ label: 'Sales' });
    await expect(page.getByLabel('Credits per run')).toHaveValue('1');
    // Pressed anyway, an unavailable translate button changes nothing and raises no error.
    await description.getByRole('button', { name: /Translate from English/ }).click({ force: true });
    await expect(description.getByLabel('Spanish')).toHaveValue('Hace preguntas y puntúa el lead.');
    await expect(page.getByText('Could not translate the text')).toHaveCount(0);
    await page.getByLabel('Credits per run').fill('2');
    await page.getByLabel('Webhook URL').fill('https://hooks.example.com/lead-qualifier');
    await expect(page.getByText('How the webhook works')).toBeVisible();
    await expect(page.getByText('docs/webhook-contract.md')).toBeVisible();
    await expect(page.getByRole('radio', { name: /Chatbot/ })).toBeChecked();
    const welcome = page.getByRole('group', { name: 'Welcome message', exact: true });
    await welcome.getByLabel('Spanish').fill('¡Hola! Cuéntame sobre tu empresa.');
    await welcome.getByLabel('English').fill('Hi! Tell me about your company.');
    await page.getByLabel('AI prompt').fill('Ask for company size and budget, then finish.');
    await screenshot(page, 'admin-create-chatbot-1280');
    await page.getByRole('button', { name: 'Create workflow' }).click();

    // The signing details show right after the save, with the guide and the API reference.
    await expect(page.getByRole('heading', { name: `"${CHATBOT.en}" is created`, level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'API reference (/api/docs)' })).toBeVisible();
    await page.getByRole('button', { name: 'Go to workflows' }).click();
    await expect(page).toHaveURL(/\/admin\/workflows$/);
    await expect(page.getByText('Workflow created')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search workflows' }).fill(CHATBOT.en);
    const row = page.getByRole('row', { name: new RegExp(CHATBOT.en) });
    await expect(row).toBeVisible();
    await expect(row.getByText('Public')).toBeVisible();
    await expect(row.getByText('Active')).toBeVisible();
    expect(await publicNames(page)).toContain(CHATBOT.en);
  });

  test('en español, el admin construye una encuesta con el constructor', async ({ page }) => {
    await openAsAdmin(page, '/admin/create-workflow', 'es');
    await expect(page.getByRole('heading', { name: 'Crear workflow', level: 1 })).toBeVisible();

    // Submitting empty shows the rules in Spanish, the owner message among them.
    await page.getByRole('button', { name: 'Crear workflow' }).click();
    await expect(page.getByText('Debes seleccionar un usuario')).toBeVisible();
    await expect(page.getByText('El nombre es obligatorio en español e inglés')).toBeVisible();
    await expect(page.getByText('Introduce una URL http o https completa')).toBeVisible();

    await pickAdminAsOwner(page, 'Usuario (propietario)', 'Buscar usuarios por e-mail o nombre');
    const name = page.getByRole('group', { name: 'Nombre', exact: true });
    await name.getByLabel('Español').fill(SURVEY.es);
    await name.getByLabel('Inglés').fill(SURVEY.en);
    await page.getByLabel('Categoría').selectOption({ label: 'Operaciones' });
    await page.getByLabel('URL del webhook').fill('https://hooks.example.com/feedback');
    await page.getByRole('radio', { name: /Encuesta/ }).check();
    await expect(page.getByText('Todavía no hay preguntas. Añade la primera.')).toBeVisible();

    await page.getByRole('button', { name: 'Añadir pregunta' }).click();
    await page.getByRole('button', { name: 'Añadir pregunta' }).click();
    await page.getByRole('button', { name: 'Añadir pregunta' }).click();
    const q = (n: number) => page.getByRole('listitem', { name: `Pregunta ${n}`, exact: true });
    await q(1)
      .getByRole('group', { name: 'Texto de la pregunta' })
      .getByLabel('Español')
      .fill('¿Qué color prefieres?');
    await q(1)
      .getByRole('group', { name: 'Texto de la pregunta' })
      .getByLabel('Inglés')
      .fill('Which colour do you prefer?');
    await q(1).getByLabel('Tipo de respuesta').selectOption('select');
    // Each option in both languages, or in one when it reads the same in both.
    const options = q(1).getByRole('group', { name: 'Opciones', exact: true });
    const optionEs = options.getByLabel('Español', { exact: true });
    const optionEn = options.getByLabel('Inglés', { exact: true });
    await optionEs.fill('Rojo');
    await optionEn.fill('Red');
    await optionEn.press('Enter');
    await expect(optionEs).toHaveValue('');
    await optionEs.fill('   ');
    await q(1).getByRole('button', { name: 'Añadir opción' }).click();
    await expect(q(1).getByText('Una opción no puede estar vacía')).toBeVisible();
    await optionEs.fill('Azul');
    await q(1).getByRole('button', { name: 'Añadir opción' }).click();
    await optionEs.fill('Verde');
    await optionEs.press('Enter');
    await q(1).getByRole('button', { name: 'Quitar la opción Verde' }).click();
    await expect(q(1).getByRole('button', { name: 'Quitar la opción Rojo / Red' })).toBeVisible();
    await expect(q(1).getByRole('button', { name: /Quitar la opción/ })).toHaveCount(2);

    await q(2).getByRole('group', { name: 'Texto de la pregunta' }).getByLabel('Español').fill('¿Algo más?');
    await q(2)
      .getByRole('group', { name: 'Texto de la pregunta' })
      .getByLabel('Inglés')
      .fill('Anything else?');
    await q(2).getByLabel('Tipo de respuesta').selectOption('textarea');
    // The open question is optional; a number question takes its smallest and largest answer.
    await q(2).getByLabel('La respuesta es obligatoria').uncheck();
    await q(3).getByRole('group', { name: 'Texto de la pregunta' }).getByLabel('Español').fill('¿Cuántos?');
    await q(3).getByRole('group', { name: 'Texto de la pregunta' }).getByLabel('Inglés').fill('How many?');
    await q(3).getByLabel('Tipo de respuesta').selectOption('number');
    await q(3).getByLabel('Respuesta mínima').fill('10');
    await q(3).getByLabel('Respuesta máxima').fill('5');
    await expect(q(3).getByRole('alert')).toHaveText('La respuesta máxima no puede ser menor que la mínima');
    await q(3).getByLabel('Respuesta máxima').fill('50');
    await expect(q(3).getByRole('alert')).toHaveCount(0);
    // The open question moves first.
    await page.getByRole('button', { name: 'Subir la pregunta 2' }).click();
    await expect(q(1).getByRole('group', { name: 'Texto de la pregunta' }).getByLabel('Inglés')).toHaveValue(
      'Anything else?',
    );
    await screenshot(page, 'admin-create-survey-1280');
    await page.getByRole('button', { name: 'Crear workflow' }).click();

    await expect(page.getByRole('heading', { name: `"${SURVEY.es}" está creado`, level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Ir a workflows' }).click();
    await expect(page).toHaveURL(/\/admin\/workflows$/);
    await expect(page.getByText('Workflow creado')).toBeVisible();
    const created = await adminWorkflowByName(page, SURVEY.en);
    expect(created).toBeDefined();
    const detail = (await (await page.request.get(`/api/admin/workflows/${created!.id}`)).json()) as {
      interactionType: string;
      surveyQuestions: Array<{
        question: { en: string };
        type: string;
        options: string[];
        optionLabels?: Record<string, { es: string; en: string }>;
        required?: boolean;
        min?: number;
        max?: number;
      }>;
    };
    expect(detail.interactionType).toBe('survey');
    expect(detail.surveyQuestions.map((s) => [s.question.en, s.type, s.options, s.optionLabels])).toEqual([
      ['Anything else?', 'textarea', [], undefined],
      ['Which colour do you prefer?', 'select', ['Red', 'Azul'], { Red: { es: 'Rojo', en: 'Red' } }],
      ['How many?', 'number', [], undefined],
    ]);
    expect(detail.surveyQuestions.map(({ required, min, max }) => ({ required, min, max }))).toEqual([
      { required: false, min: undefined, max: undefined },
      { required: true, min: undefined, max: undefined },
      { required: true, min: 10, max: 50 },
    ]);
    expect(await publicNames(page)).toContain(SURVEY.en);
  });

  test('in English, a user’s run shows on the dashboard and in the executions list', async ({
    page,
    browser,
    baseURL,
  }) => {
    // A customer runs the built-in "Weekly KPI chart" demo through the API (its screens have their own journey).
    const customer = await userPage(browser, baseURL);
    const headers = { origin: originOf(customer.page) };
    const kpi = 'd3e0a000-0000-4000-8000-000000000004';
    const started = await customer.page.request.post('/api/executions/start', {
      data: { workflowId: kpi },
      headers,
    });
    expect(started.status()).toBeLessThan(300);
    const { executionId } = (await started.json()) as { executionId: string };
    const answers = Object.entries({ visits: '12', leads: '30', sales: '4', tickets: '7' }).map(
      ([questionId, answer]) => ({ questionId, answer }),
    );
    const completed = await customer.page.request.post(`/api/executions/${executionId}/complete`, {
      data: { responses: answers },
      headers,
    });
    expect(completed.status()).toBeLessThan(300);
    await expect
      .poll(async () => {
        const res = await customer.page.request.get(`/api/executions/${executionId}`);
        return ((await res.json()) as { status: string }).status;
      })
      .toBe('completed');
    await customer.context.close();

    await openAsAdmin(page, '/admin', 'en');
    const recent = page.getByRole('heading', { name: 'Recent activity' }).locator('..');
    // Other journeys' runs of the same demo may be listed too: the customer's own row names the workflow.
    const customerRow = recent.getByRole('listitem').filter({ hasText: customer.email });
    await expect(customerRow).toContainText('Weekly KPI chart');
    // Other journeys run the demos too, so the counts are whatever the books say: the dashboard shows them all.
    const stats = (await (await page.request.get('/api/admin/stats')).json()) as {
      topWorkflows: Array<{ name: { en: string }; executionCount: number }>;
    };
    await expect(
      page.getByRole('heading', { name: 'Top workflows' }).locator('..').getByRole('listitem'),
    ).toHaveText(
      stats.topWorkflows.map(
        (w, i) =>
          new RegExp(
            `^${i + 1}\\s*${escapeRegExp(w.name.en)}\\s*${w.executionCount} ${w.executionCount === 1 ? 'run' : 'runs'}$`,
          ),
      ),
    );
    await screenshot(page, 'admin-dashboard-with-run-1280');

    await page.goto('/admin/executions');
    await page.getByRole('searchbox', { name: 'Search runs' }).fill(customer.email);
    const row = page.getByRole('row', { name: new RegExp(customer.email) });
    await expect(row.getByText('Weekly KPI chart')).toBeVisible();
    await expect(row.getByText('Completed')).toBeVisible();
    await expect(row.getByText('Image')).toBeVisible();
    await page.getByLabel('Status').selectOption('failed');
    await expect(page.getByText('No runs match.')).toBeVisible();
  });

  test('en español, el admin desactiva la encuesta (sale del catálogo) y borra el chatbot', async ({
    page,
  }) => {
    await openAsAdmin(page, '/admin/workflows', 'es');
    await page.getByRole('searchbox', { name: 'Buscar workflows' }).fill(SURVEY.es);
    const survey = page.getByRole('row', { name: new RegExp(SURVEY.es) });
    await expect(survey).toBeVisible();
    await survey.getByRole('button', { name: `Desactivar ${SURVEY.es}` }).click();
    await expect(page.getByText('Workflow desactivado')).toBeVisible();
    await expect(survey.getByText('Inactivo')).toBeVisible();
    expect(await publicNames(page)).not.toContain(SURVEY.en);

    // The edit page (the create page's form) shows the signing secret masked until asked.
    await survey.getByRole('button', { name: `Editar ${SURVEY.es}` }).click();
    await expect(page.getByRole('heading', { name: 'Editar workflow' })).toBeVisible();
    const edit = page.getByRole('main');
    await expect(edit.getByTestId('workflow-secret')).toHaveText(/^•+$/);
    await edit.getByRole('button', { name: 'Mostrar' }).click();
    await expect(edit.getByTestId('workflow-secret')).not.toHaveText(/^•+$/);
    await expectAccessible(page);
    await screenshot(page, 'admin-edit-page-1280');
    const before = await edit.getByTestId('workflow-secret').textContent();
    await edit.getByRole('button', { name: 'Rotar secreto' }).click();
    await edit
      .getByRole('group', { name: 'Rotar secreto' })
      .getByRole('button', { name: 'Rotar secreto' })
      .click();
    await expect(page.getByText('Secreto rotado')).toBeVisible();
    await expect(edit.getByTestId('workflow-secret')).not.toHaveText(before ?? '');

    // Editing: the owner is required (its message), then the new English name is saved.
    const name = edit.getByRole('group', { name: 'Nombre', exact: true });
    await name.getByLabel('Inglés').fill(`${SURVEY.en} v2`);
    await edit.getByRole('combobox', { name: 'Usuario (propietario)', exact: true }).selectOption('');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await expect(edit.getByText('Debes seleccionar un usuario')).toBeVisible();
    await pickAdminAsOwner(page, 'Usuario (propietario)', 'Buscar usuarios por e-mail o nombre');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Workflow guardado')).toBeVisible();
    expect(await adminWorkflowByName(page, `${SURVEY.en} v2`)).toBeDefined();

    await page.goto('/admin/workflows');
    await page.getByRole('searchbox', { name: 'Buscar workflows' }).fill(CHATBOT.es);
    const chatbot = page.getByRole('row', { name: new RegExp(CHATBOT.es) });
    await chatbot.getByRole('button', { name: `Eliminar ${CHATBOT.es}` }).click();
    const confirm = page.getByRole('dialog', { name: `¿Eliminar «${CHATBOT.es}»?` });
    await expect(
      confirm.getByText(/Esta acción no se puede deshacer\. También se eliminan las ejecuciones/),
    ).toBeVisible();
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await expect(page.getByText('Workflow eliminado', { exact: true })).toBeVisible();
    await expect(page.getByText('Ningún workflow coincide.')).toBeVisible();
    expect(await adminWorkflowByName(page, CHATBOT.en)).toBeUndefined();
    expect(await publicNames(page)).not.toContain(CHATBOT.en);
  });

  test('in English, the admin adjusts a user’s credits and suspends them: their session stops', async ({
    page,
    browser,
    baseURL,
  }) => {
    const customer = await userPage(browser, baseURL);
    expect((await customer.page.request.get('/api/auth/me')).status()).toBe(200);

    await openAsAdmin(page, '/admin/users', 'en');
    await page.getByRole('searchbox', { name: 'Search users' }).fill(customer.email);
    const row = page.getByRole('row', { name: new RegExp(customer.email) });
    await expect(row.getByRole('cell', { name: '5', exact: true })).toBeVisible();

    await row.getByRole('button', { name: `Adjust credits of ${customer.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Adjust credits' });
    await expect(dialog.getByLabel('Amount (negative to subtract)')).toHaveValue('0');
    for (let i = 0; i < 3; i += 1) await dialog.getByRole('button', { name: 'Add one credit' }).click();
    await dialog.getByRole('button', { name: 'Subtract one credit' }).click();
    await dialog.getByRole('button', { name: 'Add one credit' }).click();
    await expect(dialog.getByLabel('Amount (negative to subtract)')).toHaveValue('3');
    await dialog.getByRole('button', { name: 'Apply adjustment' }).click();
    await expect(dialog.getByText('You must provide a reason')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Goodwill for a failed run');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Apply adjustment' }).click();
    await expect(page.getByText('Credits adjusted')).toBeVisible();
    await expect(row.getByRole('cell', { name: '8', exact: true })).toBeVisible();

    await row.getByRole('button', { name: `Suspend ${customer.email}` }).click();
    const confirm = page.getByRole('dialog', { name: `Suspend ${customer.email}?` });
    await confirm.getByRole('button', { name: 'Suspend' }).click();
    await expect(row.getByText('Suspended')).toBeVisible();
    expect((await customer.page.request.get('/api/auth/me')).status()).toBe(401);
    await customer.context.close();
  });

  test('en español, cambiar signup_bonus_credits da el nuevo saldo al siguiente registro', async ({
    page,
    browser,
    baseURL,
  }) => {
    await openAsAdmin(page, '/admin/config', 'es');
    const entry = page.getByTestId('config-signup_bonus_credits');
    await expect(entry.getByText('Créditos gratuitos para cada cuenta nueva')).toBeVisible();
    await entry.getByRole('button', { name: 'Editar signup_bonus_credits' }).click();
    const value = entry.getByLabel('Valor de signup_bonus_credits (JSON)');
    await value.fill('{siete');
    await entry.getByRole('button', { name: 'Guardar' }).click();
    await expect(entry.getByText(/No es un JSON válido/)).toBeVisible();
    await value.fill('-1');
    await entry.getByRole('button', { name: 'Guardar' }).click();
    await expect(entry.getByText(/El servidor rechazó el valor/)).toBeVisible();
    await value.fill('7');
    await entry.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Ajuste guardado')).toBeVisible();
    await expect(entry.getByText('7', { exact: true })).toBeVisible();

    try {
      const newcomer = await userPage(browser, baseURL);
      const me = (await (await newcomer.page.request.get('/api/auth/me')).json()) as { credits: number };
      expect(me.credits).toBe(7);
      await newcomer.context.close();
    } finally {
      // Other journeys on this server expect the default gift of 5.
      await entry.getByRole('button', { name: 'Editar signup_bonus_credits' }).click();
      await value.fill('5');
      await entry.getByRole('button', { name: 'Guardar' }).click();
      await expect(entry.getByText('5', { exact: true })).toBeVisible();
    }
  });

  test('in English, the audit log shows every one of those actions with its details', async ({ page }) => {
    await openAsAdmin(page, '/admin/audit', 'en');
    const actions = [
      'workflow_created',
      'workflow_updated',
      'workflow_status_changed',
      'workflow_deleted',
      'credits_adjusted',
      'user_suspended',
      'config_updated',
    ];
    for (const action of actions) {
      await expect(page.getByRole('cell').locator('code', { hasText: action }).first()).toBeVisible();
    }
    await page.getByLabel('Action').selectOption('credits_adjusted');
    const row = page
      .getByRole('row')
      .filter({ has: page.locator('code', { hasText: 'credits_adjusted' }) })
      .first();
    await row.getByRole('button', { expanded: false }).click();
    await expect(page.locator('pre', { hasText: 'Goodwill for a failed run' })).toBeVisible();
  });
});

const ADMIN_SCREENS = [
  ['dashboard', '/admin'],
  ['workflows', '/admin/workflows'],
  ['create-workflow', '/admin/create-workflow'],
  ['executions', '/admin/executions'],
  ['users', '/admin/users'],
  ['credits', '/admin/credits'],
  ['audit', '/admin/audit'],
  ['config', '/admin/config'],
] as const;

for (const [lng, width] of [
  ['en', 1280],
  ['es', 390],
] as const) {
  test(`every admin screen passes axe at ${width} px (${lng})`, SCREENS, async ({ page }) => {
    // Eight full-page scans on a shared two-core machine.
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    await openAsAdmin(page, '/admin', lng);
    for (const [name, path] of ADMIN_SCREENS) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('status')).toHaveCount(0);
      await expectAccessible(page);
      await screenshot(page, `admin-${name}-${width}`);
    }
  });
}

test('on a phone the admin menu is a toggle that closes on selection', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await openAsAdmin(page, '/admin', 'en');
  const toggle = page.getByRole('button', { name: 'Admin menu' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await screenshot(page, 'admin-menu-open-390');
  await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
});

test('on a wide screen the side menu folds to icons and marks the current page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openAsAdmin(page, '/admin/credits', 'en');
  const nav = page.getByRole('navigation', { name: 'Admin menu' });
  await expect(nav.getByRole('link', { name: 'Credits' })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('button', { name: 'Collapse menu' }).click();
  await expect(nav.getByRole('link', { name: 'Audit' })).toBeVisible();
  await screenshot(page, 'admin-menu-collapsed-1280');
  await page.getByRole('button', { name: 'Expand menu' }).click();
  // Switching language re-renders the admin screens at once (their namespace loads for the new language).
  await page.getByRole('button', { name: 'es', exact: true }).click();
  const menu = page.getByRole('navigation', { name: 'Menú de administración' });
  await expect(menu.getByRole('link', { name: 'Créditos' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'Créditos', level: 1 })).toBeVisible();
});
