import type { TFunction } from 'i18next';
import type { TExecution } from '#shared/contract/executions';

/**
 * What a run closed before its answers were sent says, in the reader's language (the server gives the
 * reason as a code, never as text): nothing was charged, or, for a chat left after its assistant answered,
 * that the charge stands.
 */
export function notSubmittedText(
  t: TFunction<'execute'>,
  run: Pick<TExecution, 'endReason' | 'creditsUsed' | 'creditsRefunded'>,
): string | null {
  if (run.endReason !== 'not_submitted') return null;
  return run.creditsUsed - run.creditsRefunded > 0
    ? t('result.notSubmittedCharged')
    : t('result.notSubmitted');
}
