import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAGE_TEXTS } from '#shared/i18n/pages';
import { PAGE_TITLES, pageTitleKey } from './page-title';

// The screens as the routers declare them, read from their source so that a new route without a title fails here.
const source = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
const appPaths = [...source('./router.tsx').matchAll(/path: '([^']+)'/g)].map((m) => m[1] ?? '');
const adminPaths = [...source('../features/admin/admin-layout.tsx').matchAll(/<Route path="([^"]+)"/g)].map(
  (m) => `/admin/${m[1] ?? ''}`,
);

describe('page titles', () => {
  it('cover every route of the app and of the admin area', () => {
    expect(appPaths.length).toBeGreaterThan(10);
    expect(adminPaths.length).toBeGreaterThan(5);
    const screens = [...appPaths, ...adminPaths].filter((p) => !p.endsWith('*'));
    for (const path of screens) {
      const concrete = path.replace(/:\w+/g, '7a3c2b1e-0000-4000-8000-000000000000');
      expect(pageTitleKey(concrete), path).not.toBe('notFound');
    }
  });

  it('name the screen by its path, and anything unknown as not found', () => {
    expect(pageTitleKey('/workflows')).toBe('catalogue');
    expect(pageTitleKey('/workflows/abc/execute')).toBe('execute');
    expect(pageTitleKey('/admin')).toBe('adminDashboard');
    expect(pageTitleKey('/admin/users')).toBe('adminUsers');
    expect(pageTitleKey('/admin/nothing')).toBe('notFound');
    expect(pageTitleKey('/nothing')).toBe('notFound');
  });

  it('have a text in both languages', () => {
    for (const [, key] of PAGE_TITLES) {
      expect(PAGE_TEXTS.en.titles[key], key).toBeTruthy();
      expect(PAGE_TEXTS.es.titles[key], key).toBeTruthy();
    }
    expect(PAGE_TEXTS.es.titles.catalogue).toBe('Catálogo de workflows');
  });
});
