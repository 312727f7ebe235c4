import { MailWarning, ShieldCheck, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { pickLanguage } from '#shared/contract/common';
import type { TPublicWorkflowDetail } from '#shared/contract/workflows';
import { ResendVerificationButton } from '#web/components/resend-verification-button';
import { BackButton } from '#web/components/ui/link-button';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/toast';
import { currentLanguage } from '#web/i18n';
import { ApiError } from '#web/lib/api-client';
import { useMe } from '#web/lib/session';
import { useCompleteExecution } from './api/complete-execution';
import { hasEnded } from './api/get-execution';
import { HealthSummary } from '#web/components/workflow-health/health-summary';
import { usePublicWorkflow } from './api/get-public-workflow';
import { useStartExecution } from './api/start-execution';
import { useStartTestRun, useTestRunWorkflow } from './api/test-run';
import { ChatScreen } from './chat-screen';
import { InsufficientCreditsDialog } from './insufficient-credits-dialog';
import type { SurveyResponse } from './lib/survey-answers';
import { prefillAnswers, prefillFromState, savedFromState } from './lib/prefill';
import { runInterfaceOf } from './lib/run-interface';
import { ProgressScreen } from './progress-screen';
import { NotShownPanel, StatePanel } from './state-panel';
import { SurveyForm } from './survey-form';
import { useFollowExecution } from './use-follow-execution';
import { useConversationSoFar } from './api/get-execution-detail';
import { errorMessage } from '#web/lib/error-key';
import { ENDED_STATE } from './lib/ended-state';

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

/**
 * The execute screen. With `test`, an admin's test run (decision 147): any workflow whatever its state, read
 * and opened through the admin's routes, charged to no one; everything after the opening is the same run.
 */
export default function ExecutePage({ test = false }: { test?: boolean }) {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('execute');
  const lng = i18n.resolvedLanguage ?? 'en';
  const publicWorkflow = usePublicWorkflow(id, !test);
  const testWorkflow = useTestRunWorkflow(id, test);
  const workflow = test ? testWorkflow : publicWorkflow;
  // "Run again with these answers" on a run's page arrives with that run's answers in the navigation state.
  const location = useLocation();
  const prefill = prefillFromState(location.state);
  const editing = savedFromState(location.state);
  const { data: me } = useMe();
  const { mutate: startWebRun } = useStartExecution();
  const { mutate: startTestRun } = useStartTestRun();
  const startRun = test ? startTestRun : startWebRun;
  const [executionId, setExecutionId] = useState<string | null>(null);
  const [problem, setProblem] = useState<StartProblem | null>(null);
  const complete = useCompleteExecution(executionId ?? '');
  const [submitted, setSubmitted] = useState(false);
  // Followed from the moment the answers go out: the complete call may wait for the workflow for up to 30 s,
  // and its progress messages should show meanwhile.
  const run = useFollowExecution(executionId, submitted);
  const isChat = workflow.data ? runInterfaceOf(workflow.data) === 'chat' : false;
  const soFar = useConversationSoFar(executionId, isChat);
  const navigate = useNavigate();
  const ended = Boolean(run && hasEnded(run));
  // Once the run has ended the address becomes the run's own page, so a reload shows this result again
  // instead of opening a new run; "execute again" comes back here for that.
  useEffect(() => {
    if (ended && executionId) {
      void navigate(`/my-workflows/${executionId}`, { replace: true, state: ENDED_STATE });
    }
  }, [ended, executionId, navigate]);

  // Opening a run charges nothing (the answers or a chat's first message do), and the server answers the
  // person's unsent run of this workflow again, so a reload, Back or Forward find the same run. Still one
  // start per visit, even when StrictMode runs effects twice.
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

  const back = test ? (
    <BackButton to="/admin/workflows">{t('test.back')}</BackButton>
  ) : (
    <BackButton to="/workflows">{t('backToWorkflows')}</BackButton>
  );

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

  // The result shows on the run's own page, where the effect above is taking the person: showing it here too
  // would let them start typing (a name for the answers, a review) into a screen about to be replaced.
  if (ended) return <Spinner label={t('loading')} className="min-h-[60vh]" />;

  // The answers (or a chat's first message) pay for the run: a balance spent meanwhile gets the same dialog
  // as at the start, and the form or conversation stays as it was.
  const creditsShort = (err: unknown): boolean => {
    if (!(err instanceof ApiError) || err.code !== 'INSUFFICIENT_CREDITS') return false;
    setProblem(creditsProblem(err, detail));
    return true;
  };

  const finish = (responses: SurveyResponse[]) => {
    setSubmitted(true);
    complete.mutate(
      { responses },
      {
        onError: (err) => {
          setSubmitted(false);
          if (creditsShort(err)) return;
          toast({
            title: runInterface === 'survey' ? t('complete.surveyError') : t('complete.chatError'),
            description: errorMessage(t, err),
            variant: 'destructive',
          });
        },
      },
    );
  };

  // A reopened chat continues where it was: its screen opens once the conversation so far is read (a failed
  // read starts from the welcome message; the server still has the conversation).
  if (runInterface === 'chat' && soFar.isPending) {
    return <Spinner label={t('loading')} className="min-h-[60vh]" />;
  }

  const interaction =
    runInterface === 'chat' ? (
      <ChatScreen
        earlier={soFar.data ?? []}
        workflowId={detail.id}
        executionId={executionId}
        title={title}
        welcome={pickLanguage(detail.welcomeMessage, lng)}
        demoAssistant={detail.demoAssistant}
        // No answers to send: the server makes them from the conversation it kept.
        onFinish={() => finish([])}
        canRetryFinish={complete.isError && !submitted}
        onCreditsShort={creditsShort}
      />
    ) : (
      <SurveyForm
        executionId={executionId}
        title={title}
        description={pickLanguage(detail.description, lng)}
        questions={detail.surveyQuestions}
        submitting={submitted}
        onSubmit={finish}
        initial={
          editing ? editing.answers : prefill ? prefillAnswers(detail.surveyQuestions, prefill) : undefined
        }
        editing={editing ? { id: editing.id, name: editing.name } : undefined}
        notice={prefill ? t('survey.prefilled') : undefined}
        refusal={complete.error}
        workflowId={detail.id}
      />
    );

  return (
    <>
      {test ? (
        <p
          role="note"
          data-testid="test-run-notice"
          className="mx-4 mt-4 mb-4 max-w-3xl rounded-lg border sm:mx-auto border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
        >
          {t('test.notice')}
        </p>
      ) : null}
      {submitted ? <ProgressScreen title={title} message={run?.progressMessage ?? null} /> : null}
      {/* Kept mounted while the answers are sent, so a failed send returns to the same conversation or form. */}
      <div hidden={submitted}>
        <HealthSummary
          health={detail.health}
          paused={detail.paused}
          className="mx-auto mb-3 max-w-3xl px-4"
        />
        {interaction}
      </div>
      {problem?.kind === 'credits' ? (
        <InsufficientCreditsDialog
          required={problem.required}
          balance={problem.balance}
          onClose={() => setProblem(null)}
        />
      ) : null}
    </>
  );
}
