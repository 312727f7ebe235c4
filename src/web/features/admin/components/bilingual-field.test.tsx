// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '#web/i18n';
import { BilingualField } from './bilingual-field';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The field with a fake server saying whether translation is available; answers the paths it was asked. */
function renderField(translationAvailable: boolean) {
  const paths: string[] = [];
  const onChange = vi.fn();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      paths.push(path);
      if (path === '/api/config') return json(200, { translationAvailable });
      if (path === '/api/admin/translate') return json(200, { translation: 'Hello' });
      return json(404, { error: 'not here', code: 'NOT_FOUND' });
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <BilingualField id="name" label="Name" value={{ es: 'Hola', en: '' }} onChange={onChange} />
    </QueryClientProvider>,
  );
  return { paths, onChange };
}

describe('the translate buttons', () => {
  beforeAll(async () => {
    await i18n.loadNamespaces('admin');
    await i18n.changeLanguage('es');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('are disabled, saying why, when the server has no language model, and call nothing', async () => {
    const { paths, onChange } = renderField(false);
    const button = screen.getByRole('button', { name: /Traducir del español/ });
    await vi.waitFor(() => expect(paths).toContain('/api/config'));
    const reason = i18n.t('admin:translate.unavailable');
    expect(button).toHaveProperty('title', reason);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(reason);
    expect(reason).not.toMatch(/LLM_|BASE_URL/);
    fireEvent.click(button);
    expect(paths).not.toContain('/api/admin/translate');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('translate when a model is configured', async () => {
    const { paths, onChange } = renderField(true);
    const button = screen.getByRole('button', { name: /Traducir del español/ });
    await vi.waitFor(() => expect(button.getAttribute('aria-disabled')).toBeNull());
    expect(button.getAttribute('title')).toBeNull();
    fireEvent.click(button);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith({ es: 'Hola', en: 'Hello' }));
    expect(paths).toContain('/api/admin/translate');
  });
});
