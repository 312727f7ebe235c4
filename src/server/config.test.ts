import { describe, expect, it } from 'vitest';
import { ConfigError, demoPaymentsInProduction, loadConfig, startupWarnings } from './config.js';

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
