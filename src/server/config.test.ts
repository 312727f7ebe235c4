import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  demoPaymentsInProduction,
  ENV_VARIABLES,
  loadConfig,
  startupWarnings,
} from './config.js';
import { fromProjectRoot } from './lib/project-root.js';

describe("the README's configuration table", () => {
  /** The variables the table's rows name in their first cell (a row may name several). */
  function documented(): string[] {
    const readme = readFileSync(fromProjectRoot('README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
    );
    return section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
  }

  it('documents every variable the server reads, and none it does not', () => {
    const names = documented();
    expect(ENV_VARIABLES.length).toBeGreaterThan(30);
    expect(ENV_VARIABLES.filter((name) => !names.includes(name))).toEqual([]);
    expect(names.filter((name) => !ENV_VARIABLES.includes(name))).toEqual([]);
  });
});

describe('MCP_ALLOWED_ORIGINS', () => {
  it("serves /mcp to PUBLIC_URL's origin and the listed ones, and to their host names", () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'https://flujo.example.com/',
      MCP_ALLOWED_ORIGINS: 'https://agent.example.org, http://tools.example.net:8080',
    });
    expect(config.mcpAccess).toEqual({
      origins: ['https://flujo.example.com', 'https://agent.example.org', 'http://tools.example.net:8080'],
      hostnames: ['flujo.example.com', 'agent.example.org', 'tools.example.net'],
    });
  });

  it('answers to every loopback name when PUBLIC_URL is a loopback address', () => {
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://127.0.0.1:3000' });
    expect(config.mcpAccess.hostnames.toSorted()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect(config.mcpAccess.origins).toEqual(['http://127.0.0.1:3000']);
  });

  it.each(['agent.example.org', 'https://agent.example.org/path', 'ftp://x.example'])(
    'refuses %s, naming the variable',
    (value) => {
      expect(() => loadConfig({ NODE_ENV: 'test', MCP_ALLOWED_ORIGINS: value })).toThrow(
        /MCP_ALLOWED_ORIGINS/,
      );
    },
  );
});

describe('DEMO_SLOW_STEP_MS', () => {
  it('paces the slow demo at 5 s a step by default (about 20 seconds in all)', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).demoSlowStepMs).toBe(5000);
    expect(loadConfig({ NODE_ENV: 'test', DEMO_SLOW_STEP_MS: '1500' }).demoSlowStepMs).toBe(1500);
  });

  it.each(['0', '99', '60001', '1.5', 'soon'])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ NODE_ENV: 'test', DEMO_SLOW_STEP_MS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', DEMO_SLOW_STEP_MS: value })).toThrow(/DEMO_SLOW_STEP_MS/);
  });
});

