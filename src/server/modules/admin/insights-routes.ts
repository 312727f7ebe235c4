import type { FastifyReply } from 'fastify';
import {
  ZInsights,
  ZInsightsQuery,
  ZLedgerExportQuery,
  ZRunsExportQuery,
} from '#shared/contract/insights.js';
import { errorAnswers } from '#server/lib/errors.js';
import { requireAdmin } from '#server/plugins/session.js';
import { contentDisposition } from '#server/modules/results/service.js';
import type { App, AppDeps } from '#server/types.js';
import { exportLedger, exportRuns, type Export } from './exports.js';
import { getInsights } from './insights.js';

const errors = errorAnswers(400, 401, 403);
const tags = ['admin'];

function sendCsv(reply: FastifyReply, file: Export) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', contentDisposition('attachment', file.filename))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.body);
}

/** Insights and the CSV exports. Mounted at /api/admin (guarded). */
export async function adminInsightsRoutes(app: App, deps: AppDeps): Promise<void> {
  app.get(
    '/insights',
    {
      schema: {
        tags,
        summary:
          'Runs, customers, credits and purchases for a period, in total, per chart bar and per workflow',
        description: 'Days are UTC days. Test runs are left out. A custom range spans at most 366 days.',
        querystring: ZInsightsQuery,
        response: { 200: ZInsights, ...errors },
      },
    },
    async (request) => getInsights(deps.db, request.query, deps.now()),
  );
  app.get(
    '/exports/runs',
    {
      schema: {
        tags,
        summary: "Runs of a date range as CSV, with the run list's filters (audited)",
        querystring: ZRunsExportQuery,
        response: { ...errors },
      },
    },
    async (request, typedReply) => {
      // A CSV answer has no JSON schema; the plain reply streams it.
      const reply: FastifyReply = typedReply;
      const admin = await requireAdmin(request);
      return sendCsv(reply, await exportRuns(deps.db, admin.id, request.query));
    },
  );
  app.get(
    '/exports/ledger',
    {
      schema: {
        tags,
        summary: "Ledger rows of a date range as CSV, with the ledger list's filters (audited)",
        querystring: ZLedgerExportQuery,
        response: { ...errors },
      },
    },
    async (request, typedReply) => {
      const reply: FastifyReply = typedReply;
      const admin = await requireAdmin(request);
      return sendCsv(reply, await exportLedger(deps.db, admin.id, request.query));
    },
  );
}
