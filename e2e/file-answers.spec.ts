import { expect } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { expectAccessible, screenshot, signInAsAdmin, signUpViaApi } from './fixtures.js';

/*
 * Files as survey answers, in both languages at a phone's and a desktop's width: the admin adds a file
 * question in the survey builder; a person runs the seeded "CSV summary" demo (the same kind of question,
 * answered by a demo service that reads the file through its signed link): a wrong kind is refused at once,
 * a CSV uploads with a progress bar, is removed, dropped in again and replaced, then the answers go and the
 * summary comes back.
 */

const CSV_SUMMARY = 'd3e0a000-0000-4000-8000-000000000008';
const run = Date.now().toString(36);

const TEXT = {
  en: {
    owner: 'User (owner)',
    name: 'Name',
    side: { es: 'Spanish', en: 'English' },
    category: 'Category',
    categoryOption: 'Data & AI',
    webhook: 'Webhook URL',
    survey: /Survey/,
    addQuestion: 'Add question',
    question: (n: number) => `Question ${n}`,
    questionText: 'Question text',
    answerType: 'Answer type',
    accepted: 'Accepted kinds',
    maxSize: 'Largest file (MB)',
    create: 'Create workflow',
    created: 'Workflow created',
    choose: 'Your CSV file',
    wrongKind: 'This question accepts only CSV files.',
    progress: 'Upload of big.csv',
    remove: (name: string) => `Remove ${name}`,
    replace: (name: string) => `Replace ${name} with another file`,
    submit: 'Submit answers',
    missing: 'Upload a file for this question',
    summary: '3 rows and 3 columns.',
    completed: 'Workflow completed',
  },
  es: {
    owner: 'Usuario (propietario)',
    name: 'Nombre',
    side: { es: 'Español', en: 'Inglés' },
    category: 'Categoría',
    categoryOption: 'Datos e IA',
    webhook: 'URL del webhook',
    survey: /Encuesta/,
    addQuestion: 'Añadir pregunta',
    question: (n: number) => `Pregunta ${n}`,
    questionText: 'Texto de la pregunta',
    answerType: 'Tipo de respuesta',
    accepted: 'Tipos admitidos',
    maxSize: 'Tamaño máximo (MB)',
    create: 'Crear workflow',
    created: 'Workflow creado',
    choose: 'Tu archivo CSV',
    wrongKind: 'Esta pregunta solo admite archivos CSV.',
    progress: 'Subida de big.csv',
    remove: (name: string) => `Quitar ${name}`,
    replace: (name: string) => `Reemplazar ${name} por otro archivo`,
    submit: 'Enviar respuestas',
    missing: 'Sube un archivo para esta pregunta',
    summary: '3 filas y 3 columnas.',
    completed: 'Workflow completado',
  },
} as const;

const SALES = 'region,sales,units\nNorth,1200.5,10\nSouth,800,4\nNorth,99.5,1\n';
const csv = (name: string, text = SALES) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

