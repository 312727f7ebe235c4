// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TSurveyQuestion } from '#shared/contract/workflows';
import i18n from '#web/i18n';
import { savedFromState } from './lib/prefill';
import { SurveyForm } from './survey-form';

/*
 * Editing saved answers whose file question has a kept file (decision 159): the form shows the kept file
 * with its name and size, saving without touching it names it again (so the server keeps it), removing it
 * touches only the form, and sending the run asks for an upload, since a kept file is not the run's.
 */

const QUESTIONS: TSurveyQuestion[] = [
  { id: 'city', question: { es: 'Ciudad', en: 'City' }, type: 'text', options: [] },
  { id: 'data', question: { es: 'Datos', en: 'Data' }, type: 'file', options: [], required: false },
];
const RUN = '7d3f5a0e-8c1b-4a49-9f5e-2b6c1d0e9a77';
const SAVED = '5b0c7e2a-1d3f-4e8a-9c6b-0a1b2c3d4e5f';
const KEPT = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

/** The navigation state the saved answers page's "Edit" hands over. */
const STATE = {
  saved: {
    id: SAVED,
    name: 'Sales',
    answers: { city: 'Madrid', data: { fileId: KEPT } },
    files: [{ questionId: 'data', fileId: KEPT, filename: 'sales.csv', contentType: 'text/csv', size: 2048 }],
  },
};

const TEXTS = {
  en: {
    kept: /2\.00 KB · kept with the saved answers/,
    remove: 'Remove sales.csv',
    save: 'Save answers',
    send: 'Submit answers',
    choose: /Choose a file/,
    notSent: /This file is kept with the saved answers/,
  },
  es: {
    kept: /2,00 KB · guardado con las respuestas/,
    remove: 'Quitar sales.csv',
    save: 'Guardar respuestas',
    send: 'Enviar respuestas',
    choose: /Elegir un archivo/,
    notSent: /Este archivo está guardado con las respuestas/,
  },
} as const;

const fetchMock = vi.fn((_url: string, _init?: RequestInit) =>
  Promise.resolve(Response.json({ id: SAVED, name: 'Sales' })),
);

function renderEdit(onSubmit = vi.fn()) {
  const editing = savedFromState(STATE)!;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <SurveyForm
          executionId={RUN}
          title="CSV"
          description=""
          questions={QUESTIONS}
          submitting={false}
          onSubmit={onSubmit}
          initial={editing.answers}
          editing={{ id: editing.id, name: editing.name }}
          workflowId="d3e0a000-0000-4000-8000-000000000008"
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return onSubmit;
}

/** The body of each call the form made, by method. */
const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => ({
    url,
    method: init?.method,
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
  }));

describe.each(['en', 'es'] as const)('editing saved answers with a kept file (%s)', (lng) => {
  const t = TEXTS[lng];
  beforeAll(async () => {
    await i18n.loadNamespaces('execute');
    await i18n.changeLanguage(lng);
  });
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockClear();
  });

  it('shows the kept file by name and size, and saving without touching it keeps it', async () => {
    renderEdit();
    const kept = screen.getByTestId('file-answer-data');
    expect(kept.textContent).toContain('sales.csv');
    expect(kept.textContent).toMatch(t.kept);
    expect(screen.getByRole('button', { name: t.remove })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: t.save }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(calls()).toEqual([
      {
        url: `/api/saved-inputs/${SAVED}`,
        method: 'PATCH',
        body: { name: 'Sales', answers: { city: 'Madrid', data: { fileId: KEPT } }, runId: RUN },
      },
    ]);
  });

  it('removes the kept file from the form only, and saves the answers without it', async () => {
    renderEdit();
    fireEvent.click(screen.getByRole('button', { name: t.remove }));
    // No call to the run's files: the kept file is the saved answers', removed by saving them without it.
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByTestId('file-answer-data')).toBeNull();
    expect(screen.getByRole('button', { name: t.choose })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: t.save }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(calls()[0]).toMatchObject({
      method: 'PATCH',
      body: { answers: { city: 'Madrid', data: '' }, runId: RUN },
    });
  });

  it('does not send a run with the kept file: it asks for an upload, and sends nothing', () => {
    const onSubmit = renderEdit();
    fireEvent.click(screen.getByRole('button', { name: t.send }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByTestId('file-answer-data').parentElement!.textContent).toMatch(t.notSent);
  });
});

describe('the kept files handed to the edit form', () => {
  it('names only a file kept for that very question, and leaves anything else empty', () => {
    const other = { questionId: 'other', fileId: KEPT, filename: 'x.csv', size: 1 };
    expect(savedFromState({ saved: { ...STATE.saved, files: [other] } })?.answers).toEqual({
      city: 'Madrid',
    });
    expect(savedFromState({ saved: { ...STATE.saved, files: 'nope' } })?.answers).toEqual({ city: 'Madrid' });
    expect(savedFromState(STATE)?.answers.data).toEqual({
      fileId: KEPT,
      filename: 'sales.csv',
      size: 2048,
      kept: true,
    });
  });
});
