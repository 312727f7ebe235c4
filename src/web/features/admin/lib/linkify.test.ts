import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkify, safeHref } from './linkify';

describe('linkify', () => {
  it('turns the reset link of a mail into a link and keeps the text around it', () => {
    const text =
      'Hello,\n\nOpen this link to choose a new password:\nhttp://localhost:3100/reset-password?token=abc_DEF-123\n\nFlujo';
    expect(linkify(text)).toEqual([
      { kind: 'text', text: 'Hello,\n\nOpen this link to choose a new password:\n' },
      {
        kind: 'link',
        text: 'http://localhost:3100/reset-password?token=abc_DEF-123',
        href: 'http://localhost:3100/reset-password?token=abc_DEF-123',
      },
      { kind: 'text', text: '\n\nFlujo' },
    ]);
  });

  it('leaves sentence punctuation and unmatched brackets out of the link', () => {
    expect(
      linkify('See https://example.com/a. Or (https://example.com/b), or https://example.com/c!'),
    ).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/a', href: 'https://example.com/a' },
      { kind: 'text', text: '. Or (' },
      { kind: 'link', text: 'https://example.com/b', href: 'https://example.com/b' },
      { kind: 'text', text: '), or ' },
      { kind: 'link', text: 'https://example.com/c', href: 'https://example.com/c' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('keeps brackets that belong to the address', () => {
    const [link] = linkify('https://en.wikipedia.org/wiki/Flow_(software)');
    expect(link).toEqual({
      kind: 'link',
      text: 'https://en.wikipedia.org/wiki/Flow_(software)',
      href: 'https://en.wikipedia.org/wiki/Flow_(software)',
    });
  });

  it('never makes links of other schemes', () => {
    for (const text of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://example.com/file',
      'mailto:someone@example.com',
      'vbscript:msgbox',
      'https://',
    ]) {
      expect(linkify(text).every((s) => s.kind === 'text')).toBe(true);
    }
  });

  it('does not take quotes or angle brackets into the address', () => {
    expect(linkify('<a href="https://example.com/x">')).toEqual([
      { kind: 'text', text: '<a href="' },
      { kind: 'link', text: 'https://example.com/x', href: 'https://example.com/x' },
      { kind: 'text', text: '">' },
    ]);
  });

  it('gives back the input when the segments are joined, and every href is http or https', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.webUrl(), fc.constantFrom(' ', '.', ')', '\n'))),
        (parts) => {
          const text = parts.join('');
          const segments = linkify(text);
          expect(segments.map((s) => s.text).join('')).toBe(text);
          for (const s of segments) {
            if (s.kind === 'link') expect(/^https?:\/\//.test(s.href)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('safeHref', () => {
  it('accepts http and https only', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('HTTP://EXAMPLE.com/a')).toBe('http://example.com/a');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('not a url')).toBeNull();
  });
});
