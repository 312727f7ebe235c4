import { describe, expect, it } from 'vitest';
import { negotiateEncoding } from './content-encoding.js';

describe('negotiateEncoding', () => {
  it.each([
    // What browsers send: brotli wins.
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate, gzip', 'gzip'],
    // Weights: the highest acceptable one, brotli on a tie.
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.9', 'br'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['br ; q=1.0 , gzip ; q=0.2', 'br'],
    // q=0 refuses a coding.
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['gzip;q=0', null],
    // Only what we cannot send, or identity asked for.
    ['identity', null],
    ['deflate', null],
    ['zstd', null],
    ['', null],
    // A client that ranks identity above the codings it lists gets identity.
    ['br;q=0.1, identity;q=1', null],
    // `*` stands for every coding not named.
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['*;q=0', null],
  ] as const)('%j -> %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });

  it('answers identity without the header', () => {
    expect(negotiateEncoding(undefined)).toBeNull();
  });
});
