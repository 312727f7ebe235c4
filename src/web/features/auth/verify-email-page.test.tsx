// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '#web/i18n';
import VerifyEmailPage from './verify-email-page';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The page in StrictMode (effects run twice) with a fake server; answers the calls it received. */
function renderPage(verifyAnswer: () => Response, me: unknown = null) {
  const calls: Array<{ path: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init?: RequestInit) => {
      calls.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/api/auth/me')
        return me ? json(200, me) : json(401, { error: 'no', code: 'UNAUTHENTICATED' });
      if (path === '/api/auth/verify-email') return verifyAnswer();
      return json(404, { error: 'not here', code: 'NOT_FOUND' });
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/verify-email', element: <VerifyEmailPage /> }], {
    initialEntries: ['/verify-email?token=a-token-of-forty-three-characters-aaaaaaaaa'],
  });
  render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  return calls;
}

describe('the verify-email page', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('uses the token once, even with StrictMode running effects twice, and says the address is verified', async () => {
    const calls = renderPage(() => json(200, { ok: true, email: 'ana@example.com', kind: 'verified' }));
    expect(await screen.findByText('Your e-mail address ana@example.com is verified.')).toBeTruthy();
    const posts = calls.filter((c) => c.path === '/api/auth/verify-email');
    expect(posts).toEqual([
      { path: '/api/auth/verify-email', body: { token: 'a-token-of-forty-three-characters-aaaaaaaaa' } },
    ]);
  });

  it('names the new address after an e-mail change', async () => {
    renderPage(() => json(200, { ok: true, email: 'new@example.com', kind: 'email_changed' }));
    expect(await screen.findByText('Your e-mail address is now new@example.com.')).toBeTruthy();
  });

  it('explains a used link in the reader language, not the server text, and offers sign-in when signed out', async () => {
    await i18n.changeLanguage('es');
    try {
      renderPage(() => json(400, { error: 'Invalid or expired link', code: 'INVALID_TOKEN' }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(i18n.t('common:errors.invalidToken'));
      expect(alert.textContent).not.toContain('Invalid or expired link');
      expect(await screen.findByRole('link', { name: 'Iniciar sesión' })).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('offers a new link to a signed-in person whose address is not verified', async () => {
    renderPage(() => json(400, { error: 'Invalid', code: 'INVALID_TOKEN' }), {
      id: '00000000-0000-4000-8000-000000000000',
      email: 'ana@example.com',
      full_name: 'Ana',
      fullName: 'Ana',
      credits: 5,
      is_admin: false,
      isAdmin: false,
      account_status: 'active',
      email_verified: false,
      emailVerified: false,
      language: 'en',
    });
    expect(await screen.findByRole('button', { name: 'Resend the link' })).toBeTruthy();
  });
});
