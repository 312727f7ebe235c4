import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorAnswers } from '#server/lib/errors.js';
import type { App, AppDeps } from '#server/types.js';
import { requireUser } from '#server/plugins/session.js';
import { sendResultFile } from './download.js';

const ZResultParams = z.object({ executionId: z.uuid() });
const ZResultQuery = z.object({ inline: z.enum(['0', '1']).optional() });

/** GET /result/{executionId}. Mounted at the root. */
export async function resultRoutes(app: App, deps: AppDeps): Promise<void> {
  app.get(
    '/result/:executionId',
    {
      schema: {
        tags: ['executions'],
        summary: "Download a run's result file (its owner or an admin)",
        description:
          'Streams the file as an attachment (an image inline with `inline=1`). One byte range (`Range: ' +
          'bytes=a-b`) answers 206; a range past the end 416. 410 once the file has expired.',
        params: ZResultParams,
        querystring: ZResultQuery,
        response: { ...errorAnswers(400, 401, 404, 410, 416) },
      },
    },
    async (request, typedReply) => {
      // A file answer has no JSON schema; the plain reply sends its bytes.
      const reply: FastifyReply = typedReply;
      const user = await requireUser(request);
      return sendResultFile(deps, reply, user, request.params.executionId, {
        inline: request.query.inline === '1',
        range: request.headers.range,
      });
    },
  );
}
