import { isIPv4, isIPv6 } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

/** What a session remembers of the device and place it was used from (never the whole address). */
export interface DeviceSeen {
  userAgent: string | null;
  /** ISO 3166 alpha-2 code from a trusted proxy's header, or null. */
  country: string | null;
  /** The address with its last part masked ("203.0.113.x", "2001:db8:85a3::/48"), or null. */
  network: string | null;
}

/** A session opened by a script rather than through a request (benchmarks' seeded users). */
export const NO_DEVICE: DeviceSeen = { userAgent: null, country: null, network: null };

/** Long enough for any real browser's User-Agent; a longer header is cut, not refused. */
export const USER_AGENT_MAX = 400;

/**
 * Headers that a proxy in front of the app may set with the client's country (Cloudflare's, and a plain one
 * for nginx's GeoIP module or a load balancer). Believed only from a proxy in TRUST_PROXY.
 */
const COUNTRY_HEADERS = ['cf-ipcountry', 'x-country-code'] as const;

export function deviceSeen(
  headers: IncomingHttpHeaders,
  clientAddress: string,
  fromTrustedProxy: boolean,
): DeviceSeen {
  const ua = headers['user-agent'];
  return {
    userAgent: typeof ua === 'string' && ua.trim() ? ua.trim().slice(0, USER_AGENT_MAX) : null,
    country: fromTrustedProxy ? countryOf(headers) : null,
    network: maskAddress(clientAddress),
  };
}

function countryOf(headers: IncomingHttpHeaders): string | null {
  for (const name of COUNTRY_HEADERS) {
    const value = headers[name];
    if (typeof value !== 'string') continue;
    const code = value.trim().toUpperCase();
    // XX is Cloudflare's "unknown"; anything but two letters is not a country.
    if (/^[A-Z]{2}$/.test(code) && code !== 'XX') return code;
  }
  return null;
}

/** The address without the part that names one machine: the last octet of IPv4, all but the /48 of IPv6. */
export function maskAddress(address: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped?.[1] ?? address;
  if (isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.x`;
  if (!isIPv6(ip)) return null;
  return `${expandIPv6(ip).slice(0, 3).join(':')}::/48`;
}

/** The eight groups of an IPv6 address, without leading zeros ("2001:db8::1" -> 2001, db8, 0, ..., 1). */
function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0');
  return [...left, ...(tail === undefined ? [] : zeros), ...right].map((g) => g.replace(/^0+(?=.)/, ''));
}

/** A browser and a system, named as people know them; null when the User-Agent does not say. */
export interface ParsedUserAgent {
  browser: string | null;
  os: string | null;
}

// Order matters: Edge, Opera and Samsung Internet also say "Chrome"; Chrome also says "Safari".
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|HeadlessChrome|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
];

// Android says "Linux", and iPadOS may say "Macintosh": the specific ones come first.
const SYSTEMS: Array<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function parseUserAgent(userAgent: string | null): ParsedUserAgent {
  if (!userAgent) return { browser: null, os: null };
  const pick = (rules: Array<[RegExp, string]>) => rules.find(([re]) => re.test(userAgent))?.[1] ?? null;
  return { browser: pick(BROWSERS), os: pick(SYSTEMS) };
}
