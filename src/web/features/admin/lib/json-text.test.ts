import { describe, expect, it } from 'vitest';
import { jsonPreview, parseJson } from './json-text';

describe('jsonPreview', () => {
  it('keeps short details whole', () => {
    expect(jsonPreview({ key: 'signup_bonus_credits', to: 7 })).toBe('{"key":"signup_bonus_credits","to":7}');
  });
  it('cuts long details at 50 characters and marks the cut', () => {
    const preview = jsonPreview({ reason: 'x'.repeat(100) });
    expect(preview).toHaveLength(51);
    expect(preview.endsWith('…')).toBe(true);
    expect(preview.startsWith('{"reason":"xxx')).toBe(true);
  });
});

describe('parseJson', () => {
  it.each([
    ['7', 7],
    ['"text"', 'text'],
    ['{"a":[1,2]}', { a: [1, 2] }],
    ['null', null],
  ])('parses %s', (text, value) => {
    expect(parseJson(text)).toEqual({ ok: true, value });
  });
  it.each(['{siete', '', "'single'", '7,'])('reports why %j is not JSON', (text) => {
    const result = parseJson(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
  });
});
