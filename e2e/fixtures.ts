import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

let counter = 0;
export function newEmail(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@e2e.example`;
}

/** Signs a new user up through the API (sharing the page's cookies) and returns the credentials. */
export async function signUpViaApi(
  page: Page,
  fullName = 'E2E User',
): Promise<{ email: string; password: string }> {
  const email = newEmail();
  const password = 'e2e-password-123';
  const res = await page.request.post('/api/auth/signup', {
    data: { email, password, fullName },
    headers: { origin: new URL(page.url() === 'about:blank' ? 'http://localhost' : page.url()).origin },
  });
  expect(res.status()).toBe(201);
  return { email, password };
}

/** Fails on any serious or critical accessibility violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}
