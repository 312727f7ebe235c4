import { MailWarning } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ResendVerificationButton } from '../components/resend-verification-button';
import { BannerMessage } from '../components/ui/callout';
import { useMe } from '../lib/session';

/** Under the header, for a signed-in person whose address is not verified yet: what to do, and a resend. */
export function VerifyEmailBanner() {
  const { t } = useTranslation();
  const { data: user } = useMe();
  const { pathname } = useLocation();
  // The verification screen says it all itself.
  if (!user || user.emailVerified || pathname === '/verify-email') return null;
  return (
    <section
      aria-label={t('verify.bannerLabel')}
      data-testid="verify-email-banner"
      className="border-b border-amber-200 bg-amber-50"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
        <BannerMessage icon={MailWarning} title={t('verify.bannerTitle')}>
          <span className="break-words">{t('verify.bannerBody', { email: user.email })}</span>
        </BannerMessage>
        <ResendVerificationButton email={user.email} className="shrink-0 self-start sm:self-auto" />
      </div>
    </section>
  );
}
