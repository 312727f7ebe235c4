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
    /** Pace of the scripted chat assistant's streamed replies: milliseconds between words (0: all at once). */
    DEMO_CHAT_WORD_MS: z.coerce.number().int().min(0).max(2_000).default(40),
    LLM_BASE_URL: z.url().optional(),
    LLM_API_KEY: z.string().min(1).optional(),
    LLM_MODEL: z.string().min(1).optional(),
    /** Default demo with the embedded database; required with DATABASE_URL, so free purchases are a choice. */
    PAYMENT_PROVIDER: z.enum(['demo', 'stripe']).optional(),
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** Where the stripe client sends its calls; only tests point it elsewhere. */
    STRIPE_API_URL: z.url().optional(),
    /**
     * Credits for a monthly plan's period nobody paid for (a trial, a 100% coupon): granted once per such
     * period instead of the plan's. Default 0 (decision 119).
     */
    STRIPE_FREE_PERIOD_CREDITS: z.coerce.number().int().min(0).max(100_000).default(0),
    ALLOW_PRIVATE_WEBHOOKS: booleanFlag.optional(),
    /**
     * The key of the signed links through which workflow services fetch files uploaded as survey answers.
     * Unset: one is made and kept in DATA_DIR (enough while instances share DATA_DIR, as result files do).
     */
    FILE_LINK_SECRET: z.string().min(32, 'at least 32 characters').optional(),
    /** Addresses or CIDRs of the reverse proxies in front (comma-separated; `loopback`, `uniquelocal` work). */
    TRUST_PROXY: z
      .string()
      .regex(/^[\w.:/, -]+$/, 'a comma-separated list of addresses, CIDRs or loopback/linklocal/uniquelocal')
      .optional(),
    /**
     * Origins besides PUBLIC_URL's whose pages may call /mcp (comma-separated, e.g. a web-based agent's own
     * site); their host names are also served there. Anything else is refused as DNS rebinding.
     */
    MCP_ALLOWED_ORIGINS: z
      .string()
      .regex(
        /^https?:\/\/[^/\s,]+(,\s*https?:\/\/[^/\s,]+)*$/,
        'a comma-separated list of origins such as https://agent.example.com',
      )
      .optional(),
    /**
     * Seconds an OAuth access token for /mcp or /api/v1 is good for (decision 161): short, since a client
     * refreshes it (a rotating refresh token) and a revoked grant's tokens are refused at once anyway.
     */
    OAUTH_ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(86_400).default(600),
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
    /** Result files in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO) instead of DATA_DIR/results. */
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)',
      )
      .optional(),
    /** The service's address; unset means AWS S3 itself (then S3_REGION is required). */
    S3_ENDPOINT: z
      .url()
      .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
      .optional(),
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as eu-west-1 (auto for Cloudflare R2)')
      .optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Bucket in the path (http://host/bucket/key) instead of the host name: MinIO and most self-hosted servers. */
    S3_FORCE_PATH_STYLE: booleanFlag.optional(),
    /** Rate-limit counters shared by every instance; unset, each instance counts in its own memory. */
    REDIS_URL: z
      .url()
      .regex(
        /^rediss?:\/\/[^/\s]+(\/\d{1,2})?\/?$/,
        'must be redis://[user:pass@]host[:port][/db] or rediss://...',
      )
      .optional(),
    /** Put before every key, so that several deployments can share one Redis. */
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[\w:.-]{1,64}$/, 'at most 64 letters, digits, and . _ : -')
      .optional(),
    /** GET /metrics answers only with `Authorization: Bearer <this>`. */
    METRICS_TOKEN: z
      .string()
      .min(32, 'at least 32 characters')
      .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
      .optional(),
    /** GET /metrics on a listener of its own, on this port, instead of the app's. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
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
    if (env.S3_BUCKET === undefined) {
      for (const key of S3_SETTINGS) {
        if (env[key] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'set S3_BUCKET as well, or remove this setting',
          });
      }
    } else {
      for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (env[key] === undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'required when S3_BUCKET is set' });
      }
      if (env.S3_ENDPOINT === undefined && env.S3_REGION === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['S3_REGION'],
          message: "required when S3_BUCKET is set without S3_ENDPOINT (AWS S3 needs the bucket's region)",
        });
      }
    }
    if (env.REDIS_KEY_PREFIX !== undefined && env.REDIS_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_KEY_PREFIX'],
        message: 'set REDIS_URL as well, or remove it',
      });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT' });
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'required when PAYMENT_PROVIDER=stripe' });
      }
    }
  });

const S3_SETTINGS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

export interface S3StorageConfig {
  kind: 's3';
  bucket: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Where rate-limit counters live: this process's memory, or a Redis every instance shares. */
