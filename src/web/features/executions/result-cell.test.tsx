// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import i18n from '#web/i18n';
import { EXPIRED_FILE_RUN, FILE_RUN } from '#web/lib/testing/sample-runs';
import { ResultCell } from './result-cell';

const RUN = FILE_RUN;
const EXPIRED = EXPIRED_FILE_RUN;

describe('a stored result file in the history', () => {
  afterEach(cleanup);
  beforeAll(async () => {
    for (const lng of ['en', 'es']) {
      await i18n.changeLanguage(lng);
      await i18n.loadNamespaces(['executions']);
    }
  });

  it('the history row says the file expired instead of linking to it', async () => {
    await i18n.changeLanguage('es');
    render(<ResultCell run={EXPIRED} />);
    expect(screen.getByTestId('result-file-expired').textContent).toBe('Archivo caducado');
    expect(screen.queryByRole('link')).toBeNull();
    cleanup();
    await i18n.changeLanguage('en');
    render(<ResultCell run={RUN} />);
    expect(screen.getByRole('link').getAttribute('href')).toBe(`/result/${RUN.id}`);
    expect(screen.queryByTestId('result-file-expired')).toBeNull();
  });
});
