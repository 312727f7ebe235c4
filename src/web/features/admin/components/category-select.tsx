import { useTranslation } from 'react-i18next';
import { Select } from '#web/components/ui/select';
import { CATEGORIES } from '#shared/contract/categories';
import { pickLanguage } from '#shared/contract/common';
import { LabelledField } from './labelled-field';

interface CategorySelectProps {
  id: string;
  value: string;
  onChange(key: string): void;
  error?: string | undefined;
}

/** One of the ten catalogue categories (the create page and the edit dialog share it). */
export function CategorySelect({ id, value, onChange, error }: CategorySelectProps) {
  const { t, i18n } = useTranslation('admin');
  return (
    <LabelledField id={id} label={t('form.category')} required error={error}>
      {(control) => (
        <Select {...control} value={value} required onChange={(e) => onChange(e.target.value)}>
          <option value="">{t('form.categoryPlaceholder')}</option>
          {CATEGORIES.map((c) => (
            <option key={c.key} value={c.key}>
              {pickLanguage(c.name, i18n.language)}
            </option>
          ))}
        </Select>
      )}
    </LabelledField>
  );
}
