import { FileQuestion } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '#web/lib/utils';

const TONES = {
  neutral: 'bg-brand-100 text-brand-700',
  danger: 'bg-red-100 text-red-700',
  success: 'bg-green-100 text-green-700',
} as const;

/** A centred card for the execute screen's one-message states (not found, start error, no interface...). */
export function StatePanel({
  icon,
  tone = 'neutral',
  title,
  children,
  actions,
  busy,
}: {
  icon: ReactNode;
  tone?: keyof typeof TONES;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  busy?: boolean;
}) {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-16 text-center sm:py-24">
      <div
        role={busy ? 'status' : undefined}
        className="flex w-full flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 shadow-sm sm:px-10"
      >
        <div className={cn('flex size-14 items-center justify-center rounded-full', TONES[tone])}>{icon}</div>
        <h1 className="mt-5 text-2xl font-bold text-slate-900">{title}</h1>
        {children ? <div className="mt-3 text-sm leading-6 text-slate-700">{children}</div> : null}
        {actions ? (
          <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">{actions}</div>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The page's workflow or run cannot be shown: `texts` names the execute texts of the case (its `.title` and
 * `.body`): missing, or failed to load.
 */
export function NotShownPanel({ texts, actions }: { texts: string; actions: ReactNode }) {
  const { t } = useTranslation('execute');
  return (
    <StatePanel
      tone="danger"
      icon={<FileQuestion className="size-7" aria-hidden="true" />}
      title={t(`${texts}.title`)}
      actions={actions}
    >
      {t(`${texts}.body`)}
    </StatePanel>
  );
}
