import type { TLanguage } from '../contract/common.js';
import type { TRunFailureCode } from '../contract/executions.js';
import { interpolate } from './errors.js';

/**
 * Why a run did not complete, worded for the person who ran it: what happened in plain words, never an HTTP
 * status or a network error (those stay in the run's `error_message` for admins). A workflow that reports
 * its own failure writes its message for the person (it is sent the run's language), so that message follows
 * as it was written (`workflowSaid`). The web shows these in the reader's language; the API's and MCP's
 * `errorMessage` is the run's language, which is the caller's. Every such run gives its credits back, which
 * the screens already say next to this text.
 */
const en = {
  timeout: 'The workflow did not send a result in time.',
  workflow_failed: 'The workflow could not finish your request.',
  workflow_refused: "The workflow's service did not accept the request.",
  workflow_unreachable:
    "The workflow's service could not be reached. It may be down for a while: try again later.",
  webhook_blocked:
    'This workflow is not set up correctly, so it could not be run. The administrators can see why.',
  result_refused:
    'The workflow sent a result that could not be accepted (for example a file that is too large).',
  workflowSaid: 'The workflow said: {{message}}',
} as const satisfies Record<TRunFailureCode | 'workflowSaid', string>;

type RunFailureKey = TRunFailureCode | 'workflowSaid';

const es: Record<RunFailureKey, string> = {
  timeout: 'El workflow no envió un resultado a tiempo.',
  workflow_failed: 'El workflow no pudo completar tu solicitud.',
  workflow_refused: 'El servicio del workflow no aceptó la solicitud.',
  workflow_unreachable:
    'No se pudo contactar con el servicio del workflow. Puede que no esté disponible durante un rato: inténtalo más tarde.',
  webhook_blocked:
    'Este workflow no está bien configurado, así que no se pudo ejecutar. Los administradores pueden ver el motivo.',
  result_refused:
    'El workflow envió un resultado que no se pudo aceptar (por ejemplo, un archivo demasiado grande).',
  workflowSaid: 'El workflow indicó: {{message}}',
};

export const RUN_FAILURE_TEXTS: Record<TLanguage, Record<RunFailureKey, string>> = { en, es };

/** A run's failure in one language, with what the workflow said about it when it said something. */
export function runFailureText(
  language: TLanguage,
  code: TRunFailureCode,
  workflowMessage: string | null = null,
): string {
  const texts = RUN_FAILURE_TEXTS[language];
  if (!workflowMessage) return texts[code];
  return `${texts[code]} ${interpolate(texts.workflowSaid, { message: workflowMessage })}`;
}

/**
 * What the workflow itself said about its failure: a failed run's `error_message` when the workflow reported
 * the failure (every other code's message is the server's technical detail, for admins only).
 */
export function workflowMessageOf(code: TRunFailureCode | null, errorMessage: string | null): string | null {
  return code === 'workflow_failed' && errorMessage ? errorMessage : null;
}
