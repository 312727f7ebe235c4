import { describe, expect, it } from 'vitest';
import { deviceSeen, maskAddress, parseUserAgent, USER_AGENT_MAX } from './device.js';

describe('parseUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome',
      'Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari',
      'iOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge',
      'Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Firefox',
      'macOS',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'Chrome',
      'Linux',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Samsung Internet',
      'Android',
    ],
    ['curl/8.5.0', 'curl', null],
  ])('%s -> %s on %s', (ua, browser, os) => {
    expect(parseUserAgent(ua)).toEqual({ browser, os });
  });

  it('says nothing for an empty or unknown agent', () => {
    expect(parseUserAgent(null)).toEqual({ browser: null, os: null });
    expect(parseUserAgent('something/1.0')).toEqual({ browser: null, os: null });
  });
});

describe('maskAddress', () => {
  it('hides the last part of an address', () => {
    expect(maskAddress('203.0.113.57')).toBe('203.0.113.x');
    expect(maskAddress('::ffff:198.51.100.7')).toBe('198.51.100.x');
    expect(maskAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::/48');
    expect(maskAddress('2001:0db8::1')).toBe('2001:db8:0::/48');
    expect(maskAddress('::1')).toBe('0:0:0::/48');
  });

  it('keeps nothing of what is not an address', () => {
    expect(maskAddress('not-an-ip')).toBeNull();
    expect(maskAddress('')).toBeNull();
  });
});

describe('deviceSeen', () => {
  const headers = { 'user-agent': 'curl/8.5.0', 'cf-ipcountry': 'es' };

  it('believes a country header only from a trusted proxy', () => {
    expect(deviceSeen(headers, '203.0.113.57', true)).toEqual({
      userAgent: 'curl/8.5.0',
      country: 'ES',
      network: '203.0.113.x',
    });
    expect(deviceSeen(headers, '203.0.113.57', false).country).toBeNull();
  });

  it('ignores a country that is not two letters, and cuts a very long User-Agent', () => {
    const seen = deviceSeen({ 'user-agent': 'a'.repeat(5000), 'x-country-code': 'XX' }, '10.0.0.1', true);
    expect(seen.country).toBeNull();
    expect(seen.userAgent).toHaveLength(USER_AGENT_MAX);
    expect(deviceSeen({ 'x-country-code': '<script>' }, '10.0.0.1', true)).toEqual({
      userAgent: null,
      country: null,
      network: '10.0.0.x',
    });
  });
});
