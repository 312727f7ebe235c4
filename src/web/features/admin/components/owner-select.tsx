import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { useAdminUsers } from '../api/lists';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { LabelledField } from './labelled-field';

export interface OwnerSelectProps {
  id: string;
  value: string;
  onChange(userId: string): void;
  error?: string | undefined;
  /** The current owner, kept as an option even when the search does not return them. */
  current?: { id: string; email: string; fullName: string | null } | null;
}

const OWNER_PAGE = 100;

/**
 * The workflow's owner. There may be many thousands of users, so a search box narrows the list the
 * server sends (the first 100 matches) instead of loading every account.
 */
export function OwnerSelect({ id, value, onChange, error, current }: OwnerSelectProps) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const users = useAdminUsers({ q, limit: OWNER_PAGE, offset: 0 });
  const options = users.data?.items ?? [];
  // The chosen owner stays an option while the admin searches for someone else.
  const [picked, setPicked] = useState(current ?? null);
  const keep = picked && picked.id === value ? picked : null;
  const withCurrent = keep && !options.some((u) => u.id === keep.id) ? [keep, ...options] : options;
  const label = (u: { email: string; fullName: string | null }) =>
    u.fullName ? `${u.fullName} (${u.email})` : u.email;

  return (
    <LabelledField id={id} label={t('form.owner')} required error={error}>
      {(control) => (
        <div className="grid gap-2 sm:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
          <Input
            type="search"
            aria-label={t('form.ownerSearch')}
            placeholder={t('form.ownerSearch')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <Select
            {...control}
            value={value}
            required
            onChange={(e) => {
              setPicked(withCurrent.find((u) => u.id === e.target.value) ?? null);
              onChange(e.target.value);
            }}
          >
            <option value="">{users.isLoading ? t('common.loading') : t('form.ownerPlaceholder')}</option>
            {withCurrent.map((u) => (
              <option key={u.id} value={u.id}>
                {label(u)}
              </option>
            ))}
          </Select>
        </div>
      )}
    </LabelledField>
  );
}
