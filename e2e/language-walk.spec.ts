import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { originOf, SCREENS, signUpViaApi } from './fixtures.js';

type Lng = 'en' | 'es';

/**
 * Words and phrases each language's UI uses and the other's never does, picked from the locale files: common
 * labels of the shell, the lists and the forms, plus short function words, which give away a stray sentence
 * even when none of its labels is listed. Product names, "workflow" and the demo workflows' own texts (stored
 * in both languages) are left out. The first test below checks every entry against the locale files.
 */
const ONLY_IN: Record<Lng, string[]> = {
  en: [
    'the',
    'and',
    'your',
    'with',
    'Catalogue',
    'Sign in',
    'Sign out',
    'Sign up',
    'Credits',
    'My account',
    'Search',
    'Previous',
    'Loading',
    'Actions',
    'Password',
    'Dashboard',
    'Users',
    'Configuration',
    'Runs',
    'Download',
    'Buy credits',
    'Balance',
    'Required',
    'Completed',
    'Failed',
    'Pending',
    'Suspended',
    'Page not found',
    'Something went wrong',
    'Notifications',
  ],
  es: [
    'los',
    'las',
    'para',
    'con',
    'tus',
    'Catálogo',
    'Iniciar sesión',
    'Cerrar sesión',
    'Créditos',
    'Mi cuenta',
    'Buscar',
    'Anterior',
    'Siguiente',
    'Cargando',
    'Acciones',
    'Contraseña',
    'Idioma',
    'Usuarios',
    'Configuración',
    'Ejecuciones',
    'Descargar',
    'Comprar créditos',
    'Saldo',
    'Obligatorio',
    'Estado',
    'Completado',
    'Fallido',
    'Pendiente',
    'Suspendido',
    'Página no encontrada',
    'Algo salió mal',
    'Notificaciones',
  ],
};

// A key shown instead of its text: "nav.signIn", "admin:users.title".
const RAW_KEY = /^[a-z]+(\.[a-zA-Z]+)+$/;
const NAMESPACED_KEY = /\b[a-z]+:[a-z]+[A-Za-z]*(\.[a-zA-Z]+)+\b/;
// File names and addresses look like keys but are data.
const NOT_A_KEY = /\.(csv|xlsx|pdf|png|jpe?g|svg|txt|json|example|com|org|es)$/i;

const LOCALES = join(process.cwd(), 'src/web/i18n/locales');

function localeTexts(lng: Lng): string {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value.replace(/\{\{[^}]*\}\}/g, ' '));
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const file of readdirSync(join(LOCALES, lng))) {
    walk(JSON.parse(readFileSync(join(LOCALES, lng, file), 'utf8')) as unknown);
  }
  return texts.join('\n');
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A word or phrase on its own, in any case: no letter right before or after it, nor an underscore, so field
 * and setting names shown as code (`signup_bonus_credits`, `status`) are not read as prose.
 */
const wordPattern = (word: string) => new RegExp(`(?<![\\p{L}_])${escape(word)}(?![\\p{L}_])`, 'iu');

/** What a person reads on the page: visible text, plus labels and placeholders of the controls. */
async function readablePage(page: Page): Promise<{ lines: string[]; title: string }> {
  // Run in the page as source text: the journeys are compiled without the DOM's types.
  // Content marked translate="no" is data as people typed it (an admin's reason in the audit details), in
  // whatever language they wrote it: hidden while the text is read, then shown again.
  const lines = await page.evaluate<string[]>(`(() => {
    const hide = document.createElement('style');
    hide.textContent = '[translate="no"] { display: none !important; }';
    document.head.append(hide);
    const out = document.body.innerText.split('\\n');
    hide.remove();
    for (const el of document.querySelectorAll('[aria-label],[placeholder],[title]')) {
      if (el.closest('[translate="no"]')) continue;
      for (const attr of ['aria-label', 'placeholder', 'title']) {
        const value = el.getAttribute(attr);
        if (value) out.push(value);
      }
    }
    return out;
  })()`);
  return { lines: lines.map((l) => l.trim()).filter(Boolean), title: await page.title() };
}

