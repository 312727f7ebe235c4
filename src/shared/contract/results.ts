import { z } from 'zod';

/** What a workflow service may report: the end of a run, or (`running`) a progress message. */
const RESULT_STATUSES = ['completed', 'failed', 'running'] as const;

/** File types a workflow may send back as `file_data` (or a multipart file part). */
export const RESULT_FILE_EXTENSIONS = ['pdf', 'csv', 'xlsx', 'txt', 'json', 'png', 'jpg', 'jpeg'] as const;

/**
 * POST /api/workflow-result, and the synchronous answer of a webhook call (there without the token).
 * `file_data` is base64; `file_url` must be http(s). Unknown extra fields are ignored.
 */
export const ZWorkflowResult = z.object({
  execution_id: z.uuid(),
  secret_token: z.string().min(1).max(512),
  status: z.enum(RESULT_STATUSES),
  output_type: z.string().max(50).nullish(),
  filename: z.string().max(1000).nullish(),
  file_url: z.string().max(4000).nullish(),
  file_data: z.string().nullish(),
  output_data: z.unknown().optional(),
  /** Optional reason of a `failed` result; `output_data.message` or `output_data.error` also serve. */
  error_message: z.string().max(5000).nullish(),
});
export type TWorkflowResult = z.infer<typeof ZWorkflowResult>;

/** The same fields in a webhook's synchronous answer, where no token is needed. */
export const ZSyncWorkflowResult = ZWorkflowResult.omit({ execution_id: true, secret_token: true }).extend({
  status: z.enum(['completed', 'failed']),
});
export type TSyncWorkflowResult = z.infer<typeof ZSyncWorkflowResult>;

export const ZWorkflowResultAck = z.object({
  ok: z.literal(true),
  /** The run's status after this call. */
  status: z.enum(['pending', 'running', 'completed', 'failed', 'expired']),
});
export type TWorkflowResultAck = z.infer<typeof ZWorkflowResultAck>;
