import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type APIRequestContext, expect, type Locator, type Page, request } from '@playwright/test';
import type axe from 'axe-core';
import { E2E_ADMIN, E2E_ORIGIN, screensElsewhere, takeScreenshots } from '../playwright.config.js';

/**
 * The origin a page is on (the journeys' server before it has loaded one), sent as the Origin header of the API
 * calls it makes (the server checks it).
 */
export const originOf = (page: Page) =>
  page.url() === 'about:blank' ? E2E_ORIGIN : new URL(page.url()).origin;

/**
 * Sets the language a journey starts in before its first page: the `lng` cookie, as the web app's language
 * detector leaves it after `?lng=`, which sign-up takes as the new account's language. Loading the home page only
 * for that cost the browser a whole page before each journey (decision 191).
 */
export async function chooseLanguage(page: Page, lng: Lng): Promise<void> {
  await page.context().addCookies([{ name: 'lng', value: lng, url: E2E_ORIGIN }]);
}

/**
 * Sets a live setting through an admin's API session and answers a function that puts the previous value
 * back. Settings are shared by every journey: only journeys tagged SETTINGS may call it.
 */
export async function setConfig(
  admin: { request: APIRequestContext; origin: string },
  key: string,
  value: unknown,
): Promise<() => Promise<void>> {
  const list = await admin.request.get('/api/admin/config');
  expect(list.ok()).toBe(true);
  const entry = ((await list.json()) as Array<{ id: string; key: string; value: unknown }>).find(
    (e) => e.key === key,
  );
  if (!entry) throw new Error(`no setting ${key}`);
  const put = async (v: unknown) => {
    const res = await admin.request.patch(`/api/admin/config/${entry.id}`, {
      data: { value: v },
      headers: { origin: admin.origin },
    });
    expect(res.status()).toBe(200);
  };
  await put(value);
  return () => put(entry.value);
}

/**
 * Moves a person's balance as an admin would (the admin panel's credit adjustment, with its ledger row), through
 * a request context of its own so the page keeps the person's session.
 */
export async function adjustCreditsAsAdmin(
  baseURL: string,
  page: Page,
  amount: number,
  reason: string,
): Promise<void> {
  const me = (await (await page.request.get('/api/auth/me')).json()) as { id: string };
  const admin = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  try {
    expect((await admin.post('/api/auth/signin', { data: E2E_ADMIN })).ok()).toBe(true);
    const adjusted = await admin.post('/api/admin/users/adjust-credits', {
      data: { userId: me.id, amount, reason },
    });
    expect(adjusted.ok()).toBe(true);
  } finally {
    await admin.dispose();
  }
}

