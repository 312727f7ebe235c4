import { AppError, badRequest } from '#server/lib/errors.js';

/**
 * Limits of a result's `output_data`, the JSON a workflow service reports beside (or instead of) a file. It is
 * stored on the run and sent in every history answer, so it must stay small; files travel as files.
 */
const MAX_OUTPUT_DATA_BYTES = 64 * 1024;
/** `{}` is one level, `{"a":{}}` two; a string or number is none. */
const MAX_OUTPUT_DATA_DEPTH = 20;

const tooDeep = () =>
  badRequest(
    { key: 'outputTooDeep', params: { max: MAX_OUTPUT_DATA_DEPTH } },
    {
      fields: [{ field: 'output_data', message: `at most ${MAX_OUTPUT_DATA_DEPTH} levels of nesting` }],
    },
  );

/**
 * The deepest nesting of arrays and objects in a JSON text, read as text: no parser recursion, whatever the
 * input. Counting stops as soon as it passes `stopAt`. Brackets inside strings do not count; the text need
 * not be valid JSON (the parser that runs afterwards says so).
 */
export function jsonNestingDepth(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return deepest;
}

/** Throws the 400 of a too deep output_data when a JSON text holding it at `offset` levels is too deep. */
export function assertJsonTextDepth(text: string, offset: number): void {
  const limit = MAX_OUTPUT_DATA_DEPTH + offset;
  if (jsonNestingDepth(text, limit) > limit) throw tooDeep();
}

/** The nesting of a parsed value, walked with a stack of its own (JSON.stringify would recurse). */
function valueDepth(value: unknown, stopAt: number): number {
  const pending: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  let deepest = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { node, depth } = next;
    if (node === null || typeof node !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) {
      deepest = level;
      if (deepest > stopAt) return deepest;
    }
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push({ node: child, depth: level });
    }
  }
  return deepest;
}

/**
 * 400 when output_data is nested deeper than 20 levels, 413 when it takes more than 64 KB as JSON. The depth
 * is checked first, so the serialisation that measures the size cannot overflow the stack.
 */
export function checkOutputData(data: unknown): void {
  if (data === undefined || data === null) return;
  if (valueDepth(data, MAX_OUTPUT_DATA_DEPTH) > MAX_OUTPUT_DATA_DEPTH) throw tooDeep();
  const bytes = Buffer.byteLength(JSON.stringify(data) ?? '', 'utf8');
  if (bytes > MAX_OUTPUT_DATA_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', {
      key: 'outputTooLarge',
      params: { bytes, max: MAX_OUTPUT_DATA_BYTES },
    });
  }
}
