import { useTranslation } from 'react-i18next';
import { Label } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { CATEGORIES } from '#shared/contract/categories';
import { pickLanguage } from '#shared/contract/common';
import { FieldError } from './field-error';

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
    <div>
      <Label htmlFor={id} required>
        {t('form.category')}
      </Label>
      <Select
        id={id}
        value={value}
        required
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="">{t('form.categoryPlaceholder')}</option>
        {CATEGORIES.map((c) => (
          <option key={c.key} value={c.key}>
            {pickLanguage(c.name, i18n.language)}
          </option>
        ))}
      </Select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
