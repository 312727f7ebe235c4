import { z } from 'zod';

/**
 * The call the app makes to a workflow's webhook, as a workflow service reads it (docs/webhook-contract.md).
 * The demo services parse it themselves, like any outside service would.
 */
/** A file question's answer: the file's facts and a signed link to its bytes (valid while the run works). */
const ZFileAnswer = z.object({
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  url: z.url({ protocol: /^https?$/ }),
});
export type TFileAnswer = z.infer<typeof ZFileAnswer>;

export const ZWebhookCall = z.object({
  workflow_id: z.uuid(),
  execution_id: z.uuid(),
  user_id: z.uuid(),
  secret_token: z.string().min(1),
  responses: z
    .array(
      z.object({
        question: z.string(),
        answer: z.union([z.string(), z.array(z.string()), ZFileAnswer]),
      }),
    )
    .max(500),
  language: z.enum(['es', 'en']),
  callback_url: z.url({ protocol: /^https?$/ }),
});
export type TWebhookCall = z.infer<typeof ZWebhookCall>;

/** A result, as a synchronous answer or in a callback (then with execution_id and secret_token). */
export const ZDemoResult = z.object({
  status: z.enum(['completed', 'failed', 'running']),
  output_type: z.enum(['text', 'image', 'video', 'file']).optional(),
  filename: z.string().optional(),
  file_data: z.string().optional(),
  output_data: z.record(z.string(), z.unknown()).optional(),
  error_message: z.string().optional(),
});
export type TDemoResult = z.infer<typeof ZDemoResult>;

export const ZReceived = z.object({ received: z.literal(true) });
