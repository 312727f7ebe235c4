import type { ReactNode } from 'react';
import { describedBy } from '#web/components/ui/form-field';
import { Label } from '#web/components/ui/input';
import { FieldError } from '#web/components/ui/form-field';

/** What the field's control carries so its label, help and message are read with it. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * An admin form's field: its label, the control (`children`, given the props that tie it to the rest), a
 * help line under it (`${id}-help`) and the validation message (`${id}-error`).
 */
export function LabelledField({
  id,
  label,
  required,
  error,
  help,
  helpLive,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  error: string | undefined;
  help?: ReactNode;
  /** The help changes as the admin types (a running total) and is read out when it does. */
  helpLive?: boolean;
  children(control: ControlProps): ReactNode;
}) {
  const helpId = help ? `${id}-help` : undefined;
  const errorId = `${id}-error`;
  return (
    <div>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy(helpId, error && errorId),
      })}
      {help ? (
        <p id={helpId} className="mt-1 text-sm text-slate-700" aria-live={helpLive ? 'polite' : undefined}>
          {help}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
