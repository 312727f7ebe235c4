import type { InputHTMLAttributes, ReactNode } from 'react';
import { cn } from '#web/lib/utils';
import { Input, Label } from './input';

/** Joins the ids a field is described by, leaving out the empty ones. */
export function describedBy(...ids: Array<string | false | null | undefined>): string | undefined {
  const list = ids.filter(Boolean).join(' ');
  return list || undefined;
}

/** A field's error, read out as it appears and tied to the field by `aria-describedby={id}`. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm font-medium text-red-700">
      {message}
    </p>
  );
}

/** An error about the whole form (not one field). */
export function FormError({
  message,
  className,
}: {
  message: string | null | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className={cn(
        'rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800',
        className,
      )}
    >
      {message}
    </p>
  );
}

export type FormFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-describedby'> & {
  id: string;
  label: ReactNode;
  /** Shown under the input as `${id}-hint` and read with it. */
  hint?: ReactNode;
  /** Shown under the input (and hint) as `${id}-error`; marks the input invalid. */
  error?: string | null;
  /** Beside the label, on the same line (a "Forgot your password?" link). */
  labelAside?: ReactNode;
};

/** A labelled input with its optional hint and error, tied together by `aria-describedby`. */
export function FormField({ id, label, hint, error, labelAside, ...input }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  return (
    <div>
      {labelAside ? (
        <div className="mb-1 flex flex-wrap items-baseline justify-between gap-x-4">
          <Label htmlFor={id} className="mb-0">
            {label}
          </Label>
          {labelAside}
        </div>
      ) : (
        <Label htmlFor={id}>{label}</Label>
      )}
      <Input
        id={id}
        {...input}
        aria-invalid={error ? true : input['aria-invalid']}
        aria-describedby={describedBy(hintId, error && errorId)}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-700">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
