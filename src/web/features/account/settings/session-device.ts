import type { TFunction } from 'i18next';
import type { TAccountSession } from '#shared/contract/account';

/** "Chrome on Android" in the reader's language, from the names the server parsed out of the User-Agent. */
export function deviceName(t: TFunction, s: Pick<TAccountSession, 'browser' | 'os'>): string {
  if (s.browser && s.os) return t('settings.sessions.device', { browser: s.browser, os: s.os });
  if (s.browser) return s.browser;
  if (s.os) return t('settings.sessions.deviceOs', { os: s.os });
  return t('settings.sessions.unknownDevice');
}

export const isPhone = (s: Pick<TAccountSession, 'os'>) => s.os === 'Android' || s.os === 'iOS';

/** A country code ("ES") as the reader calls it ("España", "Spain"); the code itself if the browser cannot. */
export function countryName(code: string | null, language: string): string | null {
  if (!code) return null;
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