describe('production defaults: demo mode is the embedded database', () => {
  const PG = 'postgres://flujo@db.internal:5432/flujo';

  it('on the embedded database: demo payments, demo workflows and private webhooks unless told otherwise', () => {
    const config = loadConfig({ NODE_ENV: 'production' });
    expect(config.payments).toEqual({ provider: 'demo' });
    expect(config.demoWorkflows).toBe(true);
    expect(config.allowPrivateWebhooks).toBe(true);
    expect(startupWarnings(config)).toEqual([]);
    expect(demoPaymentsInProduction(config)).toBe(false);
    // Without the demos, private webhooks follow them off, as before.
    expect(loadConfig({ NODE_ENV: 'production', DEMO_WORKFLOWS: 'false' }).allowPrivateWebhooks).toBe(false);
  });

  it('with DATABASE_URL refuses to start until PAYMENT_PROVIDER is named', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: PG })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: PG })).toThrow(
      /PAYMENT_PROVIDER: required when DATABASE_URL is set/,
    );
    // A blank value counts as unset.
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: PG, PAYMENT_PROVIDER: '' })).toThrow(
      /PAYMENT_PROVIDER/,
    );
  });

  it('with DATABASE_URL and stripe: real payments, no demo workflows, no private webhooks, no warning', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: PG,
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });
    expect(config.payments.provider).toBe('stripe');
    expect(config.demoWorkflows).toBe(false);
    expect(config.allowPrivateWebhooks).toBe(false);
    expect(startupWarnings(config)).toEqual([]);
    expect(demoPaymentsInProduction(config)).toBe(false);
  });

  it('with DATABASE_URL and PAYMENT_PROVIDER=demo: allowed, with a warning that names the variable', () => {
    const config = loadConfig({ NODE_ENV: 'production', DATABASE_URL: PG, PAYMENT_PROVIDER: 'demo' });
    expect(config.payments.provider).toBe('demo');
    expect(demoPaymentsInProduction(config)).toBe(true);
    const warnings = startupWarnings(config);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/PAYMENT_PROVIDER=demo .*without any payment/);
    // Demo payments do not bring the other demo switches with them.
    expect(config.demoWorkflows).toBe(false);
    expect(config.allowPrivateWebhooks).toBe(false);
  });

  it('with DATABASE_URL turns demo workflows and private webhooks on only when asked, each on its own', () => {
    const base = { NODE_ENV: 'production', DATABASE_URL: PG, PAYMENT_PROVIDER: 'demo' };
    const demos = loadConfig({ ...base, DEMO_WORKFLOWS: 'true' });
    expect(demos.demoWorkflows).toBe(true);
    // The demos call the app itself, which is allowed without opening private addresses to every workflow.
    expect(demos.allowPrivateWebhooks).toBe(false);
    const both = loadConfig({ ...base, DEMO_WORKFLOWS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' });
    expect(both.allowPrivateWebhooks).toBe(true);
    expect(loadConfig({ ...base, ALLOW_PRIVATE_WEBHOOKS: '1' }).allowPrivateWebhooks).toBe(true);
    expect(() => loadConfig({ ...base, DEMO_WORKFLOWS: 'yes' })).toThrow(/DEMO_WORKFLOWS/);
  });
});

describe('development settings', () => {
  it('serves dist/web and keeps unhandled errors out of stderr by default', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.webDir).toMatch(/[/\\]dist[/\\]web$/);
    expect(config.debugErrors).toBe(false);
  });

  it('takes WEB_DIR as given and DEBUG_ERRORS as a flag, naming a bad one', () => {
    const config = loadConfig({ NODE_ENV: 'test', WEB_DIR: '/tmp/checkout/web', DEBUG_ERRORS: '1' });
    expect(config.webDir).toBe('/tmp/checkout/web');
    expect(config.debugErrors).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', DEBUG_ERRORS: 'false' }).debugErrors).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'test', DEBUG_ERRORS: 'yes' })).toThrow(/DEBUG_ERRORS/);
  });
});

