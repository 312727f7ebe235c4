import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
