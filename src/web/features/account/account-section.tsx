import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A part of the account page that a link can jump to (`#<id>`, clear of the sticky header): its heading and
 * subtitle (`<texts>.heading` and `.subtitle`, account), then its content.
 */
export function AccountSection({
  id,
  texts,
  children,
}: {
  id: string;
  texts: 'settings' | 'apiKeys' | 'connectedApps' | 'webhooks';
  children: ReactNode;
}) {
  const { t } = useTranslation('account');
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-20">
      <h2 id={`${id}-heading`} className="text-xl font-bold text-slate-900">
        {t(`${texts}.heading`)}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t(`${texts}.subtitle`)}</p>
      {children}
    </section>
  );
}
