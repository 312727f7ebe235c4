// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TExecution } from '#shared/contract/executions';
import i18n from '#web/i18n';
import { FILE_RUN } from '#web/lib/testing/sample-runs';
import { ResultScreen } from './result-screen';

/** A survey left before its answers were sent: expired by the server, nothing charged, no error text. */
const LEFT: TExecution = {
  ...FILE_RUN,
  status: 'expired',
  outputType: null,
  outputFilename: null,
  outputSize: null,
  resultPath: null,
  fileExpiresAt: null,
  creditsUsed: 0,
  creditsRefunded: 0,
  errorMessage: null,
  endReason: 'not_submitted',
};
/** A chat left after its assistant answered: charged at its first message, and the charge stands. */
const LEFT_CHAT: TExecution = { ...LEFT, creditsUsed: 2 };

function show(run: TExecution) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <ResultScreen run={run} title="Encuesta" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('a run left before its answers were sent', () => {
  afterEach(cleanup);
  beforeAll(async () => {
    for (const lng of ['en', 'es']) {
      await i18n.changeLanguage(lng);
      await i18n.loadNamespaces(['execute', 'reviews']);
    }
  });

  it('says nothing was charged, in the reader’s language, and promises no refund', async () => {
    await i18n.changeLanguage('es');
    show(LEFT);
    expect(screen.getByTestId('result-error').textContent).toBe(
      'Saliste antes de enviar tus respuestas; no se cobró nada.',
    );
    expect(screen.getByTestId('result-credits').textContent).toBe('0 créditos consumidos');
    cleanup();
    await i18n.changeLanguage('en');
    show(LEFT);
    expect(screen.getByTestId('result-error').textContent).toBe(
      'You left before sending your answers; nothing was charged.',
    );
    expect(screen.queryByText(/did not answer in time/)).toBeNull();
  });

  it('says a left chat keeps its charge', async () => {
    await i18n.changeLanguage('en');
    show(LEFT_CHAT);
    expect(screen.getByTestId('result-error').textContent).toMatch(/credits stay charged/);
    expect(screen.getByTestId('result-credits').textContent).toBe('2 credits consumed');
  });
});