export type RateLimitStoreConfig =
  | { kind: 'memory' }
  | {
      kind: 'redis';
      /** May hold a password: never logged. */
      url: string;
      keyPrefix: string;
    };

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** Where result files are kept: DATA_DIR/results, or a bucket. */
  storage: { kind: 'local' } | S3StorageConfig;
  databaseUrl: string | undefined;
  /** Chat, translate, sign-up and API-key limits count here (REDIS_URL, REDIS_KEY_PREFIX). */
  rateLimits: RateLimitStoreConfig;
  admin: { email: string; password: string } | undefined;
  demoWorkflows: boolean;
  /** Milliseconds between the slow demo's progress messages (5 s: about 20 seconds in all). */
  demoSlowStepMs: number;
  /** Milliseconds between the words of the scripted assistant's streamed replies. */
  demoChatWordMs: number;
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  payments:
    | { provider: 'demo' }
    | {
        provider: 'stripe';
        secretKey: string;
        webhookSecret: string;
        apiUrl: string | undefined;
        /** Credits for a plan period without payment (trial, 100% coupon); 0: none. */
        freePeriodCredits: number;
      };
  allowPrivateWebhooks: boolean;
  /** FILE_LINK_SECRET; undefined: the key kept in DATA_DIR (lib/file-link-secret.ts). Never logged. */
  fileLinkSecret: string | undefined;
  /** Proxies whose X-Forwarded-For entries are believed, as Fastify's `trustProxy` takes them; false: none. */
  trustProxy: string | false;
  /**
   * Who may reach /mcp (DNS-rebinding protection): the origins a page calling it may have, PUBLIC_URL's and
   * MCP_ALLOWED_ORIGINS', and the host names a request may name, theirs (plus every loopback name when
   * PUBLIC_URL is a loopback address, as a local server is reached by any of them).
   */
  mcpAccess: { origins: readonly string[]; hostnames: readonly string[] };
  /** The OAuth authorization server (modules/oauth): seconds an access token lives (OAUTH_ACCESS_TOKEN_TTL). */
  oauth: { accessTokenTtl: number };
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
  /**
   * Where GET /metrics is served: on the app's listener behind a Bearer token, or on a port of its own (with
   * the token too when both are set). Undefined: nowhere, the safe default.
   */
  metrics: { token: string | undefined; port: number | undefined } | undefined;
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

/** Every environment variable the server reads: the README's configuration table documents each (config.test.ts). */
export const ENV_VARIABLES: readonly string[] = Object.keys(ZEnv.shape);

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

function mcpAccessOf(publicUrl: string, allowed: string | undefined): Config['mcpAccess'] {
  const origins = [publicUrl, ...(allowed ?? '').split(',')]
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(o).origin);
  const hostnames = new Set(origins.map((o) => new URL(o).hostname));
  if (LOOPBACK_NAMES.includes(new URL(publicUrl).hostname)) for (const n of LOOPBACK_NAMES) hostnames.add(n);
  return { origins: [...new Set(origins)], hostnames: [...hostnames] };
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
    storage: e.S3_BUCKET
      ? {
          kind: 's3',
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
          // Services other than AWS take any region name for signing; us-east-1 is the one every one accepts.
          region: e.S3_REGION ?? 'us-east-1',
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
          accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
        }
      : { kind: 'local' },
    databaseUrl: e.DATABASE_URL,
    rateLimits: e.REDIS_URL
      ? { kind: 'redis', url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX ?? 'flujo:' }
      : { kind: 'memory' },
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD }
        : undefined,
    demoWorkflows,
    demoSlowStepMs: e.DEMO_SLOW_STEP_MS,
    demoChatWordMs: e.DEMO_CHAT_WORD_MS,
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
            freePeriodCredits: e.STRIPE_FREE_PERIOD_CREDITS,
          }
        : { provider: 'demo' },
    allowPrivateWebhooks: e.ALLOW_PRIVATE_WEBHOOKS ?? (embedded && demoWorkflows),
    fileLinkSecret: e.FILE_LINK_SECRET,
    // No proxy is trusted unless named, in production too: trusting the private ranges by default let any
    // client on such a network name its own address for the per-address limits.
    trustProxy: e.TRUST_PROXY === undefined || e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY,
    mcpAccess: mcpAccessOf(publicUrl, e.MCP_ALLOWED_ORIGINS),
    oauth: { accessTokenTtl: e.OAUTH_ACCESS_TOKEN_TTL },
    logLevel: e.LOG_LEVEL,
    debugErrors: e.DEBUG_ERRORS ?? false,
    webDir: e.WEB_DIR ?? BUILT_WEB_DIR,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `Flujo <no-reply@${new URL(publicUrl).hostname}>`,
    },
    metrics:
      e.METRICS_TOKEN !== undefined || e.METRICS_PORT !== undefined
        ? { token: e.METRICS_TOKEN, port: e.METRICS_PORT }
        : undefined,
  };
}
