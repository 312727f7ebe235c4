import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZIdParams, ZOk } from '#shared/contract/common.js';
import {
  ZSchedule,
  ZScheduleCreate,
  ZScheduleDetail,
  ZScheduleList,
  ZSchedulePreview,
  ZSchedulePreviewRequest,
  ZScheduleUpdate,
} from '#shared/contract/schedules.js';
import { errorAnswers } from '#server/lib/errors.js';
import { requireApiKey } from '#server/plugins/api-key.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  previewTiming,
  updateSchedule,
} from './service.js';

/** Who a schedule route acts for: the session's person, or an API key's owner. */
type Caller = (request: FastifyRequest, reply: FastifyReply) => Promise<string>;

const CREATE_DESCRIPTION =
  '`cron` is a 5-field expression (minute, hour, day of month, month, day of week) read in `timezone` (an IANA ' +
  "name; the account's own when left out, else UTC). Daylight saving keeps wall-clock times: a time that does " +
  'not exist on the change day runs at the next valid minute, a time that happens twice runs once. A cron that ' +
  'fires more often than `schedule_min_interval_minutes` (15 unless the operator lowered it) is refused, as is ' +
  'a schedule past `schedules_per_account` (20). Each due time starts one run of the saved answers, charged ' +
  'like any run (origin `schedule`); without enough credits it is skipped, and after 3 skips in a row the ' +
  'schedule pauses itself.';

/**
 * The same routes for both callers: the cookie routes at /api/schedules (with the preview the screen shows
 * before saving) and the public API's at /api/v1/schedules (a Bearer API key).
 */
function scheduleRoutes(app: App, deps: AppDeps, caller: Caller, api: boolean): void {
  const tags = [api ? 'public API' : 'schedules'];
  const security = api ? { security: [{ apiKey: [] }] } : {};
  const limited = api ? [429 as const] : [];
  const op = (name: string) => (api ? { operationId: name } : {});

  app.post(
    '',
    {
      schema: {
        tags,
        ...security,
        ...op('createSchedule'),
        summary: 'Schedule saved answers',
        description: CREATE_DESCRIPTION,
        body: ZScheduleCreate,
        response: { 201: ZSchedule, ...errorAnswers(400, 401, 403, 404, 409, ...limited) },
      },
    },
    async (request, reply) => {
      const userId = await caller(request, reply);
      return reply.status(201).send(await createSchedule(deps, userId, request.body));
    },
  );

  app.get(
    '',
    {
      schema: {
        tags,
        ...security,
        ...op('listSchedules'),
        summary: 'Your schedules, oldest first',
        response: { 200: ZScheduleList, ...errorAnswers(401, ...limited) },
      },
    },
    async (request, reply) => ({ schedules: await listSchedules(deps, await caller(request, reply)) }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        ...security,
        ...op('getSchedule'),
        summary: 'One of your schedules, with its latest due times (started runs and skips)',
        params: ZIdParams,
        response: { 200: ZScheduleDetail, ...errorAnswers(400, 401, 404, ...limited) },
      },
    },
    async (request, reply) => getSchedule(deps, await caller(request, reply), request.params.id),
  );

  app.patch(
    '/:id',
    {
      schema: {
        tags,
        ...security,
        ...op('updateSchedule'),
        summary: 'Change a schedule, pause it (`active: false`) or resume it (`active: true`)',
        description:
          'A new timing is checked as on creation. Resuming starts from the next time after now (times passed ' +
          'while paused are not run) and forgets earlier skips.',
        params: ZIdParams,
        body: ZScheduleUpdate,
        response: { 200: ZSchedule, ...errorAnswers(400, 401, 403, 404, ...limited) },
      },
    },
    async (request, reply) =>
      updateSchedule(deps, await caller(request, reply), request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        ...security,
        ...op('deleteSchedule'),
        summary: 'Delete a schedule (its runs stay in your run history)',
        params: ZIdParams,
        response: { 200: ZOk, ...errorAnswers(400, 401, 403, 404, ...limited) },
      },
    },
    async (request, reply) => {
      await deleteSchedule(deps, await caller(request, reply), request.params.id);
      return { ok: true as const };
    },
  );
}

/** Cookie routes, mounted at /api/schedules. */
export async function scheduleCookieRoutes(app: App, deps: AppDeps): Promise<void> {
  scheduleRoutes(app, deps, async (request) => (await requireUser(request)).id, false);

  app.post(
    '/preview',
    {
      schema: {
        tags: ['schedules'],
        summary: 'The next five times of a timing, checked as a new schedule is (nothing is stored)',
        body: ZSchedulePreviewRequest,
        response: { 200: ZSchedulePreview, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => {
      await requireUser(request);
      return previewTiming(deps, request.body);
    },
  );
}

/** The public API's schedules, mounted at /api/v1/schedules. */
export async function scheduleApiRoutes(app: App, deps: AppDeps): Promise<void> {
  scheduleRoutes(
    app,
    deps,
    async (request, reply) => (await requireApiKey(request, reply, deps)).user.id,
    true,
  );
}
