import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LOW_BALANCE_THRESHOLD_MAX,
  NOTIFY_LEVELS,
  NOTIFY_ORIGINS,
  type TNotificationPreferences,
  type TNotificationSettings,
  type TNotifyLevel,
} from '#shared/contract/notifications';
import { Input, Label } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { toast } from '#web/components/ui/toast';
import { formErrors } from '#web/lib/error-key';
import { useNotificationSettings, useSaveNotificationSettings } from '../api/notification-settings';
import { SettingsCard, SettingsFormCard } from './settings-card';

const CHANNELS = ['mail', 'bell'] as const;

/**
 * What the person is told of: per origin of the run (web, schedules, API and MCP) and per channel (mail, the
 * bell), all endings, failures only or nothing; and the balance below which they are warned once (empty: off).
 */
export function NotificationsForm() {
  const settings = useNotificationSettings();
  const anchor = useRef<HTMLDivElement>(null);
  // The mails' and the bell's "notification settings" links lead here.
  useEffect(() => {
    if (settings.data && window.location.hash === '#notifications') anchor.current?.scrollIntoView();
  }, [settings.data]);
  return (
    <div id="notifications" ref={anchor} className="scroll-mt-20">
      {settings.data ? <Form initial={settings.data} /> : <Loading />}
    </div>
  );
}

function Loading() {
  const { t } = useTranslation();
  return (
    <SettingsCard section="notifications">
      <p className="text-sm text-slate-700">{t('loading')}</p>
    </SettingsCard>
  );
}

function Form({ initial }: { initial: TNotificationSettings }) {
  const { t } = useTranslation('account');
  const save = useSaveNotificationSettings();
  const [preferences, setPreferences] = useState<TNotificationPreferences>(initial.preferences);
  const [threshold, setThreshold] = useState(initial.lowBalanceThreshold?.toString() ?? '');
  const [errors, setErrors] = useState<{ threshold?: string; form?: string }>({});

  const setLevel = (
    channel: (typeof CHANNELS)[number],
    origin: (typeof NOTIFY_ORIGINS)[number],
    level: TNotifyLevel,
  ) => setPreferences((p) => ({ ...p, [channel]: { ...p[channel], [origin]: level } }));

  const submit = () => {
    const text = threshold.trim();
    const value = text === '' ? null : Number(text);
    if (value !== null && (!Number.isInteger(value) || value < 1 || value > LOW_BALANCE_THRESHOLD_MAX)) {
      setErrors({
        threshold: t('settings.notifications.thresholdInvalid', { max: LOW_BALANCE_THRESHOLD_MAX }),
      });
      return;
    }
    setErrors({});
    save.mutate(
      { preferences, lowBalanceThreshold: value },
      {
        onSuccess: () => toast({ title: t('settings.notifications.saved'), variant: 'success' }),
        onError: (err) => setErrors(formErrors(t, err, [])),
      },
    );
  };

  return (
    <SettingsFormCard
      section="notifications"
      onSubmit={submit}
      formError={errors.form}
      pending={save.isPending}
    >
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">
          {t('settings.notifications.runs')}
        </legend>
        <div className="grid gap-4 sm:grid-cols-3">
          {NOTIFY_ORIGINS.map((origin) => (
            <div key={origin} className="rounded-lg border border-slate-200 p-3">
              <p className="mb-2 text-sm font-semibold text-slate-900" id={`notify-${origin}`}>
                {t(`settings.notifications.origin.${origin}`)}
              </p>
              {CHANNELS.map((channel) => (
                <div key={channel} className="mb-2 last:mb-0">
                  <Label htmlFor={`notify-${channel}-${origin}`}>
                    {t(`settings.notifications.channel.${channel}`)}
                  </Label>
                  <Select
                    id={`notify-${channel}-${origin}`}
                    aria-describedby={`notify-${origin}`}
                    value={preferences[channel][origin]}
                    onChange={(e) => setLevel(channel, origin, e.target.value as TNotifyLevel)}
                  >
                    {NOTIFY_LEVELS.map((level) => (
                      <option key={level} value={level}>
                        {t(`settings.notifications.level.${level}`)}
                      </option>
                    ))}
                  </Select>
                </div>
              ))}
            </div>
          ))}
        </div>
        <p className="mt-2 text-xs text-slate-700">{t('settings.notifications.webHint')}</p>
      </fieldset>
      <div>
        <Label htmlFor="notify-threshold">{t('settings.notifications.threshold')}</Label>
        <Input
          id="notify-threshold"
          inputMode="numeric"
          className="max-w-40"
          value={threshold}
          onChange={(e) => setThreshold(e.target.value)}
          aria-describedby="notify-threshold-hint"
          aria-invalid={errors.threshold ? true : undefined}
        />
        <p id="notify-threshold-hint" className="mt-1 text-xs text-slate-700">
          {t('settings.notifications.thresholdHint')}
        </p>
        {errors.threshold ? (
          <p role="alert" className="mt-1 text-sm text-red-700">
            {errors.threshold}
          </p>
        ) : null}
      </div>
    </SettingsFormCard>
  );
}
