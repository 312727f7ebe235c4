// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { createQueryClient } from '../lib/query-client';
import { routes } from './router';

// A screen whose code cannot be fetched, as after a deploy removed the chunk the open page still points at.
vi.mock('../features/catalogue/catalogue-page', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

// The failing screen shows after the router's lazy import rejects and the error boundary renders, which takes
// well over testing-library's one-second default on a loaded machine; findBy still returns as soon as it shows.
const shown = { timeout: 15_000 };

function renderAt(path: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ error: 'You must sign in', code: 'UNAUTHENTICATED' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        }),
    ),
  );
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('a screen that fails', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the translated error screen inside the shell, focused, with a way home and a reload', async () => {
    // React reports the caught error on the console; the test is about what the reader sees.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/workflows');
    const alert = await screen.findByRole('alert', {}, shown);
    const heading = screen.getByRole('heading', { level: 1, name: 'Something went wrong' });
    expect(alert.contains(heading)).toBe(true);
    // The focus moves in an effect after the screen is painted, which a loaded machine may not have run yet.
    await waitFor(() => expect(document.activeElement).toBe(heading), shown);
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    // The header is still there to go elsewhere.
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });

  it('speaks Spanish to a Spanish reader', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await i18n.changeLanguage('es');
    try {
      renderAt('/workflows');
      expect(await screen.findByRole('heading', { level: 1, name: 'Algo salió mal' }, shown)).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Recargar la página' })).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
