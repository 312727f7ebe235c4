// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import i18n from '#web/i18n';
import { EXPIRED_FILE_RUN, FILE_RUN } from '#web/lib/testing/sample-runs';
import { ResultOutput } from './result-output';

const RUN = FILE_RUN;
const EXPIRED = EXPIRED_FILE_RUN;

describe('a stored result file on the run page and in the history', () => {
  afterEach(cleanup);
  beforeAll(async () => {
    // Loaded before rendering: a namespace still loading suspends the component.
    for (const lng of ['en', 'es']) {
      await i18n.changeLanguage(lng);
      await i18n.loadNamespaces(['execute', 'executions']);
    }
  });

  it('offers the download and says until when, in English and Spanish', async () => {
    await i18n.changeLanguage('en');
    render(<ResultOutput run={RUN} />);
    expect(screen.getByTestId('result-download').getAttribute('href')).toBe(`/result/${RUN.id}`);
    expect(screen.getByTestId('result-file-expiry').textContent).toBe(
      'Available to download until December 24, 2026.',
    );
    cleanup();
    await i18n.changeLanguage('es');
    render(<ResultOutput run={RUN} />);
    expect(screen.getByTestId('result-file-expiry').textContent).toBe(
      'Disponible para descargar hasta el 24 de diciembre de 2026.',
    );
  });

  it('says an expired file expired, with no download link, in English and Spanish', async () => {
    await i18n.changeLanguage('en');
    render(<ResultOutput run={EXPIRED} />);
    expect(screen.queryByTestId('result-download')).toBeNull();
    expect(screen.getByTestId('result-file-expired').textContent).toMatch(
      /^This file expired on December 24, 2026: result files are kept for a limited time\./,
    );
    expect(screen.getByTestId('result-filename').textContent).toBe('ventas.csv');
    cleanup();
    await i18n.changeLanguage('es');
    render(<ResultOutput run={EXPIRED} />);
    expect(screen.getByTestId('result-file-expired').textContent).toMatch(
      /^Este archivo caducó el 24 de diciembre de 2026/,
    );
  });
});
