import { MailWarning, ShieldCheck, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { pickLanguage } from '#shared/contract/common';
import type { TPublicWorkflowDetail } from '#shared/contract/workflows';
import { ResendVerificationButton } from '#web/components/resend-verification-button';
import { BackButton } from '#web/components/ui/link-button';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/toast';
import { currentLanguage } from '#web/i18n';
import { ApiError } from '#web/lib/api';
import { useMe } from '#web/lib/session';
import { useCompleteExecution } from './api/complete-execution';
import { hasEnded } from './api/get-execution';
import { usePublicWorkflow } from './api/get-public-workflow';
import { useStartExecution } from './api/start-execution';
import { ChatScreen } from './chat-screen';
import { InsufficientCreditsDialog } from './insufficient-credits-dialog';
import type { SurveyResponse } from './lib/survey-answers';
import { prefillAnswers, prefillFromState } from './lib/prefill';
import { runInterfaceOf } from './lib/run-interface';
import { ProgressScreen } from './progress-screen';
import { ResultScreen } from './result-screen';
import { NotShownPanel, StatePanel } from './state-panel';
import { SurveyForm } from './survey-form';
import { useFollowExecution } from './use-follow-execution';
import { errorMessage } from '#web/lib/error-key';

type StartProblem =
  | { kind: 'credits'; required: number; balance: number | null }
  | { kind: 'unverified' }
  | { kind: 'error'; message: string };

/** Reads the 402 answer's details; the workflow's own price stands in when the server says nothing. */
function creditsProblem(err: ApiError, workflow: TPublicWorkflowDetail): StartProblem {
  const details = (err.body as { details?: { required?: unknown; balance?: unknown } } | null)?.details;
  const required =
    typeof details?.required === 'number' ? details.required : workflow.creditsPerExecution || 1;
  const balance = typeof details?.balance === 'number' ? details.balance : null;
  return { kind: 'credits', required, balance };
}

export default function ExecutePage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('execute');
  const lng = i18n.resolvedLanguage ?? 'en';
  const workflow = usePublicWorkflow(id);
  // "Run again with these answers" on a run's page arrives with that run's answers in the navigation state.
  const prefill = prefillFromState(useLocation().state);
  const { data: me } = useMe();
  const { mutate: startRun } = useStartExecution();
  const [executionId, setExecutionId] = useState<string | null>(null);
  const [problem, setProblem] = useState<StartProblem | null>(null);
  const complete = useCompleteExecution(executionId ?? '');
  const [submitted, setSubmitted] = useState(false);
  // Followed from the moment the answers go out: the complete call may wait for the workflow for up to 30 s,
  // and its progress messages should show meanwhile.
  const run = useFollowExecution(executionId, submitted);

  // A run costs credits: start exactly one per visit, even when StrictMode runs effects twice.
  const startedFor = useRef<string | null>(null);
  const detail = workflow.data;
  const runInterface = detail ? runInterfaceOf(detail) : null;
  useEffect(() => {
    // A workflow with neither chat nor survey cannot be run: do not charge for it.
    if (!detail || !runInterface || startedFor.current === detail.id) return;
    startedFor.current = detail.id;
    startRun(
      { workflowId: detail.id, language: currentLanguage() },
      {
        onSuccess: ({ executionId: started }) => setExecutionId(started),
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'INSUFFICIENT_CREDITS') {
            setProblem(creditsProblem(err, detail));
            return;
          }
          // Runs wait for a verified address (nothing was charged): say what to do.
          if (err instanceof ApiError && err.code === 'EMAIL_NOT_VERIFIED') {
            setProblem({ kind: 'unverified' });
            return;
          }
          const message = errorMessage(t, err);
          setProblem({ kind: 'error', message });
          toast({ title: t('start.errorTitle'), description: message, variant: 'destructive' });
        },
      },
    );
  }, [detail, runInterface, startRun, t]);

  const back = <BackButton to="/workflows">{t('backToWorkflows')}</BackButton>;

  if (workflow.isPending) return <Spinner label={t('loading')} className="min-h-[60vh]" />;
  if (!detail) {
    // A malformed id is refused as a bad request before any lookup: for the person it is a missing workflow
    // all the same, and waiting would not help.
    const notFound =
      !(workflow.error instanceof ApiError) || workflow.error.status === 404 || workflow.error.status === 400;
    return <NotShownPanel texts={notFound ? 'notFound' : 'fetchError'} actions={back} />;
  }

  const title = pickLanguage(detail.name, lng);
  if (!runInterface) {
    return (
      <StatePanel
        tone="danger"
        icon={<TriangleAlert className="size-7" aria-hidden="true" />}
        title={t('noInterface.title')}
        actions={back}
      >
        {t('noInterface.body')}
      </StatePanel>
    );
  }
  if (problem?.kind === 'unverified') {
    return (
      <StatePanel
        tone="danger"
        icon={<MailWarning className="size-7" aria-hidden="true" />}
        title={t('unverified.title')}
        actions={
          <>
            {me ? <ResendVerificationButton email={me.email} variant="primary" size="md" /> : null}
            {back}
          </>
        }
      >
        <span role="alert" data-testid="start-unverified">
          {t('unverified.body', { email: me?.email ?? '' })}
        </span>
      </StatePanel>
    );
  }
  if (problem?.kind === 'error') {
    return (
      <StatePanel
        tone="danger"
        icon={<TriangleAlert className="size-7" aria-hidden="true" />}
        title={t('start.errorTitle')}
        actions={back}
      >
        <span data-testid="start-error">{problem.message}</span>
      </StatePanel>
    );
  }
  if (!executionId) {
    return (
      <>
        <StatePanel
          busy
          icon={<ShieldCheck className="size-7" aria-hidden="true" />}
          title={t('validating.title')}
        >
          {t('validating.body', { name: title })}
        </StatePanel>
        {problem?.kind === 'credits' ? (
          <InsufficientCreditsDialog required={problem.required} balance={problem.balance} />
        ) : null}
      </>
    );
  }

  if (run && hasEnded(run)) return <ResultScreen run={run} title={title} />;

  const finish = (responses: SurveyResponse[]) => {
    setSubmitted(true);
    complete.mutate(
      { responses },
      {
        onError: (err) => {
          setSubmitted(false);
          toast({
            title: runInterface === 'survey' ? t('complete.surveyError') : t('complete.chatError'),
            description: errorMessage(t, err),
            variant: 'destructive',
          });
        },
      },
    );
  };

  const interaction =
    runInterface === 'chat' ? (
      <ChatScreen
        workflowId={detail.id}
        executionId={executionId}
        title={title}
        welcome={pickLanguage(detail.welcomeMessage, lng)}
        // No answers to send: the server makes them from the conversation it kept.
        onFinish={() => finish([])}
        canRetryFinish={complete.isError && !submitted}
      />
    ) : (
      <SurveyForm
        executionId={executionId}
        title={title}
        description={pickLanguage(detail.description, lng)}
        questions={detail.surveyQuestions}
        submitting={submitted}
        onSubmit={finish}
        initial={prefill ? prefillAnswers(detail.surveyQuestions, prefill) : undefined}
        notice={prefill ? t('survey.prefilled') : undefined}
      />
    );

  return (
    <>
      {submitted ? <ProgressScreen title={title} message={run?.progressMessage ?? null} /> : null}
      {/* Kept mounted while the answers are sent, so a failed send returns to the same conversation or form. */}
      <div hidden={submitted}>{interaction}</div>
    </>
  );
}
