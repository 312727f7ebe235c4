// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TExecution } from '#shared/contract/executions';
import i18n from '#web/i18n';
import { FILE_RUN } from '#web/lib/testing/sample-runs';
import { RunFailure } from './run-failure';

const failed = (over: Partial<TExecution>): TExecution => ({
  ...FILE_RUN,
  status: 'failed',
  outputType: null,
  outputFilename: null,
  resultPath: null,
  ...over,
});

const shown = () => screen.getByTestId('result-error').textContent;

describe('why a run failed, in the reader language', () => {
  afterEach(cleanup);
  beforeAll(async () => {
    for (const lng of ['en', 'es']) {
      await i18n.changeLanguage(lng);
      await i18n.loadNamespaces(['execute']);
    }
  });

  it('words the code in the page language, whatever language the server wrote the message in', async () => {
    const run = failed({
      errorCode: 'workflow_refused',
      errorMessage: 'The workflow service did not accept the request.',
    });
    await i18n.changeLanguage('es');
    render(<RunFailure run={run} testId="result-error" />);
    expect(shown()).toBe('El servicio del workflow no aceptó la solicitud.');
    expect(shown()).not.toMatch(/HTTP|403/);
    cleanup();
    await i18n.changeLanguage('en');
    render(<RunFailure run={{ ...run, status: 'expired', errorCode: 'timeout' }} testId="result-error" />);
    expect(shown()).toBe('The workflow did not send a result in time.');
    expect(screen.getByRole('alert').textContent).toContain('The workflow did not answer in time');
  });

  it('adds what the workflow itself said, as it was written', async () => {
    await i18n.changeLanguage('es');
    render(
      <RunFailure
        run={failed({ errorCode: 'workflow_failed', workflowMessage: 'Inventario no disponible' })}
        testId="result-error"
      />,
    );
    expect(shown()).toBe(
      'El workflow no pudo completar tu solicitud.El workflow indicó: Inventario no disponible',
    );
  });

  it('shows the message of a run without a code, or says there are no details', async () => {
    await i18n.changeLanguage('en');
    render(
      <RunFailure run={failed({ errorCode: null, errorMessage: 'Something odd' })} testId="result-error" />,
    );
    expect(shown()).toBe('Something odd');
    cleanup();
    render(<RunFailure run={failed({ errorCode: null, errorMessage: null })} testId="result-error" />);
    expect(shown()).toBe('The workflow gave no details.');
  });
});