describe('object storage (S3_*)', () => {
  const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY';
  const R2 = {
    NODE_ENV: 'production',
    S3_BUCKET: 'flujo-results',
    S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com/',
    S3_REGION: 'auto',
    S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    S3_SECRET_ACCESS_KEY: SECRET,
  };

  it('keeps files in DATA_DIR without S3_BUCKET, and in the bucket with it', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).storage).toEqual({ kind: 'local' });
    expect(loadConfig(R2).storage).toEqual({
      kind: 's3',
      bucket: 'flujo-results',
      endpoint: 'https://acc.r2.cloudflarestorage.com',
      region: 'auto',
      forcePathStyle: false,
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: SECRET,
    });
    const minio = loadConfig({
      ...R2,
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: '',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(minio.storage).toMatchObject({ region: 'us-east-1', forcePathStyle: true });
    const aws = loadConfig({ ...R2, S3_ENDPOINT: '', S3_REGION: 'eu-west-1' });
    expect(aws.storage).toMatchObject({ endpoint: undefined, region: 'eu-west-1' });
  });

  it.each([
    [
      'a bucket without keys',
      { S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '' },
      /S3_ACCESS_KEY_ID: required when S3_BUCKET is set/,
    ],
    [
      'a bucket without the secret',
      { S3_SECRET_ACCESS_KEY: '' },
      /S3_SECRET_ACCESS_KEY: required when S3_BUCKET is set/,
    ],
    [
      'AWS without a region',
      { S3_ENDPOINT: '', S3_REGION: '' },
      /S3_REGION: required when S3_BUCKET is set without S3_ENDPOINT/,
    ],
    ['settings without a bucket', { S3_BUCKET: '' }, /S3_ENDPOINT: set S3_BUCKET as well/],
    ['a bucket name with a slash', { S3_BUCKET: 'a/b' }, /S3_BUCKET: must be a bucket name/],
    ['an endpoint that is not http', { S3_ENDPOINT: 'ftp://files.example' }, /S3_ENDPOINT: must be an http/],
    ['a path-style flag that is not one', { S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE/],
  ])('refuses %s at start, naming the variable and never printing the secret', (_, change, message) => {
    let error: unknown;
    try {
      loadConfig({ ...R2, ...change });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(SECRET);
  });
});

describe('rate-limit counters (REDIS_URL, REDIS_KEY_PREFIX)', () => {
  it('count in memory without REDIS_URL, in Redis with it, under flujo: unless another prefix is named', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).rateLimits).toEqual({ kind: 'memory' });
    expect(
      loadConfig({ NODE_ENV: 'test', REDIS_URL: 'redis://:pw@redis.internal:6379/2' }).rateLimits,
    ).toEqual({
      kind: 'redis',
      url: 'redis://:pw@redis.internal:6379/2',
      keyPrefix: 'flujo:',
    });
    const tls = loadConfig({
      NODE_ENV: 'test',
      REDIS_URL: 'rediss://cache.example',
      REDIS_KEY_PREFIX: 'staging:',
    });
    expect(tls.rateLimits).toMatchObject({ kind: 'redis', keyPrefix: 'staging:' });
  });

  it.each([
    ['another scheme', { REDIS_URL: 'http://redis.internal:6379' }, /REDIS_URL: must be redis:\/\//],
    ['a path that is not a database number', { REDIS_URL: 'redis://redis.internal/keys' }, /REDIS_URL/],
    ['not a URL', { REDIS_URL: 'redis.internal:6379' }, /REDIS_URL/],
    ['a prefix with a space', { REDIS_URL: 'redis://r', REDIS_KEY_PREFIX: 'my app:' }, /REDIS_KEY_PREFIX/],
    ['a prefix without REDIS_URL', { REDIS_KEY_PREFIX: 'flujo:' }, /REDIS_KEY_PREFIX: set REDIS_URL as well/],
  ])('refuses %s at start, naming the variable', (_, change, message) => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'test', ...change });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
  });

  it('never prints the password of a refused REDIS_URL', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'test', REDIS_URL: 'redis://:hunter2-secret@redis.internal/x' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/REDIS_URL/);
    expect((error as Error).message).not.toContain('hunter2-secret');
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told, in production too', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', TRUST_PROXY: '10.0.0.5' }).trustProxy).toBe('10.0.0.5');
  });
});

describe('metrics (METRICS_TOKEN, METRICS_PORT)', () => {
  const TOKEN = 'c0ffee'.repeat(6);

  it('serves no metrics unless one of them is set, in production too', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).metrics).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: TOKEN }).metrics).toEqual({
      token: TOKEN,
      port: undefined,
    });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_PORT: '9464' }).metrics).toEqual({
      token: undefined,
      port: 9464,
    });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }).metrics).toEqual({
      token: TOKEN,
      port: 9464,
    });
  });

  it.each([
    ['a short token', { METRICS_TOKEN: 'short-token' }, /METRICS_TOKEN: at least 32 characters/],
    [
      'a token with a space',
      { METRICS_TOKEN: `${TOKEN} x` },
      /METRICS_TOKEN: printable ASCII without spaces/,
    ],
    ['the app port', { PORT: '8080', METRICS_PORT: '8080' }, /METRICS_PORT: must differ from PORT/],
    ['a port out of range', { METRICS_PORT: '70000' }, /METRICS_PORT/],
  ])('refuses %s, naming the variable', (_case, env, message) => {
    expect(() => loadConfig({ NODE_ENV: 'test', ...env })).toThrow(message);
  });

  it('never repeats a refused token in its message', () => {
    const token = 'a-token-that-is-too-short';
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: token })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(token) }),
    );
  });
});
