import { ArrowLeft, Paperclip, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { pickLanguage } from '#shared/contract/common';
import type { TExecutionDetail, TSentAnswer, TStoredFileAnswer } from '#shared/contract/executions';
import { BackButton, IconLink, LinkButton } from '#web/components/ui/link-button';
import { formatFileSize } from '#web/components/ui/file-meta';
import { RunStatusBadge } from '#web/components/ui/run-status-badge';
import { Spinner } from '#web/components/ui/spinner';
import { ApiError } from '#web/lib/api-client';
import { cn } from '#web/lib/utils';
import { hasEnded } from './api/get-execution';
import { useExecutionDetail } from './api/get-execution-detail';
import type { RunResponse } from './lib/chat-transcript';
import { endedStateOf } from './lib/ended-state';
import { notSubmittedText } from './lib/end-reason';
import type { RunAgainState } from './lib/prefill';
import { ResultOutput } from './result-output';
import { ResultScreen } from './result-screen';
import { RunFailure, RunLeftNotice } from './run-failure';
import { NotShownPanel } from './state-panel';

type StepTone = 'done' | 'waiting' | 'failed' | 'refund';
interface Step {
  key: string;
  label: string;
  at: string | null;
  tone: StepTone;
}

function formatTime(iso: string | null, lng: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(lng === 'es' ? 'es-ES' : 'en-US', {
    dateStyle: 'medium',
    timeStyle: 'medium',
  }).format(date);
}

/** The run's steps as far as it got: started, sent, then its result or its failure and the refund. */
function timelineOf(run: TExecutionDetail, t: (key: string) => string): Step[] {
  const steps: Step[] = [
    { key: 'started', label: t('run.timeline.started'), at: run.createdAt, tone: 'done' },
  ];
  if (run.dispatchedAt) {
    steps.push({ key: 'sent', label: t('run.timeline.sent'), at: run.dispatchedAt, tone: 'done' });
  }
  if (run.status === 'completed') {
    steps.push({ key: 'result', label: t('run.timeline.completed'), at: run.completedAt, tone: 'done' });
  } else if (run.status === 'failed' || run.status === 'expired') {
    const ended = run.endReason === 'not_submitted' ? 'notSubmitted' : run.status;
    steps.push({ key: 'ended', label: t(`run.timeline.${ended}`), at: run.completedAt, tone: 'failed' });
    if (run.creditsRefunded > 0) {
      steps.push({ key: 'refund', label: t('run.timeline.refunded'), at: run.completedAt, tone: 'refund' });
    }
  } else {
    steps.push({ key: 'waiting', label: t('run.timeline.waiting'), at: null, tone: 'waiting' });
  }
  return steps;
}

const DOT: Record<StepTone, string> = {
  done: 'bg-green-600',
  waiting: 'bg-slate-400',
  failed: 'bg-red-600',
  refund: 'bg-sky-600',
};

/** One run, for its owner to come back to: what happened when, what it cost, what was sent and what came back. */
const isFileAnswer = (answer: TSentAnswer['answer']): answer is TStoredFileAnswer =>
  typeof answer === 'object' && !Array.isArray(answer);

export default function RunPage() {
  const { executionId = '' } = useParams();
  const { t, i18n } = useTranslation('execute');
  const lng = i18n.resolvedLanguage === 'es' ? 'es' : 'en';
  const query = useExecutionDetail(executionId);
  const run = query.data;
  // The execute page hands over here once its run ends (the address becomes the run's own): the result is
  // shown as it was there, and again on a reload, since the browser keeps the navigation state.
  const endedHere = endedStateOf(useLocation().state);

  const back = <BackButton to="/my-workflows">{t('run.back')}</BackButton>;

  if (query.isPending) return <Spinner label={t('run.loading')} className="min-h-[60vh]" />;
  if (!run) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return <NotShownPanel texts={notFound ? 'run.notFound' : 'run.loadError'} actions={back} />;
  }

  const title = run.workflowName ? pickLanguage(run.workflowName, lng) : t('run.workflowDeleted');
  if (endedHere && hasEnded(run)) {
    return <ResultScreen run={run} title={title} interactionType={run.interactionType} />;
  }
  const leftText = notSubmittedText(t, run);
  const steps = timelineOf(run, t);
  const answers = run.answers ?? [];
  const isChat = run.interactionType === 'chatbot';
  const canRunAgain = run.interactionType === 'survey' && run.workflowId !== null && answers.length > 0;
  // A file answer starts empty again: the next run gets its own upload.
  const runAgainState: RunAgainState = {
    prefill: answers.map((a) =>
      isFileAnswer(a.answer) ? { question: a.question, answer: '' } : a,
    ) as RunResponse[],
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <IconLink to="/my-workflows" icon={ArrowLeft}>
        {t('run.back')}
      </IconLink>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 break-words text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
        <RunStatusBadge status={run.status} />
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {t('run.subtitle', { date: formatTime(run.createdAt, lng) ?? '' })}
        {' · '}
        <span data-testid="run-origin">{t(`runOrigin.${run.origin}`, { ns: 'common' })}</span>
      </p>

      <dl className="mt-6 grid grid-cols-2 gap-3" data-testid="run-credits">
        <div className="rounded-xl border border-slate-200 bg-white p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-700">{t('run.charged')}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{run.creditsUsed}</dd>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-700">{t('run.refunded')}</dt>
          <dd
            className={cn(
              'mt-1 text-2xl font-semibold tabular-nums',
              run.creditsRefunded > 0 ? 'text-sky-800' : 'text-slate-900',
            )}
            data-testid="run-refunded"
          >
            {run.creditsRefunded}
          </dd>
        </div>
      </dl>

      <section aria-labelledby="run-timeline-title" className="mt-8">
        <h2 id="run-timeline-title" className="text-lg font-semibold text-slate-900">
          {t('run.timeline.title')}
        </h2>
        <ol className="mt-3 space-y-0" data-testid="run-timeline">
          {steps.map((step, index) => (
            <li
              key={step.key}
              className="relative flex gap-3 pb-5 last:pb-0"
              data-testid={`run-step-${step.key}`}
            >
              {index < steps.length - 1 ? (
                <span className="absolute left-[5px] top-4 h-full w-0.5 bg-slate-200" aria-hidden="true" />
              ) : null}
              <span
                className={cn('relative mt-1.5 size-3 shrink-0 rounded-full', DOT[step.tone])}
                aria-hidden="true"
              />
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{step.label}</p>
                {step.at ? (
                  <p className="text-sm text-slate-700">
                    <time dateTime={step.at}>{formatTime(step.at, lng)}</time>
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      </section>

      {leftText ? (
        <div className="mt-6">
          <RunLeftNotice text={leftText} testId="run-not-submitted" />
        </div>
      ) : run.errorCode || run.errorMessage ? (
        <div className="mt-6">
          <RunFailure run={run} testId="run-error" />
        </div>
      ) : null}

      <section aria-labelledby="run-answers-title" className="mt-8">
        <h2 id="run-answers-title" className="text-lg font-semibold text-slate-900">
          {isChat ? t('run.conversation') : t('run.answers')}
        </h2>
        {answers.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">{t('run.noAnswers')}</p>
        ) : (
          <dl
            className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white"
            data-testid="run-answers"
          >
            {answers.map((item, index) => (
              <div key={index} className="px-4 py-3">
                <dt className="text-sm font-medium text-slate-700">
                  {isChat
                    ? t('run.assistantSaid', { text: item.question })
                    : item.question || t('run.noQuestion')}
                </dt>
                <dd className="mt-1 whitespace-pre-wrap break-words text-slate-900">
                  {isFileAnswer(item.answer) ? (
                    <span className="inline-flex items-center gap-2" data-testid="run-file-answer">
                      <Paperclip className="size-4 shrink-0 text-slate-600" aria-hidden="true" />
                      <span className="break-all">{item.answer.filename}</span>
                      <span className="text-sm text-slate-700">
                        ({formatFileSize(item.answer.size, lng)})
                      </span>
                    </span>
                  ) : Array.isArray(item.answer) ? (
                    item.answer.length > 0 ? (
                      item.answer.join(', ')
                    ) : (
                      t('run.noneChosen')
                    )
                  ) : (
                    item.answer || t('run.empty')
                  )}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      {run.outputType || run.outputData != null ? (
        <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
          <ResultOutput run={run} />
        </div>
      ) : null}

      <div className="mt-8 flex flex-col-reverse gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:justify-end">
        {back}
        {canRunAgain ? (
          <LinkButton
            to={`/workflows/${run.workflowId}/execute`}
            state={runAgainState}
            icon={RotateCcw}
            data-testid="run-again"
          >
            {t('run.again')}
          </LinkButton>
        ) : null}
      </div>
    </div>
  );
}
