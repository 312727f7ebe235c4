import { CalendarClock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { pickLanguage } from '#shared/contract/common';
import type { TSchedule } from '#shared/contract/schedules';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '#web/components/ui/badge';
import { Spinner } from '#web/components/ui/spinner';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';
import { errorMessage } from '#web/lib/error-key';
import { useMe } from '#web/lib/session';
import { browserTimezone } from '#web/lib/timezone';
import { useSchedules } from './api';
import { formatRunTime, ScheduleButton } from './schedule-dialog';

/**
 * The person's saved answers with their schedules: when each runs next (in the person's time zone), whether
 * it is paused, and the button that schedules, changes, pauses or deletes it.
 */
export default function SchedulesPage() {
  const { t, i18n } = useTranslation('schedules');
  const me = useMe().data;
  const zone = me?.timezone ?? browserTimezone();
  const saved = useQuery({
    queryKey: queryKeys.savedInputs(),
    queryFn: () => api.get('/api/saved-inputs'),
  });
  const schedules = useSchedules();
  const byInput = new Map<string, TSchedule>((schedules.data ?? []).map((s) => [s.savedInputId, s]));
  const error = saved.error ?? schedules.error;

  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{t('page.title')}</h1>
      <p className="mt-2 text-slate-700">{t('page.subtitle', { zone })}</p>
      <div className="mt-8">
        {error ? (
          <p role="alert" className="text-red-800">
            {errorMessage(t, error)}
          </p>
        ) : !saved.data || !schedules.data ? (
          <Spinner label={t('page.loading')} />
        ) : saved.data.savedInputs.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-slate-700">
            {t('page.empty')}
          </p>
        ) : (
          <ul className="space-y-3">
            {saved.data.savedInputs.map((input) => {
              const schedule = byInput.get(input.id) ?? null;
              return (
                <li
                  key={input.id}
                  className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="break-words font-medium text-slate-900">{input.name}</p>
                    <p className="text-sm text-slate-700">
                      {pickLanguage(input.workflowName, i18n.language)}
                    </p>
                    <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-800">
                      <CalendarClock className="size-4 text-slate-600" aria-hidden="true" />
                      {!schedule ? (
                        t('page.notScheduled')
                      ) : schedule.active && schedule.nextRunAt ? (
                        t('page.nextRun', { time: formatRunTime(schedule.nextRunAt, zone, i18n.language) })
                      ) : (
                        <Badge tone="warning">{t(`status.${schedule.pausedReason ?? 'person'}`)}</Badge>
                      )}
                    </p>
                  </div>
                  <ScheduleButton savedInputId={input.id} savedInputName={input.name} schedule={schedule} />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
