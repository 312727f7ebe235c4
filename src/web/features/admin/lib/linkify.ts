/** A piece of a mail's text part: plain text, or a web address to show as a link. */
export type TextSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence rather than an address ("open https://x.test/a." ). */
const TRAILING = /[.,;:!?*'"»”’]+$/;

/** Drops trailing punctuation, and closing brackets that have no opening one inside the address. */
function trimEnd(candidate: string): string {
  let url = candidate;
  for (;;) {
    const before = url;
    url = url.replace(TRAILING, '');
    for (const [open, close] of [
      ['(', ')'],
      ['[', ']'],
      ['{', '}'],
    ] as const) {
      if (url.endsWith(close) && url.split(open).length < url.split(close).length) url = url.slice(0, -1);
    }
    if (url === before) return url;
  }
}

/** The address as a safe href: http or https only, parsed by the URL parser; else null. */
export function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Splits a mail's text into plain text and http(s) links, so the caller can build the anchors as React
 * elements (never as HTML). Concatenating the segments' `text` gives back the input exactly.
 */
export function linkify(input: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let plain = '';
  let last = 0;
  for (const match of input.matchAll(URL_PATTERN)) {
    const start = match.index;
    const url = trimEnd(match[0]);
    const href = safeHref(url);
    if (!href) continue;
    plain += input.slice(last, start);
    if (plain) segments.push({ kind: 'text', text: plain });
    plain = '';
    segments.push({ kind: 'link', text: url, href });
    last = start + url.length;
  }
  plain += input.slice(last);
  if (plain) segments.push({ kind: 'text', text: plain });
  return segments;
}
