import { CREDITS_PATHS } from '#shared/contract/credit-paths';

/**
 * Every TanStack Query key the web client uses, in one place, so a query and the mutations that refresh it
 * cannot drift apart. Keys match by prefix: invalidating `admin.all` refreshes every admin list, stats and
 * audit page; invalidating `transactions()` refreshes every page of the history.
 *
 * A key whose first element is an API path is also what the default query function GETs (lib/query-client).
 */
export const queryKeys = {
  /** The signed-in user (or null). */
  me: ['/api/auth/me'] as const,

  /** The catalogue; admin changes to workflows and a finished run refresh it. */
  publicWorkflows: () => ['/api/workflows/public'] as const,
  /** One workflow as the execute screen shows it. */
  publicWorkflow: (id: string) => [`/api/workflows/public/${id}`] as const,

  /** Every page of a workflow's reviews (the prefix a review's change invalidates). */
  reviews: (workflowId: string) => ['reviews', workflowId] as const,
  reviewsPage: (workflowId: string, limit: number) => ['reviews', workflowId, limit] as const,

  /** The signed-in user's run history: anything that ends a run refreshes it. */
  executions: () => ['/api/executions'] as const,
  /** One run (not under `executions()`: its own path, fed by the event stream). */
  execution: (id: string) => [`/api/executions/${id}`] as const,
  /** One run with its page's extra facts; kept apart from `execution(id)`, which the stream feeds a leaner shape. */
  executionDetail: (id: string) => ['execution-detail', id] as const,

  /** Every page of the user's credit history (the prefix a purchase invalidates). */
  transactions: () => [CREDITS_PATHS.transactions] as const,
  /** One page of the credit history. */
  transactionsPage: (params: { filter: string; limit: number }) =>
    [CREDITS_PATHS.transactions, params] as const,
  /** The user's monthly plan. */
  subscription: () => [CREDITS_PATHS.subscription] as const,
  /** The plans on sale. */
  plans: () => [CREDITS_PATHS.plans] as const,
  /** The person's API keys (never the keys themselves). */
  apiKeys: () => ['/api/account/api-keys'] as const,

  admin: {
    /** Every admin query starts with this key, so a mutation can refresh the whole panel. */
    all: ['admin'] as const,
    stats: () => ['admin', 'stats'] as const,
    config: () => ['admin', 'config'] as const,
    /** Every page of the audit log. */
    auditAll: () => ['admin', 'audit'] as const,
    audit: (params: object) => ['admin', 'audit', params] as const,
    users: (params: object) => ['admin', 'users', params] as const,
    workflows: (params: object) => ['admin', 'workflows', params] as const,
    workflow: (id: string) => ['admin', 'workflow', id] as const,
    workflowSecret: (id: string) => ['admin', 'workflow-secret', id] as const,
    workflowReviews: (id: string, params: object) => ['admin', 'workflow-reviews', id, params] as const,
    executions: (params: object) => ['admin', 'executions', params] as const,
    credits: (params: object) => ['admin', 'credits', params] as const,
    /** Every page of the outbox and every mail's detail. */
    emailsAll: () => ['admin', 'emails'] as const,
    emails: (params: object) => ['admin', 'emails', params] as const,
    email: (id: string | null) => ['admin', 'emails', 'detail', id] as const,
  },
} as const;