let counter = 0;
export function newEmail(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@e2e.example`;
}

/**
 * Signs a new user up through the API (sharing the page's cookies) and returns the credentials; with `lng`, the
 * journey chooses that language first, and the account takes it.
 */
export async function signUpViaApi(
  page: Page,
  fullName = 'E2E User',
  lng?: Lng,
): Promise<{ email: string; password: string }> {
  if (lng) await chooseLanguage(page, lng);
  const email = newEmail();
  const password = 'e2e-password-123';
  const res = await page.request.post('/api/auth/signup', {
    data: { email, password, fullName },
    headers: { origin: originOf(page) },
  });
  expect(res.status()).toBe(201);
  return { email, password };
}

/** Signs the page in as the journeys' administrator through the API, in `lng`. */
export async function signInAsAdmin(page: Page, lng: Lng): Promise<void> {
  await chooseLanguage(page, lng);
  const res = await page.request.post('/api/auth/signin', {
    data: E2E_ADMIN,
    headers: { origin: originOf(page) },
  });
  expect(res.ok()).toBe(true);
}

/**
 * axe-core's minified build, read once: the same rules as its `source` (1.3 MB), in under half the bytes for the
 * page to parse at every scan's first in a document.
 */
let axeSource: string | undefined;
const readAxeSource = () =>
  readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.0 and 2.1 rules, levels A and AA. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Fails on any serious or critical accessibility violation. A screen reads the same whatever the database or the
 * server's Node version, so the runs that leave the screens journeys to the embedded database's (decision 160)
 * leave these scans and the screenshots to it too (decision 175): every journey that scans runs there as well.
 *
 * axe-core runs in the page itself, put there once per document: the wrapper `@axe-core/playwright` injected its
 * 500 kB source again for each scan and finished each in a new blank page, three times the CPU and six times the
 * time of the scan itself (decision 185). The app has no frames, which that wrapper's way exists for.
 */
export async function expectAccessible(page: Page): Promise<void> {
  if (screensElsewhere) return;
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate((axeSource ??= readAxeSource()));
  const violations = await page.evaluate(
    async (tags) =>
      (
        await (globalThis as unknown as { axe: typeof axe }).axe.run({
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
        })
      ).violations,
    AXE_TAGS,
  );
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * Saves a screenshot in e2e/screenshots/ for a person to look at, where screenshots are taken (playwright.config.ts):
 * of the whole page by default, or of the viewport or one element.
 */
export async function screenshot(
  target: Page | Locator,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  if (!takeScreenshots) return;
  const path = `e2e/screenshots/${name}.png`;
  await ('mainFrame' in target ? target.screenshot({ path, fullPage }) : target.screenshot({ path }));
}

/**
 * Marks a journey about how screens look and read (accessibility scans at both widths, screenshots, the
 * language walk, focus and toast placement). None of that depends on the database or the server's Node version,
 * so the PostgreSQL run and CI's Node 24 run leave these out (playwright.config.ts, decision 160) and keep every
 * journey that moves data.
 */
export const SCREENS = { tag: '@screens' };
/**
 * Journeys that change marketplace-wide settings or read marketplace-wide figures: they would change what a
 * journey running beside them sees, or see what it does, so they run after the others, one at a time
 * (the `settings` project of playwright.config.ts). Only they may call setConfig.
 */
export const SETTINGS = { tag: '@settings' };

/** A text matched literally inside a regular expression. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export type Lng = 'en' | 'es';

const bundles = new Map<string, Record<string, unknown>>();
/**
 * A visible text from the translations, so each language checks its own wording. With a numeric `count` the
 * plural form is tried first, as i18next does.
 */
export function tr(lng: Lng, ns: string, key: string, vars: Record<string, string | number> = {}): string {
  const file = `${lng}/${ns}`;
  if (!bundles.has(file)) {
    bundles.set(
      file,
      JSON.parse(readFileSync(`src/web/i18n/locales/${file}.json`, 'utf8')) as Record<string, unknown>,
    );
  }
  const lookup = (path: string) => {
    let value: unknown = bundles.get(file);
    for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    return value;
  };
  const plural = typeof vars.count === 'number' ? `${key}_${vars.count === 1 ? 'one' : 'other'}` : null;
  const value = (plural ? lookup(plural) : undefined) ?? lookup(key);
  if (typeof value !== 'string') throw new Error(`no translation ${lng}:${ns}:${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** A full-page shot from the top (scrolled, the sticky header would be painted half-way down). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.wheel(0, -100_000);
  await screenshot(page, name);
}

/** Answers the assistant until it ends the conversation (it says so with its completion marker). */
export async function chatToTheEnd(page: Page, answers: string[]): Promise<void> {
  const input = page.locator('#chat-input');
  const assistant = page.locator('[role=log] [data-role=assistant]');
  for (let i = 0; i < 8; i++) {
    await expect(input).toBeEnabled();
    const before = await assistant.count();
    await input.fill(answers[i % answers.length] ?? 'Yes');
    await input.press('Enter');
    await expect(assistant).toHaveCount(before + 1, { timeout: 20_000 });
    // The reply is written word by word; the composer stays locked until it is whole.
    await expect(page.locator('[data-streaming=true]')).toHaveCount(0, { timeout: 20_000 });
    if (await input.isDisabled()) return;
  }
  throw new Error('the assistant never ended the conversation');
}

/** Fills every question of the survey form with a plausible answer of its type, once the form shows. */
export async function fillSurvey(page: Page, lng: Lng): Promise<void> {
  await expect(page.getByRole('button', { name: tr(lng, 'execute', 'survey.submit') })).toBeVisible();
  const form = page.getByTestId('survey-form');
  for (const field of await form.locator('input[type=text], textarea').all()) await field.fill('Acme Bakery');
  for (const field of await form.locator('input[type=number]').all()) await field.fill('42');
  for (const select of await form.locator('select').all()) await select.selectOption({ index: 1 });
  const boxes = form.locator('input[type=checkbox]');
  if ((await boxes.count()) > 0) await boxes.first().check();
}

/** Fills the survey form, sends it, and waits for the run's result screen. */
export async function fillAndSendSurvey(page: Page, lng: Lng): Promise<void> {
  await fillSurvey(page, lng);
  await page.getByRole('button', { name: tr(lng, 'execute', 'survey.submit') }).click();
  await expectResultScreen(page);
}

/**
 * Waits for a run's result screen. When it does not come, the failure says what the page showed instead and
 * what the server says of the person's newest run, since a CI log is all there is to read afterwards.
 */
export async function expectResultScreen(page: Page, timeout = 45_000): Promise<void> {
  try {
    await expect(page.getByTestId('result-screen')).toBeVisible({ timeout });
  } catch (err) {
    const shown = await page
      .locator('main')
      .innerText({ timeout: 2_000 })
      .catch(() => '(no main element)');
    const runs = await page.request
      .get('/api/executions')
      .then((res) => res.text())
      .catch((e: unknown) => String(e));
    throw new Error(
      `${err instanceof Error ? err.message : String(err)}\n\nThe page showed:\n${shown.slice(0, 1500)}` +
        `\n\nThe newest run, as the server says:\n${runs.slice(0, 1500)}`,
      { cause: err },
    );
  }
}
