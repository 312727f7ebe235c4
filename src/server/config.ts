import { z } from 'zod';
import { fromProjectRoot } from './lib/project-root.js';

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const ZEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).optional(),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    ADMIN_EMAIL: z.email().optional(),
    ADMIN_PASSWORD: z.string().min(8).optional(),
    /** Default: on with the embedded database, off with DATABASE_URL (a real deployment). */
    DEMO_WORKFLOWS: booleanFlag.optional(),
    /** Pace of the slow demo workflow: milliseconds between its progress messages (4 steps in all). */
    DEMO_SLOW_STEP_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    LLM_BASE_URL: z.url().optional(),
    LLM_API_KEY: z.string().min(1).optional(),
    LLM_MODEL: z.string().min(1).optional(),
    /** Default demo with the embedded database; required with DATABASE_URL, so free purchases are a choice. */
    PAYMENT_PROVIDER: z.enum(['demo', 'stripe']).optional(),
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Where the stripe client sends its calls; only tests point it elsewhere. */
    STRIPE_API_URL: z.url().optional(),
    ALLOW_PRIVATE_WEBHOOKS: booleanFlag.optional(),
    /** Addresses or CIDRs of the reverse proxies in front (comma-separated; `loopback`, `uniquelocal` work). */
    TRUST_PROXY: z
      .string()
      .regex(/^[\w.:/, -]+$/, 'a comma-separated list of addresses, CIDRs or loopback/linklocal/uniquelocal')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Also print unhandled errors to stderr: tests run with the app log off. A debugging aid. */
    DEBUG_ERRORS: booleanFlag.optional(),
    /** The built web app to serve, so parallel development checkouts serve their own builds; not for production. */
    WEB_DIR: z.string().min(1).optional(),
    /** Where mail goes: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://... (TLS from the start). */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^/\s]+(:\d+)?\/?$/, 'must be smtp://[user:pass@]host[:port] or smtps://...')
      .optional(),
    /** The sender of every mail: `Name <address>` or a bare address. */
    MAIL_FROM: z
      .string()
      .regex(
        /^(?:[^<>\r\n]+<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
        'must be "Name <address>" or an address',
      )
      .optional(),
  })
  .superRefine((env, ctx) => {
    if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      });
    }
    if (env.DATABASE_URL !== undefined && env.PAYMENT_PROVIDER === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROVIDER'],
        message:
          'required when DATABASE_URL is set: stripe for real payments, or demo to grant purchases for free',
      });
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'required when PAYMENT_PROVIDER=stripe' });
      }
    }
  });

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  admin: { email: string; password: string } | undefined;
  demoWorkflows: boolean;
  /** Milliseconds between the slow demo's progress messages (5 s: about 20 seconds in all). */
  demoSlowStepMs: number;
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  payments:
    | { provider: 'demo' }
    | { provider: 'stripe'; secretKey: string; webhookSecret: string; apiUrl: string | undefined };
  allowPrivateWebhooks: boolean;
  /** Proxies whose X-Forwarded-For entries are believed, as Fastify's `trustProxy` takes them; false: none. */
  trustProxy: string | false;
  logLevel: string;
  /** Print unhandled errors to stderr as well (DEBUG_ERRORS). */
  debugErrors: boolean;
  /** The directory of the built web app (index.html and assets/). */
  webDir: string;
  mail: {
    /** Unset: mails are kept in the outbox (status held) and read by admins in the panel. */
    smtpUrl: string | undefined;
    from: string;
  };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Free purchases on a real deployment: allowed (a staging or demo site), but the start log and the admin panel
 * say so, since nobody would notice from the outside.
 */
export function demoPaymentsInProduction(config: Config): boolean {
  return config.databaseUrl !== undefined && config.payments.provider === 'demo';
}

/** What the start prints as a warning: settings that are allowed but would surprise an operator. */
export function startupWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (demoPaymentsInProduction(config)) {
    warnings.push(
      'PAYMENT_PROVIDER=demo on PostgreSQL: every purchase grants its credits at once, without any payment. ' +
        'Use it only for a demo or test deployment; set PAYMENT_PROVIDER=stripe to take real payments.',
    );
  }
  return warnings;
}

// Where `npm run build` puts the web app, found from the sources and from the built server alike.
const BUILT_WEB_DIR = fromProjectRoot('dist/web');

/** Parses the environment once; every bad variable is named in the error. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(blankless);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const host = e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1');
  // Demo mode is the embedded database: with DATABASE_URL (a real deployment) nothing demo-like is on unless
  // asked for.
  const embedded = e.DATABASE_URL === undefined;
  const demoWorkflows = e.DEMO_WORKFLOWS ?? embedded;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host,
    publicUrl,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD }
        : undefined,
    demoWorkflows,
    demoSlowStepMs: e.DEMO_SLOW_STEP_MS,
    llm: e.LLM_BASE_URL
      ? {
          baseUrl: e.LLM_BASE_URL.replace(/\/$/, ''),
          apiKey: e.LLM_API_KEY,
          model: e.LLM_MODEL ?? 'gpt-4o-mini',
        }
      : undefined,
    payments:
      e.PAYMENT_PROVIDER === 'stripe'
        ? {
            provider: 'stripe',
            secretKey: e.STRIPE_SECRET_KEY ?? '',
            webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
            apiUrl: e.STRIPE_API_URL,
          }
        : { provider: 'demo' },
    allowPrivateWebhooks: e.ALLOW_PRIVATE_WEBHOOKS ?? (embedded && demoWorkflows),
    trustProxy:
      e.TRUST_PROXY === 'false'
        ? false
        : (e.TRUST_PROXY ?? (e.NODE_ENV === 'production' ? 'loopback,linklocal,uniquelocal' : false)),
    logLevel: e.LOG_LEVEL,
    debugErrors: e.DEBUG_ERRORS ?? false,
    webDir: e.WEB_DIR ?? BUILT_WEB_DIR,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `Flujo <no-reply@${new URL(publicUrl).hostname}>`,
    },
  };
}