for (const lng of ['en', 'es'] as const) {
  for (const width of [390, 1280] as const) {
    const t = TEXT[lng];
    const tag = `${lng}-${width}`;

    test(`${tag}: the admin adds a file question in the survey builder`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await signInAsAdmin(page, lng);
      await page.goto(`/admin/create-workflow?lng=${lng}`);
      const owner = page.getByRole('combobox', { name: t.owner, exact: true });
      const option = owner.locator('option', { hasText: E2E_ADMIN.email });
      await owner.selectOption((await option.getAttribute('value')) ?? '');
      const name = page.getByRole('group', { name: t.name, exact: true });
      const title = `File intake ${tag} ${run}`;
      await name.getByLabel(t.side.es).fill(title);
      await name.getByLabel(t.side.en).fill(title);
      await page.getByLabel(t.category).selectOption({ label: t.categoryOption });
      await page.getByLabel(t.webhook).fill('https://hooks.example.com/file-intake');
      await page.getByRole('radio', { name: t.survey }).check();
      await page.getByRole('button', { name: t.addQuestion }).click();
      const q1 = page.getByRole('listitem', { name: t.question(1), exact: true });
      const text = q1.getByRole('group', { name: t.questionText });
      await text.getByLabel(t.side.es).fill('Tu tabla');
      await text.getByLabel(t.side.en).fill('Your table');
      await q1.getByLabel(t.answerType).selectOption('file');
      const kinds = q1.getByRole('group', { name: t.accepted });
      await kinds.getByRole('checkbox', { name: 'CSV' }).check();
      await kinds.getByRole('checkbox', { name: 'XLSX' }).check();
      await q1.getByLabel(t.maxSize).fill('3');
      await expectAccessible(page);
      await screenshot(page, `file-builder-${tag}`);
      await screenshot(q1, `file-builder-question-${tag}`);
      await page.getByRole('button', { name: t.create }).click();
      await expect(page.getByText(t.created)).toBeVisible();

      const list = await page.request.get(`/api/admin/workflows?q=${encodeURIComponent(title)}`);
      const [row] = (await list.json()) as Array<{ id: string }>;
      const detail = (await (await page.request.get(`/api/admin/workflows/${row!.id}`)).json()) as {
        surveyQuestions: Array<{ type: string; accept?: string[]; maxSizeMb?: number }>;
      };
      expect(detail.surveyQuestions).toEqual([
        expect.objectContaining({ type: 'file', accept: ['csv', 'xlsx'], maxSizeMb: 3, options: [] }),
      ]);
      await context.close();
    });

    test(`${tag}: a person uploads a CSV (progress, remove, drop, replace) and gets its summary`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await signUpViaApi(page, 'Fiona File', lng);
      await page.goto(`/workflows/${CSV_SUMMARY}/execute?lng=${lng}`);
      const choose = page.getByRole('button', { name: t.choose });
      await expect(choose).toBeVisible();

      // Sending without the file: the question says what is missing.
      await page.getByRole('button', { name: t.submit }).click();
      await expect(page.getByText(t.missing)).toBeVisible();
      await expect(choose).toBeFocused();

      // A wrong kind is refused before anything is sent.
      const input = page.getByTestId('file-input-data');
      await input.setInputFiles({
        name: 'report.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4'),
      });
      await expect(page.getByTestId('file-error')).toHaveText(t.wrongKind);

      // A larger file over a slowed connection shows its progress bar, then its name and size.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 400 * 1024,
      });
      const big = `${SALES.split('\n')[0]}\n${'North,1,1\n'.repeat(150_000)}`;
      await input.setInputFiles(csv('big.csv', big));
      const bar = page.getByRole('progressbar', { name: t.progress });
      await expect(bar).toBeVisible();
      await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
      await screenshot(page, `file-progress-${tag}`);
      await expect(page.getByTestId('file-name')).toHaveText('big.csv', { timeout: 30_000 });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });

      // Removed: the picker comes back, with the focus.
      await page.getByRole('button', { name: t.remove('big.csv') }).click();
      await expect(choose).toBeFocused();

      // Dropped onto the field.
      await page.getByTestId('file-drop-data').evaluate((zone, text) => {
        // The journeys compile without the DOM library: the browser's own constructors, typed here.
        const dom = globalThis as unknown as {
          DataTransfer: new () => { items: { add(file: unknown): void } };
          DragEvent: new (type: string, init: object) => Event;
          File: new (parts: string[], name: string, options: object) => unknown;
        };
        const transfer = new dom.DataTransfer();
        transfer.items.add(new dom.File([text], 'dropped.csv', { type: 'text/csv' }));
        zone.dispatchEvent(
          new dom.DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
        );
      }, 'a,b\n1,2\n');
      await expect(page.getByTestId('file-name')).toHaveText('dropped.csv');

      // Replaced through the picker the Replace button opens.
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: t.replace('dropped.csv') }).click();
      await (await chooser).setFiles(csv('sales.csv'));
      await expect(page.getByTestId('file-name')).toHaveText('sales.csv');
      await expectAccessible(page);
      await screenshot(page, `file-uploaded-${tag}`);

      await page.getByRole('button', { name: t.submit }).click();
      await expect(page.getByText(t.completed)).toBeVisible({ timeout: 30_000 });
      const result = page.getByTestId('result-text');
      await expect(result).toContainText('sales.csv');
      await expect(result).toContainText(t.summary);
      await expectAccessible(page);
      await screenshot(page, `file-result-${tag}`);

      // The run's page lists the file among the answers, by its name and size.
      const runs = (await (await page.request.get('/api/executions')).json()) as Array<{ id: string }>;
      await page.goto(`/my-workflows/${runs[0]!.id}?lng=${lng}`);
      await expect(page.getByTestId('run-file-answer')).toContainText('sales.csv');
      await expectAccessible(page);
      await screenshot(page, `file-run-page-${tag}`);
      await context.close();
    });
  }
}
