import { useTranslation } from 'react-i18next';
import type { TAdminUser } from '#shared/contract/admin';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { toast } from '#web/components/ui/toast';
import { useRevokeUserConnectedApp, useUserConnectedApps } from '#web/features/admin/api/connected-apps';
import { errorMessage } from '#web/lib/error-key';
import { formatDate, formatNumber } from '#web/lib/format';

/** The apps a user connected with OAuth; an admin revokes one at once (the audit log keeps it). */
export function ConnectedAppsDialog({ user, onClose }: { user: TAdminUser | null; onClose(): void }) {
  const { t, i18n } = useTranslation('admin');
  const apps = useUserConnectedApps(user?.id ?? null);
  const revoke = useRevokeUserConnectedApp();
  const lng = i18n.resolvedLanguage;
  const list = apps.data ?? [];
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('users.appsTitle')}
      description={user ? t('users.appsDescription', { email: user.email }) : undefined}
      closeLabel={t('common.close')}
    >
      {list.length === 0 ? (
        <p className="text-sm text-slate-700">
          {apps.isPending ? t('users.appsLoading') : t('users.appsEmpty')}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label={t('users.appsTitle')}>
          {list.map((app) => (
            <li key={app.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{app.name}</p>
                <p className="text-sm text-slate-700">
                  {t('users.appsLine', {
                    date: formatDate(app.grantedAt, { time: false, language: lng }),
                    spent: formatNumber(app.spentThisMonth, lng),
                    limit:
                      app.monthlyCreditLimit === null
                        ? t('users.appsNoLimit')
                        : formatNumber(app.monthlyCreditLimit, lng),
                  })}
                </p>
              </div>
              <Button
                variant="destructive"
                size="sm"
                disabled={revoke.isPending}
                aria-label={t('users.appsRevokeNamed', { name: app.name })}
                onClick={() =>
                  user &&
                  revoke.mutate(
                    { userId: user.id, appId: app.id },
                    {
                      onSuccess: () =>
                        toast({ title: t('users.appsRevoked', { name: app.name }), variant: 'success' }),
                      onError: (err) =>
                        toast({
                          title: t('users.appsRevokeError'),
                          description: errorMessage(t, err),
                          variant: 'destructive',
                        }),
                    },
                  )
                }
              >
                {t('users.appsRevoke')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
