import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { countryName, deviceName } from './session-device';

const t = ((key: string, params?: Record<string, string>) =>
  `${key}${params ? JSON.stringify(params) : ''}`) as unknown as TFunction;

describe('deviceName', () => {
  it('names the browser and the system when both are known, else what is known', () => {
    expect(deviceName(t, { browser: 'Chrome', os: 'Android' })).toBe(
      'settings.sessions.device{"browser":"Chrome","os":"Android"}',
    );
    expect(deviceName(t, { browser: 'curl', os: null })).toBe('curl');
    expect(deviceName(t, { browser: null, os: 'iOS' })).toBe('settings.sessions.deviceOs{"os":"iOS"}');
    expect(deviceName(t, { browser: null, os: null })).toBe('settings.sessions.unknownDevice');
  });
});

describe('countryName', () => {
  it('names a country in the reader’s language', () => {
    expect(countryName('ES', 'es')).toBe('España');
    expect(countryName('ES', 'en')).toBe('Spain');
    expect(countryName(null, 'en')).toBeNull();
  });
});
