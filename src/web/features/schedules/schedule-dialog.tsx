import { CalendarClock, TriangleAlert } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSchedule } from '#shared/contract/schedules';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Callout } from '#web/components/ui/callout';
import { Dialog, DialogActions } from '#web/components/ui/dialog';
import { Input, Label } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { useMe } from '#web/lib/session';
import { browserTimezone, timezoneNames } from '#web/lib/timezone';
import { useCreateSchedule, useDeleteSchedule, useSchedulePreview, useUpdateSchedule } from './api';
import {
  choiceOf,
  cronOf,
  DEFAULT_CHOICE,
  endDateOf,
  endOfDay,
  WEEK_ORDER,
  type FriendlyChoice,
  type FriendlyKind,
} from './friendly-cron';

const KINDS: FriendlyKind[] = ['daily', 'weekdays', 'monthly', 'cron'];

/** A time in the person's zone, in the reader's language: "Mon, 30 Nov 2026, 09:00". */
export function formatRunTime(iso: string, timeZone: string, language: string): string {
  return new Intl.DateTimeFormat(language, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** Opens the schedule of saved answers: new, or the existing one to change, pause, resume or delete. */
export function ScheduleButton({
  savedInputId,
  savedInputName,
  schedule,
}: {
  savedInputId: string;
  savedInputName: string;
  schedule: TSchedule | null;
}) {
  const { t } = useTranslation('schedules');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        <CalendarClock className="mr-1.5 size-4" aria-hidden="true" />
        {schedule ? t('button.edit') : t('button.new')}
      </Button>
      {open ? (
        <ScheduleDialog
          savedInputId={savedInputId}
          savedInputName={savedInputName}
          schedule={schedule}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function ScheduleDialog({
  savedInputId,
  savedInputName,
  schedule,
  onClose,
}: {
  savedInputId: string;
  savedInputName: string;
  schedule: TSchedule | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('schedules');
  const id = useId();
  const me = useMe().data;
  const personZone = me?.timezone ?? browserTimezone();
  const [choice, setChoice] = useState<FriendlyChoice>(() =>
    schedule ? choiceOf(schedule.cron) : DEFAULT_CHOICE,
  );
  const [timezone, setTimezone] = useState(schedule?.timezone ?? personZone);
  const [endDate, setEndDate] = useState(
    schedule?.endsAt ? endDateOf(schedule.endsAt, schedule.timezone) : '',
  );
  const [formError, setFormError] = useState<string | null>(null);
  const zones = useMemo(() => timezoneNames(timezone), [timezone]);
  const cron = cronOf(choice);
  const endsAt = endDate ? endOfDay(endDate, timezone) : null;
  const preview = useSchedulePreview(cron ? { cron, timezone, endsAt } : null);
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const remove = useDeleteSchedule();
  const pending = create.isPending || update.isPending || remove.isPending;
  const set = (change: Partial<FriendlyChoice>) => setChoice((c) => ({ ...c, ...change }));

  const save = () => {
    if (!cron) {
      setFormError(t('errors.incomplete'));
      return;
    }
    setFormError(null);
    const done = () => {
      toast({ title: t('saved'), variant: 'success' });
      onClose();
    };
    const failed = (err: unknown) => setFormError(errorMessage(t, err));
    if (schedule) {
      update.mutate({ id: schedule.id, cron, timezone, endsAt }, { onSuccess: done, onError: failed });
    } else {
      create.mutate({ savedInputId, cron, timezone, endsAt }, { onSuccess: done, onError: failed });
    }
  };
  const setActive = (active: boolean) =>
    schedule &&
    update.mutate(
      { id: schedule.id, active },
      {
        onSuccess: () => toast({ title: active ? t('resumed') : t('paused'), variant: 'success' }),
        onError: (err) => setFormError(errorMessage(t, err)),
      },
    );
  const del = () =>
    schedule &&
    remove.mutate(schedule.id, {
      onSuccess: () => {
        toast({ title: t('deleted'), variant: 'success' });
        onClose();
      },
      onError: (err) => setFormError(errorMessage(t, err)),
    });

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('title', { name: savedInputName })}
      description={t('description')}
      closeLabel={t('close')}
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        {schedule ? (
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
            {t('status.label')}
            <Badge tone={schedule.active ? 'success' : 'warning'}>
              {schedule.active ? t('status.active') : t(`status.${schedule.pausedReason ?? 'person'}`)}
            </Badge>
          </p>
        ) : null}
        <fieldset>
          <legend className="mb-1 block text-sm font-medium text-slate-800">{t('kind.label')}</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {KINDS.map((kind) => (
              <label
                key={kind}
                className="flex min-h-10 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name={`${id}-kind`}
                  value={kind}
                  checked={choice.kind === kind}
                  onChange={() => set({ kind, cron: cron ?? choice.cron })}
                />
                {t(`kind.${kind}`)}
              </label>
            ))}
          </div>
        </fieldset>

        {choice.kind === 'weekdays' ? (
          <fieldset>
            <legend className="mb-1 block text-sm font-medium text-slate-800">{t('weekdays')}</legend>
            <div className="flex flex-wrap gap-2">
              {WEEK_ORDER.map((day) => (
                <label
                  key={day}
                  className="flex min-h-10 cursor-pointer items-center gap-1.5 rounded-lg border border-slate-300 px-2.5 text-sm text-slate-900 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input
                    type="checkbox"
                    checked={choice.weekdays.includes(day)}
                    onChange={(e) =>
                      set({
                        weekdays: e.target.checked
                          ? [...choice.weekdays, day]
                          : choice.weekdays.filter((d) => d !== day),
                      })
                    }
                  />
                  {t(`day.${day}`)}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}

        {choice.kind === 'monthly' ? (
          <div>
            <Label htmlFor={`${id}-dom`}>{t('dayOfMonth')}</Label>
            <Input
              id={`${id}-dom`}
              type="number"
              inputMode="numeric"
              min={1}
              max={31}
              value={choice.dayOfMonth}
              onChange={(e) => set({ dayOfMonth: Number(e.target.value) })}
              aria-describedby={`${id}-dom-hint`}
              className="max-w-32"
            />
            <p id={`${id}-dom-hint`} className="mt-1 text-xs text-slate-700">
              {t('dayOfMonthHint')}
            </p>
          </div>
        ) : null}

        {choice.kind === 'cron' ? (
          <div>
            <Label htmlFor={`${id}-cron`}>{t('cron')}</Label>
            <Input
              id={`${id}-cron`}
              value={choice.cron}
              maxLength={100}
              spellCheck={false}
              autoCapitalize="off"
              className="font-mono"
              onChange={(e) => set({ cron: e.target.value })}
              aria-describedby={`${id}-cron-hint`}
            />
            <p id={`${id}-cron-hint`} className="mt-1 text-xs text-slate-700">
              {t('cronHint')}
            </p>
          </div>
        ) : (
          <div>
            <Label htmlFor={`${id}-time`}>{t('time')}</Label>
            <Input
              id={`${id}-time`}
              type="time"
              value={choice.time}
              onChange={(e) => set({ time: e.target.value })}
              className="max-w-40"
            />
          </div>
        )}

        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={`${id}-zone`}>{t('timezone')}</Label>
            <Select id={`${id}-zone`} value={timezone} onChange={(e) => setTimezone(e.target.value)}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor={`${id}-end`}>{t('endDate')}</Label>
            <Input
              id={`${id}-end`}
              type="date"
              value={endDate}
              onChange={(e) => setEndDate(e.target.value)}
              aria-describedby={`${id}-end-hint`}
            />
            <p id={`${id}-end-hint`} className="mt-1 text-xs text-slate-700">
              {t('endDateHint')}
            </p>
          </div>
        </div>

        <section aria-labelledby={`${id}-next`} aria-live="polite">
          <h3 id={`${id}-next`} className="text-sm font-medium text-slate-800">
            {t('next.title', { zone: personZone })}
          </h3>
          {!cron ? (
            <p className="mt-1 text-sm text-slate-700">{t('errors.incomplete')}</p>
          ) : preview.isError ? (
            <Callout tone="danger" icon={TriangleAlert} compact role="alert" className="mt-1">
              {errorMessage(t, preview.error)}
            </Callout>
          ) : preview.data ? (
            preview.data.nextRuns.length === 0 ? (
              <p className="mt-1 text-sm text-slate-700">{t('next.none')}</p>
            ) : (
              <ol
                className="mt-1 list-inside list-decimal text-sm text-slate-900"
                data-testid="schedule-next-runs"
              >
                {preview.data.nextRuns.map((time) => (
                  <li key={time}>
                    <time dateTime={time}>{formatRunTime(time, personZone, i18n.language)}</time>
                  </li>
                ))}
              </ol>
            )
          ) : (
            <p className="mt-1 text-sm text-slate-700">{t('next.loading')}</p>
          )}
        </section>

        {formError ? (
          <Callout tone="danger" icon={TriangleAlert} compact role="alert">
            {formError}
          </Callout>
        ) : null}

        {schedule ? (
          <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
            <Button
              type="button"
              variant="secondary"
              disabled={pending}
              onClick={() => setActive(!schedule.active)}
            >
              {schedule.active ? t('pause') : t('resume')}
            </Button>
            <Button type="button" variant="destructive" disabled={pending} onClick={del}>
              {t('delete')}
            </Button>
          </div>
        ) : null}

        <DialogActions cancelLabel={t('cancel')} onCancel={onClose}>
          <Button type="submit" disabled={pending}>
            {t('save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
