import { CheckCircle2, RotateCcw, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TExecution } from '#shared/contract/executions';
import type { TInteractionType } from '#shared/contract/workflows';
import { ReviewsPanel } from '#web/components/reviews/reviews-panel';
import { BackButton, LinkButton } from '#web/components/ui/link-button';
import { cn } from '#web/lib/utils';
import { notSubmittedText } from './lib/end-reason';
import { ResultOutput } from './result-output';
import { RunFailure, RunLeftNotice } from './run-failure';
import { SaveAnswersPanel } from './save-answers-panel';

/** The end of a run: success or the "finished" state with its error, the output and the next steps. */
export function ResultScreen({
  run,
  title,
  interactionType,
}: {
  run: TExecution;
  title: string;
  /** What kind of workflow ran: a survey's answers can be saved, a chat's cannot. */
  interactionType?: TInteractionType | null;
}) {
  const { t } = useTranslation('execute');
  const ok = run.status === 'completed';
  const refunded = run.creditsRefunded > 0;
  const leftText = notSubmittedText(t, run);
  const Icon = ok ? CheckCircle2 : XCircle;

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-16">
      <div
        className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10"
        data-testid="result-screen"
      >
        <div className="flex flex-col items-center text-center">
          <span
            className={cn(
              'flex size-16 items-center justify-center rounded-full',
              ok ? 'bg-green-100 text-green-700' : 'bg-red-100 text-red-700',
            )}
          >
            <Icon className="size-9" aria-hidden="true" />
          </span>
          <h1 className="mt-5 text-2xl font-bold text-slate-900">
            {ok ? t('result.completed') : t('result.finished')}
          </h1>
          <p className="mt-1 text-sm text-slate-700">{title}</p>
          {/* A refunded run shows what came back rather than what was spent. */}
          <p
            className={cn(
              'mt-3 inline-flex rounded-full px-3 py-1 text-sm font-medium',
              refunded ? 'bg-sky-100 text-sky-900' : 'bg-amber-100 text-amber-900',
            )}
            data-testid="result-credits"
          >
            {refunded
              ? t('result.creditsRefunded', { count: run.creditsRefunded })
              : t('result.creditsUsed', { count: run.creditsUsed })}
          </p>
          {refunded ? <p className="mt-2 text-sm text-slate-700">{t('result.refunded')}</p> : null}
        </div>
        {leftText ? (
          <div className="mt-6">
            <RunLeftNotice text={leftText} testId="result-error" />
          </div>
        ) : !ok ? (
          <div className="mt-6">
            <RunFailure run={run} testId="result-error" />
          </div>
        ) : null}
        <div className="mt-6">
          <ResultOutput run={run} />
        </div>
        {interactionType && run.workflowId ? (
          <div className="mt-6">
            <SaveAnswersPanel
              source={{ kind: 'run', runId: run.id }}
              isChat={interactionType === 'chatbot'}
            />
          </div>
        ) : null}
        <div className="mt-8 flex flex-col-reverse gap-3 border-t border-slate-100 pt-6 sm:flex-row sm:justify-center">
          <BackButton to="/workflows">{t('result.back')}</BackButton>
          {/* The address is this run's own page by now: a new run starts from the workflow's execute page. */}
          {run.workflowId ? (
            <LinkButton
              to={`/workflows/${run.workflowId}/execute`}
              icon={RotateCcw}
              data-testid="result-again"
            >
              {t('result.again')}
            </LinkButton>
          ) : null}
        </div>
      </div>
      {/* A completed run is when the person can judge the workflow: rate it here, and read the others. */}
      {ok && run.workflowId ? (
        <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <ReviewsPanel workflowId={run.workflowId} />
        </div>
      ) : null}
    </div>
  );
}
