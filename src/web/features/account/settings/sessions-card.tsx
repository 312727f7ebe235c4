import { LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { toast } from '#web/components/ui/toast';
import { errorKey } from '#web/lib/error-key';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { SettingsCard } from './settings-card';

/** "Sign out of all other devices": every session but this browser's ends. */
export function SessionsCard() {
  const { t } = useTranslation('account');
  const revoke = useRevokeOtherSessions();
  const run = () =>
    revoke.mutate(undefined, {
      onSuccess: ({ revoked }) =>
        toast({
          title: t('settings.sessions.done'),
          description: t('settings.sessions.doneBody', { count: revoked }),
          variant: 'success',
        }),
      onError: (err) =>
        toast({ title: t('settings.sessions.error'), description: t(errorKey(err)), variant: 'destructive' }),
    });
  return (
    <SettingsCard section="sessions">
      <div className="mt-auto">
        <Button
          variant="secondary"
          className="h-auto min-h-10 py-2"
          onClick={run}
          disabled={revoke.isPending}
        >
          <LogOut className="size-4" aria-hidden="true" />
          {revoke.isPending ? t('settings.sessions.running') : t('settings.sessions.submit')}
        </Button>
      </div>
    </SettingsCard>
  );
}
