// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '#web/i18n';
import { RUN_STATUS_TONE, RunStatusBadge } from './run-status-badge';

describe('the run-status badge', () => {
  afterEach(cleanup);

  it('maps each status to one tone', () => {
    expect(RUN_STATUS_TONE).toEqual({
      pending: 'neutral',
      running: 'info',
      completed: 'success',
      failed: 'danger',
      expired: 'warning',
    });
  });

  it.each([
    ['pending', 'Pending', 'bg-slate-100'],
    ['running', 'Running', 'bg-sky-100'],
    ['completed', 'Completed', 'bg-green-100'],
    ['failed', 'Failed', 'bg-red-100'],
    ['expired', 'Expired', 'bg-amber-100'],
  ])('shows %s as "%s" with the %s colour', async (status, label, colour) => {
    await i18n.changeLanguage('en');
    render(<RunStatusBadge status={status} />);
    expect(screen.getByText(label).className).toContain(colour);
  });

  it('shows a status it does not know as pending', async () => {
    await i18n.changeLanguage('en');
    render(<RunStatusBadge status="paused" />);
    expect(screen.getByText('Pending').className).toContain('bg-slate-100');
  });

  it('speaks Spanish too', async () => {
    await i18n.changeLanguage('es');
    render(<RunStatusBadge status="completed" />);
    expect(screen.getByText('Completado')).toBeTruthy();
  });
});
