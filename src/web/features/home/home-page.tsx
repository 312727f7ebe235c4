import { Gauge, Layers, ShieldCheck, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';

const FEATURES = [
  { key: 'fast', Icon: Gauge },
  { key: 'smart', Icon: Sparkles },
  { key: 'scalable', Icon: Layers },
  { key: 'secure', Icon: ShieldCheck },
] as const;

export default function HomePage() {
  const { t } = useTranslation('home');
  return (
    <div>
      <section className="bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:py-24">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t('hero.eyebrow')}</p>
          <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            {t('hero.title')}
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700">{t('hero.subtitle')}</p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Button asChild size="lg">
              <Link to="/workflows">{t('hero.explore')}</Link>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/signup">{t('hero.start')}</Link>
            </Button>
          </div>
        </div>
      </section>
      <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="features-title">
        <h2 id="features-title" className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">
          {t('features.title')}
        </h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ key, Icon }) => (
            <Card key={key} className="p-6">
              <div className="flex size-11 items-center justify-center rounded-lg bg-brand-100 text-brand-700">
                <Icon className="size-6" aria-hidden="true" />
              </div>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{t(`features.${key}.title`)}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-700">{t(`features.${key}.body`)}</p>
            </Card>
          ))}
        </div>
      </section>
      <section className="mx-auto max-w-6xl px-4 pb-20">
        <div className="flex flex-col items-start gap-3 rounded-xl bg-slate-900 p-8 text-white shadow-sm sm:p-10">
          <Badge tone="warning">{t('expert.badge')}</Badge>
          <h2 className="text-2xl font-bold">{t('expert.title')}</h2>
          <p className="max-w-2xl text-slate-200">{t('expert.body')}</p>
        </div>
      </section>
    </div>
  );
}
