import { Coins, MessageSquare, Play, ClipboardList } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLanguage } from '#shared/contract/pick-language';
import type { TPublicWorkflow } from '#shared/contract/workflows';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { RatingSummary } from '#web/components/reviews/stars';
import { Card } from '#web/components/ui/card';
import { HealthSummary } from '#web/components/workflow-health/health-summary';
import { cn } from '#web/lib/utils';

/** Descriptions longer than this get the view-more toggle. */
const CLAMP_OVER = 100;

export function WorkflowCard({
  workflow,
  onExecute,
  onReviews,
}: {
  workflow: TPublicWorkflow;
  onExecute(workflow: TPublicWorkflow): void;
  onReviews(workflow: TPublicWorkflow): void;
}) {
  const { t, i18n } = useTranslation('catalogue');
  const { t: tr } = useTranslation('reviews');
  const lng = i18n.resolvedLanguage ?? 'en';
  const [expanded, setExpanded] = useState(false);
  const descriptionId = useId();
  const name = pickLanguage(workflow.name, lng);
  const description = pickLanguage(workflow.description, lng);
  const long = description.length > CLAMP_OVER;
  const KindIcon = workflow.interactionType === 'survey' ? ClipboardList : MessageSquare;

  return (
    <Card className="flex h-full flex-col p-5" data-testid="workflow-card">
      <div className="flex items-start justify-between gap-3">
        <Badge tone="brand">{pickLanguage(workflow.category, lng)}</Badge>
        <span className="inline-flex items-center gap-1 text-xs font-medium text-slate-700">
          <KindIcon className="size-3.5" aria-hidden="true" />
          {t(`kind.${workflow.interactionType}`)}
        </span>
      </div>
      <h2 className="mt-3 text-lg font-semibold leading-snug text-slate-900">{name}</h2>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
        <RatingSummary rating={workflow.rating} />
        <button
          type="button"
          className="rounded text-sm font-medium text-brand-700 hover:underline"
          onClick={() => onReviews(workflow)}
          aria-label={tr('open', { name, count: workflow.rating.count })}
        >
          {tr('openShort')}
        </button>
      </div>
      <HealthSummary health={workflow.health} paused={workflow.paused} className="mt-2" />
      <div className="mt-2 flex-1">
        {description ? (
          <p
            id={descriptionId}
            className={cn('text-sm leading-6 text-slate-700', long && !expanded && 'line-clamp-2')}
          >
            {description}
          </p>
        ) : (
          <p className="text-sm italic text-slate-600">{t('noDescription')}</p>
        )}
        {long ? (
          <button
            type="button"
            className="mt-1 rounded text-sm font-medium text-brand-700 hover:underline"
            aria-expanded={expanded}
            aria-controls={descriptionId}
            onClick={() => setExpanded((e) => !e)}
          >
            {expanded ? t('viewLess') : t('viewMore')}
          </button>
        ) : null}
      </div>
      <div className="mt-5 flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <span className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-800">
          <Coins className="size-4 text-amber-700" aria-hidden="true" />
          {t('creditsPerRun', { count: workflow.creditsPerExecution })}
        </span>
        <Button
          size="sm"
          onClick={() => onExecute(workflow)}
          aria-label={t('executeNamed', { name })}
          disabled={workflow.paused}
        >
          <Play className="size-4" aria-hidden="true" />
          {t('execute')}
        </Button>
      </div>
    </Card>
  );
}
