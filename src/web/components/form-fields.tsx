import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '#shared/contract/limits';
import { FormField, type FormFieldProps } from './ui/form-field';

type TextFieldProps = Omit<FormFieldProps, 'value' | 'onChange' | 'label'> & {
  value: string;
  onValueChange(value: string): void;
};

/** An e-mail address field: labelled "E-mail" unless told otherwise, required, filled by the browser. */
export function EmailField({
  label,
  onValueChange,
  ...props
}: TextFieldProps & { label?: FormFieldProps['label'] }) {
  const { t } = useTranslation('auth');
  return (
    <FormField
      label={label ?? t('fields.email')}
      type="email"
      autoComplete="email"
      required
      onChange={(e) => onValueChange(e.target.value)}
      {...props}
    />
  );
}

/**
 * A password field. `current` asks for the one the account has; `new` chooses one, with the minimum length
 * enforced and explained in a hint.
 */
export function PasswordField({
  kind,
  onValueChange,
  ...props
}: TextFieldProps & { kind: 'current' | 'new'; label: FormFieldProps['label'] }) {
  const { t } = useTranslation('auth');
  const chosen =
    kind === 'new'
      ? { minLength: PASSWORD_MIN, hint: t('fields.passwordHint', { min: PASSWORD_MIN }) }
      : undefined;
  return (
    <FormField
      type="password"
      autoComplete={kind === 'new' ? 'new-password' : 'current-password'}
      required
      {...chosen}
      onChange={(e) => onValueChange(e.target.value)}
      {...props}
    />
  );
}

/** A person's full name, as the sign-up and the profile settings ask for it. */
export function FullNameField({
  onValueChange,
  ...props
}: TextFieldProps & { label: FormFieldProps['label'] }) {
  return (
    <FormField
      autoComplete="name"
      required
      maxLength={120}
      onChange={(e) => onValueChange(e.target.value)}
      {...props}
    />
  );
}
