// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import i18n from '#web/i18n';
import type { TSurveyQuestion } from '#shared/contract/workflows';
import { optionText } from '#shared/contract/workflows';
import { OptionsEditor } from './options-editor';

type Choices = Pick<TSurveyQuestion, 'options' | 'optionLabels'>;

/** The editor with its value kept, as the survey builder keeps it; `seen` is the latest value given. */
function renderEditor(initial: Choices = { options: [] }) {
  const seen: { value: Choices } = { value: initial };
  function Harness() {
    const [value, setValue] = useState<Choices>(initial);
    return (
      <OptionsEditor
        id="q1-options"
        value={value}
        onChange={(next) => {
          seen.value = next;
          setValue(next);
        }}
      />
    );
  }
  render(<Harness />);
  return seen;
}

const type = (label: string, text: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
const enter = (label: string) => fireEvent.keyDown(screen.getByLabelText(label), { key: 'Enter' });

describe('the survey options editor', () => {
  // The admin texts load on demand: read them before the first render, which would otherwise suspend.
  beforeAll(() => i18n.loadNamespaces('admin'));
  afterEach(cleanup);

  it('keeps an option written in both languages as its English text, labelled in each', async () => {
    await i18n.changeLanguage('en');
    const seen = renderEditor();
    type('Spanish', 'Baja');
    type('English', 'Low');
    enter('English');
    expect(seen.value).toEqual({ options: ['Low'], optionLabels: { Low: { es: 'Baja', en: 'Low' } } });
    // What a person running the survey reads, in each language.
    const question = { optionLabels: seen.value.optionLabels };
    expect([optionText(question, 'Low', 'es'), optionText(question, 'Low', 'en')]).toEqual(['Baja', 'Low']);
    // The boxes are empty again for the next option, and the chip shows both texts.
    expect(screen.getByLabelText('Spanish')).toHaveProperty('value', '');
    expect(within(screen.getByRole('list')).getByText('Baja')).toBeTruthy();
  });

  it('keeps an option written in one language as it is, with no labels', async () => {
    await i18n.changeLanguage('es');
    const seen = renderEditor();
    type('Español', 'Rojo');
    fireEvent.click(screen.getByRole('button', { name: 'Añadir opción' }));
    expect(seen.value).toEqual({ options: ['Rojo'], optionLabels: undefined });
  });

  it('refuses a blank or repeated option and says why, changing nothing', async () => {
    await i18n.changeLanguage('es');
    const seen = renderEditor({ options: ['Low'], optionLabels: { Low: { es: 'Baja', en: 'Low' } } });
    type('Español', '   ');
    enter('Español');
    expect(screen.getByText('Una opción no puede estar vacía')).toBeTruthy();
    type('Inglés', 'Low');
    enter('Inglés');
    expect(screen.getByText('Esa opción ya está en la lista')).toBeTruthy();
    expect(seen.value).toEqual({ options: ['Low'], optionLabels: { Low: { es: 'Baja', en: 'Low' } } });
  });

  it('removes an option together with its labels', async () => {
    await i18n.changeLanguage('en');
    const seen = renderEditor({
      options: ['Low', 'High'],
      optionLabels: { Low: { es: 'Baja', en: 'Low' }, High: { es: 'Alta', en: 'High' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove option Baja / Low' }));
    expect(seen.value).toEqual({ options: ['High'], optionLabels: { High: { es: 'Alta', en: 'High' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove option Alta / High' }));
    expect(seen.value).toEqual({ options: [], optionLabels: undefined });
  });
});