/** Addresses and e-mails are data, whatever language they happen to be in. */
const withoutAddresses = (line: string) => line.replace(/\S+@\S+|\bhttps?:\/\/\S+/g, ' ');

interface Finding {
  lng: Lng;
  path: string;
  problem: string;
  line: string;
}

async function checkPage(page: Page, lng: Lng, path: string, findings: Finding[]): Promise<void> {
  await page.goto(`${path}${path.includes('?') ? '&' : '?'}lng=${lng}`);
  await expect(page.locator('h1').first()).toBeVisible();
  // Lists and lazily loaded namespaces settle before the text is read.
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('status').filter({ hasText: /^(Loading|Cargando)/ })).toHaveCount(0);
  const other: Lng = lng === 'en' ? 'es' : 'en';
  const patterns = ONLY_IN[other].map((word) => ({ word, re: wordPattern(word) }));
  const { lines, title } = await readablePage(page);
  for (const line of [...lines, title]) {
    const text = withoutAddresses(line);
    // A mail's subject is written in its recipient's language, whatever the admin reads the list in.
    const mailRecord = path === '/admin/emails' && text !== line;
    for (const { word, re } of mailRecord ? [] : patterns) {
      if (re.test(text)) findings.push({ lng, path, problem: `${other} word "${word}"`, line });
    }
    if ((RAW_KEY.test(line) && !NOT_A_KEY.test(line)) || NAMESPACED_KEY.test(text)) {
      findings.push({ lng, path, problem: 'raw i18n key', line });
    }
  }
}

const VISITOR_PATHS = [
  '/',
  '/signin',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/workflows',
  '/no/such/page',
];
// The survey demo (demo/catalog.ts); opening it starts a run, which costs its one credit.
const SURVEY_DEMO = 'd3e0a000-0000-4000-8000-000000000002';
const USER_PATHS = [
  '/workflows',
  `/workflows/${SURVEY_DEMO}/execute`,
  '/workflows/not-a-uuid/execute',
  '/my-workflows',
  '/account',
  '/buy-credits',
  '/credits',
];
const ADMIN_PATHS = [
  '/admin',
  '/admin/workflows',
  '/admin/create-workflow',
  '/admin/executions',
  '/admin/users',
  '/admin/credits',
  '/admin/emails',
  '/admin/audit',
  '/admin/config',
  '/admin/no-such-page',
];

test('the word lists hold only words of their own language', SCREENS, () => {
  const texts = { en: localeTexts('en'), es: localeTexts('es') };
  for (const lng of ['en', 'es'] as const) {
    const other: Lng = lng === 'en' ? 'es' : 'en';
    for (const word of ONLY_IN[lng]) {
      expect(wordPattern(word).test(texts[lng]), `${word} is in ${lng}`).toBe(true);
      expect(wordPattern(word).test(texts[other]), `${word} is not in ${other}`).toBe(false);
    }
  }
});

for (const lng of ['en', 'es'] as const) {
  test(
    `every screen speaks only ${lng === 'en' ? 'English' : 'Spanish'} and shows no raw keys`,
    SCREENS,
    async ({ page }) => {
      test.setTimeout(240_000);
      const findings: Finding[] = [];
      for (const path of VISITOR_PATHS) await checkPage(page, lng, path, findings);

      await signUpViaApi(page, 'Walker', lng);
      for (const path of USER_PATHS) await checkPage(page, lng, path, findings);

      await page.context().clearCookies();
      const res = await page.request.post('/api/auth/signin', {
        data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
        headers: { origin: originOf(page) },
      });
      expect(res.ok()).toBe(true);
      for (const path of ADMIN_PATHS) await checkPage(page, lng, path, findings);

      expect(findings.map((f) => `${f.path}: ${f.problem} in "${f.line}"`)).toEqual([]);
    },
  );
}
