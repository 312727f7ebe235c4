import { twMerge } from 'tailwind-merge';

/**
 * Joins class names, skipping the falsy ones. Tailwind classes that set the same property are merged so
 * the later one wins: a component's `className` prop overrides its own defaults instead of racing them in
 * the stylesheet's order.
 */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return twMerge(...classes);
}
