import { describe, expect, it } from 'vitest';
import { cn } from './utils';

describe('cn', () => {
  it('lets a later class override an earlier one for the same property', () => {
    expect(cn('px-2 py-1', 'px-4')).toBe('py-1 px-4');
    expect(cn('text-sm text-slate-700', 'text-red-800')).toBe('text-sm text-red-800');
    expect(cn('p-8', 'p-2')).toBe('p-2');
  });

  it('keeps classes that do not conflict and skips the falsy ones', () => {
    expect(cn('rounded-lg', false, null, undefined, 'shadow-sm')).toBe('rounded-lg shadow-sm');
  });

  it('knows the theme colours are colours, not font sizes', () => {
    expect(cn('text-sm text-slate-900', 'text-brand-700')).toBe('text-sm text-brand-700');
  });
});
