/**
 * Every TanStack Query key the web client uses, in one place, so a query and the mutations that refresh it
 * cannot drift apart. Keys match by prefix: invalidating `admin.all` refreshes every admin list, stats and
 * audit page; invalidating `transactions()` refreshes every page of the history.
 */
export const queryKeys = {
  /** The signed-in user (or null). */
  me: ['me'] as const,

  /** The catalogue; admin changes to workflows and a finished run refresh it. */
  publicWorkflows: () => ['public-workflows'] as const,
  /** One workflow as the execute screen shows it. */
  publicWorkflow: (id: string) => ['public-workflow', id] as const,

  /** Every page of a workflow's reviews (the prefix a review's change invalidates). */
  reviews: (workflowId: string) => ['reviews', workflowId] as const,
  reviewsPage: (workflowId: string, limit: number) => ['reviews', workflowId, limit] as const,

  /** The signed-in user's run history: anything that ends a run refreshes it. */
  executions: () => ['executions'] as const,
  /** One run (not under `executions()`: its own path, fed by the event stream). */
  execution: (id: string) => ['execution', id] as const,
  /** One run with its page's extra facts; kept apart from `execution(id)`, which the stream feeds a leaner shape. */
  executionDetail: (id: string) => ['execution-detail', id] as const,

  /** Every page of the user's credit history (the prefix a purchase invalidates). */
  transactions: () => ['transactions'] as const,
  /** One page of the credit history. */
  transactionsPage: (params: { filter: string; limit: number }) => ['transactions', params] as const,
  /** The user's monthly plan. */
  subscription: () => ['subscription'] as const,
  /** The plans on sale. */
  plans: () => ['plans'] as const,
  /** The person's saved answers (a run started from them refreshes the list: its last run). */
  savedInputs: () => ['saved-inputs'] as const,
  /** The person's API keys (never the keys themselves). */
  apiKeys: () => ['api-keys'] as const,
  /** The apps the person connected with OAuth. */
  connectedApps: () => ['connected-apps'] as const,
  /** An app's pending OAuth request, on the consent page. */
  oauthRequest: (uid: string) => ['oauth-request', uid] as const,
  webhooks: () => ['webhooks'] as const,
  webhookDeliveries: (id: string) => ['webhooks', id, 'deliveries'] as const,
  /** The account's signed-in devices. */
  sessions: () => ['sessions'] as const,
  /** The person's schedules (one prefix for the list and each schedule, refreshed by any change). */
  schedules: () => ['schedules'] as const,
  /** The next times of a timing being edited (not under `schedules()`: nothing stored changes them). */
  schedulePreview: (request: unknown) => ['schedule-preview', request] as const,
  /** The bell's unread count, fed by its event stream. */
  unreadNotifications: () => ['notifications-unread'] as const,
  /** The bell's list (refreshed whenever the count changes). */
  notifications: () => ['notifications'] as const,
  /** What the person is told of, and the low-balance threshold. */
  notificationSettings: () => ['notification-settings'] as const,
  /** What the server lets the browser know of its configuration. */
  publicConfig: () => ['public-config'] as const,

  admin: {
    /** Every admin query starts with this key, so a mutation can refresh the whole panel. */
    all: ['admin'] as const,
    stats: () => ['admin', 'stats'] as const,
    config: () => ['admin', 'config'] as const,
    /** Every page of the audit log. */
    auditAll: () => ['admin', 'audit'] as const,
    audit: (params: object) => ['admin', 'audit', params] as const,
    users: (params: object) => ['admin', 'users', params] as const,
    /** A user's connected OAuth apps. */
    connectedApps: (userId: string) => ['admin', 'connected-apps', userId] as const,
    workflows: (params: object) => ['admin', 'workflows', params] as const,
    workflow: (id: string) => ['admin', 'workflow', id] as const,
    workflowSecret: (id: string) => ['admin', 'workflow-secret', id] as const,
    workflowVersions: (id: string) => ['admin', 'workflow-versions', id] as const,
    workflowVersion: (id: string, version: number) => ['admin', 'workflow-versions', id, version] as const,
    testRunWorkflow: (id: string) => ['admin', 'test-run-workflow', id] as const,
    workflowReviews: (id: string, params: object) => ['admin', 'workflow-reviews', id, params] as const,
    executions: (params: object) => ['admin', 'executions', params] as const,
    credits: (params: object) => ['admin', 'credits', params] as const,
    insights: (params: object) => ['admin', 'insights', params] as const,
    /** Every page of the outbox and every mail's detail. */
    emailsAll: () => ['admin', 'emails'] as const,
    emails: (params: object) => ['admin', 'emails', params] as const,
    email: (id: string | null) => ['admin', 'emails', 'detail', id] as const,
    /** A run's detail with its delivery log (decision 144). */
    run: (id: string) => ['admin', 'run', id] as const,
    workflowHealth: (id: string) => ['admin', 'workflow-health', id] as const,
    incidents: () => ['admin', 'incidents'] as const,
    alertPreference: () => ['admin', 'alert-preference'] as const,
  },
} as const;
