import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * SSRF guard for outbound webhook calls: a workflow's address must not reach the machine itself or the
 * private network behind it. The host is resolved once here; the caller connects to the checked address
 * (pinned), so a second DNS answer cannot swap in a private one (DNS rebinding).
 */

/** Ranges no webhook may reach: loopback, private, link-local, CGNAT, documentation, multicast, reserved. */
const BLOCKED_V4 = [
  '0.0.0.0/8', // "this network", unspecified
  '10.0.0.0/8',
  '100.64.0.0/10', // CGNAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, cloud metadata
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
];
const BLOCKED_V6 = [
  '::/128', // unspecified
  '::1/128',
  '100::/64', // discard
  '2001:db8::/32', // documentation
  'fc00::/7', // unique-local
  'fe80::/10', // link-local
  'fec0::/10', // old site-local
  'ff00::/8', // multicast
];
/** IPv6 ranges that carry an IPv4 address in their low or middle bits; the embedded address is checked. */
const EMBEDDING_V6: Array<{ prefix: string; v4Offset: number }> = [
  { prefix: '::ffff:0:0/96', v4Offset: 12 }, // IPv4-mapped
  { prefix: '::/96', v4Offset: 12 }, // IPv4-compatible (deprecated)
  { prefix: '64:ff9b::/96', v4Offset: 12 }, // NAT64
  { prefix: '64:ff9b:1::/48', v4Offset: 12 }, // local-use NAT64
  { prefix: '2002::/16', v4Offset: 2 }, // 6to4
];

interface Cidr {
  bytes: Buffer;
  bits: number;
}

function parseCidr(cidr: string): Cidr {
  const [ip = '', bits = ''] = cidr.split('/');
  const bytes = ipToBytes(ip);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, bits: Number(bits) };
}

const V4_RANGES = BLOCKED_V4.map(parseCidr);
const V6_RANGES = BLOCKED_V6.map(parseCidr);
const V6_EMBEDDING = EMBEDDING_V6.map((e) => ({ ...parseCidr(e.prefix), v4Offset: e.v4Offset }));

function inRange(address: Buffer, range: Cidr): boolean {
  if (address.length !== range.bytes.length) return false;
  let bits = range.bits;
  for (let i = 0; bits > 0; i += 1, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((address[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** A canonical IPv4 (4 bytes) or IPv6 (16 bytes) address, or null when `ip` is not an IP literal. */
function ipToBytes(ip: string): Buffer | null {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const kind = isIP(bare);
  if (kind === 4) return Buffer.from(bare.split('.').map(Number));
  if (kind !== 6) return null;
  let tail: number[] = [];
  let head = bare;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (dotted?.[1]) {
    tail = dotted[1].split('.').map(Number);
    head = bare.slice(0, -dotted[1].length).replace(/:$/, ':0:0');
    // The dotted tail stands for the last two groups; they were replaced by 0:0 placeholders above.
  }
  const [left = '', right] = head.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const missing = 8 - l.length - r.length;
  const all = right === undefined ? l : [...l, ...Array<string>(missing).fill('0'), ...r];
  if (all.length !== 8) return null;
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  if (tail.length === 4) Buffer.from(tail).copy(out, 12);
  return out;
}

/** Why an IP address may not be called, or null when it is a public address. */
export function blockedReason(ip: string): string | null {
  const bytes = ipToBytes(ip);
  if (!bytes) return 'not an IP address';
  if (bytes.length === 4) {
    return V4_RANGES.some((r) => inRange(bytes, r)) ? 'private or reserved IPv4 address' : null;
  }
  for (const embedding of V6_EMBEDDING) {
    if (inRange(bytes, embedding)) {
      const v4 = bytes.subarray(embedding.v4Offset, embedding.v4Offset + 4);
      if (V4_RANGES.some((r) => inRange(v4, r))) return 'IPv6 address embedding a private IPv4 address';
    }
  }
  return V6_RANGES.some((r) => inRange(bytes, r)) ? 'private or reserved IPv6 address' : null;
}

export interface PinnedTarget {
  url: URL;
  /** The checked address the connection must use. */
  address: string;
  family: 4 | 6;
}

export class AddressRefused extends Error {}

/** Which webhook addresses may be private. */
export interface AddressPolicy {
  /** Any private or loopback address (ALLOW_PRIVATE_WEBHOOKS). */
  allowPrivate: boolean;
  /**
   * URL prefixes of the app's own demo services (`<PUBLIC_URL>/demo-hooks/`): allowed whatever they resolve
   * to, since calling them is calling the app itself. Nothing else at that origin is, so a workflow address
   * cannot turn the app into a client of its own loopback-only neighbours.
   */
  selfPrefixes?: readonly string[];
}

/** The app's own demo services, as the demo workflows address them (demo/seed.ts). */
export function selfWebhookPrefixes(publicUrl: string): string[] {
  return [`${publicUrl.replace(/\/$/, '')}/demo-hooks/`];
}

/**
 * Whether the URL is under one of the prefixes. Both sides go through the URL parser, so dot segments
 * (`/demo-hooks/../api`, `%2e%2e`), default ports and letter case cannot make another path look like a prefix.
 */
function underPrefix(url: URL, prefixes: readonly string[]): boolean {
  const here = `${url.origin}${url.pathname}`;
  return prefixes.some((prefix) => {
    let base: URL;
    try {
      base = new URL(prefix);
    } catch {
      return false;
    }
    return here.startsWith(`${base.origin}${base.pathname}`);
  });
}

/**
 * Parses and checks a webhook URL. The WHATWG parser already turns legacy IPv4 spellings (`2130706433`,
 * `127.1`, `0x7f.1`, octal) into dotted quads, so they meet the same ranges as any other address.
 * Every address the name resolves to must be public; the first one is pinned.
 */
export async function resolveWebhookTarget(
  rawUrl: string,
  policy: boolean | AddressPolicy,
  resolve: (host: string) => Promise<Array<{ address: string; family: number }>> = (host) =>
    dnsLookup(host, { all: true, verbatim: true }),
): Promise<PinnedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new AddressRefused('the webhook URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AddressRefused('the webhook URL must use http or https');
  }
  if (url.username || url.password) throw new AddressRefused('the webhook URL must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (addresses.length === 0) throw new AddressRefused(`${host} has no address`);
  const { allowPrivate, selfPrefixes = [] } = typeof policy === 'boolean' ? { allowPrivate: policy } : policy;
  if (!allowPrivate && !underPrefix(url, selfPrefixes)) {
    for (const a of addresses) {
      const reason = blockedReason(a.address);
      if (reason) throw new AddressRefused(`${host} resolves to a ${reason}`);
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
