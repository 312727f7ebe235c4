import { formatDate as formatLocaleDate } from '#web/lib/format';

export { formatUsd } from '#shared/contract/plans';

/** A date in the current locale, or null when the server's value cannot be read ("Date unavailable"). */
export function formatDate(value: string, language: string, withTime = true): string | null {
  return formatLocaleDate(value, { language, time: withTime });
}

/** A signed credit amount: "+30", "-1", "0". */
export const signedAmount = (amount: number) => (amount > 0 ? `+${amount}` : String(amount));
