import { useTranslation } from 'react-i18next';
import type { TExecution } from '#shared/contract/executions';
import { interpolate } from '#shared/i18n/errors';
import { RUN_FAILURE_TEXTS } from '#shared/i18n/run-failures';

/**
 * Why a run failed or expired, in the reader's language: the plain explanation its code stands for, then what
 * the workflow itself said, if it said anything. The server's technical detail is for admins and never shows
 * here. A run without a code (none should be left) shows what the server sent.
 */
export function RunFailure({ run, testId }: { run: TExecution; testId: string }) {
  const { t, i18n } = useTranslation('execute');
  const texts = RUN_FAILURE_TEXTS[(i18n.resolvedLanguage ?? 'en').startsWith('es') ? 'es' : 'en'];
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 p-4 text-left text-sm text-red-800"
    >
      <p className="font-semibold">{t(`result.status.${run.status}`)}</p>
      <div className="mt-1 break-words" data-testid={testId} data-error-code={run.errorCode ?? undefined}>
        <p>{run.errorCode ? texts[run.errorCode] : run.errorMessage || t('result.noErrorMessage')}</p>
        {run.workflowMessage ? (
          <p className="mt-1 whitespace-pre-line">
            {interpolate(texts.workflowSaid, { message: run.workflowMessage })}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A run closed before its answers were sent: not a failure of the workflow, so it reads as a notice, with the
 * text notSubmittedText chose (nothing charged, or a left chat's charge standing).
 */
export function RunLeftNotice({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation('execute');
  return (
    <div
      role="status"
      className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-left text-sm text-slate-800"
    >
      <p className="font-semibold">{t('result.notSubmittedTitle')}</p>
      <p className="mt-1 break-words" data-testid={testId}>
        {text}
      </p>
    </div>
  );
}
