import type { LucideIcon } from 'lucide-react';
import { cn } from '#web/lib/utils';

const TONES = {
  neutral: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  danger: 'text-red-700 hover:bg-red-50',
  success: 'text-green-800 hover:bg-green-50',
} as const;

interface RowActionProps {
  /** Names the action and its row ("Delete Lead qualifier"); also shown as a tooltip. */
  label: string;
  icon: LucideIcon;
  onClick(): void;
  tone?: keyof typeof TONES;
  disabled?: boolean;
}

/** A compact icon button for a table row, so the actions fit beside the data at every width. */
export function RowAction({ label, icon: Icon, onClick, tone = 'neutral', disabled }: RowActionProps) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      className={cn('rounded-lg p-2 transition-colors disabled:opacity-50', TONES[tone])}
    >
      <Icon className="size-4" aria-hidden="true" />
    </button>
  );
}
