import { ZIdParams } from '#shared/contract/common.js';
import {
  ZNotificationList,
  ZNotificationListQuery,
  ZNotificationSettings,
  ZUnreadCount,
} from '#shared/contract/notifications.js';
import { Closing } from '#server/lib/closing.js';
import { ZErrorBody } from '#shared/contract/errors.js';
import { errorAnswers } from '#server/lib/errors.js';
import { requireSession, requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { sessionIsLive } from '../auth/service.js';
import { streamBell } from './events.js';
import {
  getNotificationSettings,
  listNotifications,
  markAllRead,
  markRead,
  setNotificationSettings,
  unreadCount,
} from './bell.js';

/** The bell and the person's notification settings (decision 142). Mounted at /api/notifications. */
export async function notificationRoutes(app: App, deps: AppDeps): Promise<void> {
  const closing = new Closing(app);
  const tags = ['notifications'];

  app.get(
    '',
    {
      schema: {
        tags,
        summary: "The bell's notifications, newest first, with the unread count",
        querystring: ZNotificationListQuery,
        response: { 200: ZNotificationList, ...errorAnswers(400, 401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return listNotifications(deps.db, user.id, request.query);
    },
  );

  app.get(
    '/unread-count',
    {
      schema: {
        tags,
        summary: 'How many notifications under the bell are unread',
        response: { 200: ZUnreadCount, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { unread: await unreadCount(deps.db, user.id) };
    },
  );

  app.post(
    '/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark one notification read; answers the unread count left',
        params: ZIdParams,
        response: { 200: ZUnreadCount, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { unread: await markRead(deps.db, user.id, request.params.id, deps.now()) };
    },
  );

  app.post(
    '/read-all',
    {
      schema: {
        tags,
        summary: 'Mark every notification read',
        response: { 200: ZUnreadCount, ...errorAnswers(401, 403) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { unread: await markAllRead(deps.db, user.id, deps.now()) };
    },
  );

  app.get(
    '/events',
    {
      schema: {
        tags,
        summary: 'Server-sent events: the unread count (event `unread`) when it opens and on every change',
        description:
          'Counts against `max_event_streams_per_user` with the run streams (429 beyond); a quiet stream gets ' +
          'a comment every 15 s and closes after 20 minutes (EventSource reconnects by itself).',
        response: {
          ...errorAnswers(401),
          429: ZErrorBody.describe('Too many open event streams (`max_event_streams_per_user`)'),
        },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      await closing.during((signal) =>
        streamBell(
          deps,
          user.id,
          { credential: `session:${sessionId}`, isLive: () => sessionIsLive(deps.db, sessionId) },
          request,
          reply,
          signal,
        ),
      );
    },
  );

  app.get(
    '/settings',
    {
      schema: {
        tags,
        summary: 'What you are told of, by mail and under the bell, and your low-balance threshold',
        response: { 200: ZNotificationSettings, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return getNotificationSettings(deps.db, user.id);
    },
  );

  app.put(
    '/settings',
    {
      schema: {
        tags,
        summary: 'Replace what you are told of and your low-balance threshold (null: off)',
        body: ZNotificationSettings,
        response: { 200: ZNotificationSettings, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return setNotificationSettings(deps.db, user.id, request.body);
    },
  );
}
