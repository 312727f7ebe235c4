import { Coins, KeyRound, Plug, UserCheck, UserX } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '#web/components/ui/badge';
import { toast } from '#web/components/ui/toast';
import { ADMIN_USER_STATUSES, type TAdminUser } from '#shared/contract/admin';
import type { TAccountStatus } from '#shared/contract/auth';
import { useAdminUsers } from '#web/features/admin/api/lists';
import { useSendPasswordReset } from '#web/features/admin/api/send-password-reset';
import { useUpdateUser } from '#web/features/admin/api/update-user';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import type { Column } from '#web/components/ui/data-table';
import { AdminList, type ListFilter } from '#web/features/admin/components/admin-list';
import { RowAction } from '#web/features/admin/components/row-action';
import { errorMessage } from '#web/lib/error-key';
import { formatNumber } from '#web/lib/format';
import { useMe } from '#web/lib/session';
import { chosen, useListState } from '#web/features/admin/lib/use-list-state';
import { AdjustCreditsDialog } from './adjust-credits-dialog';
import { ConnectedAppsDialog } from './connected-apps-dialog';

export default function UsersPage() {
  const { t } = useTranslation('admin');
  const list = useListState();
  const users = useAdminUsers({ ...list.params, status: chosen(ADMIN_USER_STATUSES, list.filter) });
  const update = useUpdateUser();
  const { data: me } = useMe();
  const [adjusting, setAdjusting] = useState<TAdminUser | null>(null);
  const [suspending, setSuspending] = useState<TAdminUser | null>(null);
  const sendReset = useSendPasswordReset();
  const [resetting, setResetting] = useState<TAdminUser | null>(null);
  const [appsOf, setAppsOf] = useState<TAdminUser | null>(null);

  const doSendReset = (user: TAdminUser) =>
    sendReset.mutate(user.id, {
      onSuccess: () => {
        toast({ title: t('users.resetSent'), description: user.email, variant: 'success' });
        setResetting(null);
      },
      onError: (err) =>
        toast({ title: t('users.resetError'), description: errorMessage(t, err), variant: 'destructive' }),
    });

  const setStatus = (user: TAdminUser, accountStatus: TAccountStatus) =>
    update.mutate(
      { id: user.id, changes: { accountStatus } },
      {
        onSuccess: () => {
          toast({
            title: accountStatus === 'suspended' ? t('users.suspended') : t('users.activated'),
            description: user.email,
            variant: 'success',
          });
          setSuspending(null);
        },
        onError: (err) =>
          toast({ title: t('users.statusError'), description: errorMessage(t, err), variant: 'destructive' }),
      },
    );

  const columns: Array<Column<TAdminUser>> = [
    {
      id: 'name',
      header: t('users.columns.name'),
      cell: (u) => (
        <span className="font-medium text-slate-900">
          {u.fullName || '—'}
          {u.id === me?.id ? (
            <span className="ml-1.5 font-normal text-slate-700">({t('users.you')})</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'email',
      header: t('users.columns.email'),
      cell: (u) => <span className="break-all">{u.email}</span>,
    },
    {
      id: 'credits',
      header: t('users.columns.credits'),
      className: 'text-right tabular-nums',
      cell: (u) => formatNumber(u.credits),
    },
    {
      id: 'status',
      header: t('users.columns.status'),
      cell: (u) =>
        u.deletedAt ? (
          <Badge tone="neutral">{t('accountStatus.deleted')}</Badge>
        ) : (
          <Badge tone={u.accountStatus === 'active' ? 'success' : 'danger'}>
            {t(`accountStatus.${u.accountStatus}`)}
          </Badge>
        ),
    },
    {
      id: 'role',
      header: t('users.columns.role'),
      cell: (u) => (
        <Badge tone={u.isAdmin ? 'brand' : 'neutral'}>{u.isAdmin ? t('roles.admin') : t('roles.user')}</Badge>
      ),
    },
    {
      id: 'actions',
      actions: true,
      header: <span className="sr-only">{t('common.actions')}</span>,
      className: 'text-right',
      // A deleted account has nothing left to act on: no credits to adjust, no sign-in to reset or suspend.
      cell: (u) =>
        u.deletedAt ? null : (
          <div className="flex justify-end gap-1">
            <RowAction
              label={t('users.adjustNamed', { email: u.email })}
              icon={Coins}
              onClick={() => setAdjusting(u)}
            />
            <RowAction
              label={t('users.appsNamed', { email: u.email })}
              icon={Plug}
              onClick={() => setAppsOf(u)}
            />
            {u.accountStatus === 'active' ? (
              <RowAction
                label={t('users.resetNamed', { email: u.email })}
                icon={KeyRound}
                onClick={() => setResetting(u)}
              />
            ) : null}
            {/* An admin cannot lock themselves out: their own row has no Suspend. */}
            {u.id === me?.id ? null : u.accountStatus === 'active' ? (
              <RowAction
                label={t('users.suspendNamed', { email: u.email })}
                icon={UserX}
                tone="danger"
                onClick={() => setSuspending(u)}
              />
            ) : (
              <RowAction
                label={t('users.activateNamed', { email: u.email })}
                icon={UserCheck}
                tone="success"
                onClick={() => setStatus(u, 'active')}
                disabled={update.isPending && update.variables?.id === u.id}
              />
            )}
          </div>
        ),
    },
  ];

  const filter: ListFilter = {
    label: t('users.status'),
    // Deleted accounts are listed only when chosen (the server leaves them out otherwise).
    allLabel: t('users.allLive'),
    options: ADMIN_USER_STATUSES.map((value) => ({ value, label: t(`accountStatus.${value}`) })),
  };

  return (
    <AdminList section="users" list={list} page={users} filter={filter} columns={columns}>
      <AdjustCreditsDialog user={adjusting} onClose={() => setAdjusting(null)} />
      <ConnectedAppsDialog user={appsOf} onClose={() => setAppsOf(null)} />
      <ConfirmDialog
        open={suspending !== null}
        onOpenChange={(open) => (open ? undefined : setSuspending(null))}
        title={t('users.suspendTitle', { email: suspending?.email ?? '' })}
        description={t('users.suspendWarning')}
        confirmLabel={t('users.suspend')}
        onConfirm={() => (suspending ? setStatus(suspending, 'suspended') : undefined)}
        pending={update.isPending}
      />
      <ConfirmDialog
        open={resetting !== null}
        onOpenChange={(open) => (open ? undefined : setResetting(null))}
        title={t('users.resetTitle', { email: resetting?.email ?? '' })}
        description={t('users.resetWarning')}
        confirmLabel={t('users.resetConfirm')}
        confirmVariant="primary"
        onConfirm={() => (resetting ? doSendReset(resetting) : undefined)}
        pending={sendReset.isPending}
      />
    </AdminList>
  );
}
