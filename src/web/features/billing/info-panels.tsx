import { CalendarCheck, Coins } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '#web/components/ui/card';

const PANELS = [
  { key: 'credits', Icon: Coins, points: ['perRun', 'refund', 'noExpiry'] },
  { key: 'subscription', Icon: CalendarCheck, points: ['monthly', 'bonus', 'support', 'cancel'] },
] as const;

export function InfoPanels() {
  const { t } = useTranslation('billing');
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {PANELS.map(({ key, Icon, points }) => (
        <Card key={key} className="p-6">
          <h2 className="flex items-center gap-2 font-semibold text-slate-900">
            <Icon className="size-5 text-brand-700" aria-hidden="true" />
            {t(`info.${key}Title`)}
          </h2>
          <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-800 marker:text-slate-400">
            {points.map((p) => (
              <li key={p}>{t(`info.${key}Points.${p}`)}</li>
            ))}
          </ul>
        </Card>
      ))}
    </div>
  );
}
