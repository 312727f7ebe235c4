import { z } from 'zod';

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
    DEMO_WORKFLOWS: booleanFlag.default(true),
    /** Pace of the slow demo workflow: milliseconds between its progress messages (4 steps in all). */
    DEMO_SLOW_STEP_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    LLM_BASE_URL: z.url().optional(),
    LLM_API_KEY: z.string().min(1).optional(),
    LLM_MODEL: z.string().min(1).optional(),
    PAYMENT_PROVIDER: z.enum(['demo', 'stripe']).default('demo'),
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
  })
  .superRefine((env, ctx) => {
    if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
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
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

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
    demoWorkflows: e.DEMO_WORKFLOWS,
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
    allowPrivateWebhooks: e.ALLOW_PRIVATE_WEBHOOKS ?? e.DEMO_WORKFLOWS,
    trustProxy:
      e.TRUST_PROXY === 'false'
        ? false
        : (e.TRUST_PROXY ?? (e.NODE_ENV === 'production' ? 'loopback,linklocal,uniquelocal' : false)),
    logLevel: e.LOG_LEVEL,
  };
}
