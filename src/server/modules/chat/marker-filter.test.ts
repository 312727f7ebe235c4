import { describe, expect, it } from 'vitest';
import { createMarkerFilter } from './marker-filter.js';

/** What a reader sees, piece by piece, of a reply written in these pieces. */
function shown(pieces: string[]): string[] {
  const filter = createMarkerFilter();
  const out = pieces.map((p) => filter.push(p));
  out.push(filter.flush());
  return out;
}

describe('completion marker filter', () => {
  it('passes ordinary text through as it comes', () => {
    expect(shown(['Hello ', 'there, ', 'how many guests?'])).toEqual([
      'Hello ',
      'there, ',
      'how many guests?',
      '',
    ]);
  });

  it('holds back a marker split over pieces and never shows it, in either language and any case', () => {
    for (const pieces of [
      ['All set. [CONV', 'ERSATION_COMP', 'LETE]'],
      ['All set. [', 'conversation_complete', ']'],
      ['All set. [CONVERSACIÓN_', 'COMPLETADA]'],
      ['All set. [conversación_completada]'],
    ]) {
      const out = shown(pieces);
      expect(out.join('').trim()).toBe('All set.');
      expect(out.join('')).not.toContain('[');
    }
  });

  it('lets a bracket go once it cannot be a marker, and shows a held tail at the end', () => {
    expect(shown(['Pick [co', '] or [b]'])).toEqual(['Pick ', '[co] or [b]', '']);
    expect(shown(['Pick [a', '] or [b]'])).toEqual(['Pick [a', '] or [b]', '']);
    expect(shown(['Choose: [CONV'])).toEqual(['Choose: ', '[CONV']);
  });

  it('removes a marker in the middle of a reply', () => {
    expect(shown(['Done [CONVERSATION_COMPLETE]', ' thanks']).join('')).toBe('Done  thanks');
  });
});
