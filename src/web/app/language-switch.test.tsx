// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { LanguageSwitch } from './language-switch';

function renderAt(address: string) {
  const router = createMemoryRouter([{ path: '*', element: <LanguageSwitch /> }], {
    initialEntries: [address],
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('the language switch', () => {
  afterEach(async () => {
    cleanup();
    await i18n.changeLanguage('en');
  });

  it('changes an address that names its language, so a reload keeps the choice', async () => {
    await i18n.changeLanguage('es');
    const router = renderAt('/workflows?lng=es&category=marketing');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'en' })));
    expect(i18n.resolvedLanguage).toBe('en');
    expect(router.state.location.pathname).toBe('/workflows');
    expect(new URLSearchParams(router.state.location.search).get('lng')).toBe('en');
    expect(new URLSearchParams(router.state.location.search).get('category')).toBe('marketing');
  });

  it('leaves an address without a language as it is', async () => {
    const router = renderAt('/workflows');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'es' })));
    expect(i18n.resolvedLanguage).toBe('es');
    expect(router.state.location.search).toBe('');
  });
});
