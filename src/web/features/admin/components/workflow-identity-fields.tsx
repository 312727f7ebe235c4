import { useTranslation } from 'react-i18next';
import type { DraftErrors, WorkflowDraft } from '../lib/workflow-form';
import { BilingualField } from './bilingual-field';
import { OwnerSelect, type OwnerSelectProps } from './owner-select';

type Identity = Pick<WorkflowDraft, 'userId' | 'name' | 'description'>;

/**
 * Whose workflow it is and what it is called and does: the first fields of both the create page and the
 * edit dialog, under ids `<idPrefix>-owner`, `-name` and `-description`.
 */
export function WorkflowIdentityFields({
  idPrefix,
  values,
  onChange,
  errors,
  currentOwner,
}: {
  idPrefix: string;
  values: Identity;
  onChange<K extends keyof Identity>(key: K, value: Identity[K]): void;
  errors: DraftErrors;
  currentOwner?: OwnerSelectProps['current'];
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <OwnerSelect
        id={`${idPrefix}-owner`}
        value={values.userId}
        onChange={(v) => onChange('userId', v)}
        error={errors.userId}
        current={currentOwner}
      />
      <BilingualField
        id={`${idPrefix}-name`}
        label={t('form.name')}
        value={values.name}
        onChange={(v) => onChange('name', v)}
        required
        error={errors.name}
      />
      <BilingualField
        id={`${idPrefix}-description`}
        label={t('form.description')}
        value={values.description}
        onChange={(v) => onChange('description', v)}
        multiline
        error={errors.description}
      />
    </>
  );
}
