import { Coins, KeyRound, UserCheck, UserX } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '#web/components/ui/badge';
import { toast } from '#web/components/ui/toast';
import type { TAdminUser } from '#shared/contract/admin';
import type { TAccountStatus } from '#shared/contract/auth';
import { useAdminUsers } from '#web/features/admin/api/get-users';
import { useSendPasswordReset } from '#web/features/admin/api/send-password-reset';
import { useUpdateUser } from '#web/features/admin/api/update-user';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { DataTable, type Column } from '#web/components/ui/data-table';
import { FilterSelect, ListToolbar, SearchBox } from '#web/features/admin/components/list-toolbar';
import { PageHeader } from '#web/features/admin/components/page-header';
import { Pagination } from '#web/components/ui/pagination';
import { RowAction } from '#web/features/admin/components/row-action';
import { errorKey } from '#web/lib/error-key';
import { formatNumber } from '#web/lib/format';
import { useListState } from '#web/features/admin/lib/use-list-state';
import { AdjustCreditsDialog } from './adjust-credits-dialog';

export default function UsersPage() {
  const { t } = useTranslation('admin');
  const list = useListState();
  const users = useAdminUsers({
    ...list.params,
    status: (list.filter || undefined) as TAccountStatus | undefined,
  });
  const update = useUpdateUser();
  const [adjusting, setAdjusting] = useState<TAdminUser | null>(null);
  const [suspending, setSuspending] = useState<TAdminUser | null>(null);
  const sendReset = useSendPasswordReset();
  const [resetting, setResetting] = useState<TAdminUser | null>(null);

  const doSendReset = (user: TAdminUser) =>
    sendReset.mutate(user.id, {
      onSuccess: () => {
        toast({ title: t('users.resetSent'), description: user.email, variant: 'success' });
        setResetting(null);
      },
      onError: (err) =>
        toast({ title: t('users.resetError'), description: t(errorKey(err)), variant: 'destructive' }),
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
          toast({ title: t('users.statusError'), description: err.message, variant: 'destructive' }),
      },
    );

  const columns: Array<Column<TAdminUser>> = [
    {
      id: 'name',
      header: t('users.columns.name'),
      cell: (u) => <span className="font-medium text-slate-900">{u.fullName || '—'}</span>,
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
      cell: (u) => (
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
      cell: (u) => (
        <div className="flex justify-end gap-1">
          <RowAction
            label={t('users.adjustNamed', { email: u.email })}
            icon={Coins}
            onClick={() => setAdjusting(u)}
          />
          {u.accountStatus === 'active' ? (
            <RowAction
              label={t('users.resetNamed', { email: u.email })}
              icon={KeyRound}
              onClick={() => setResetting(u)}
            />
          ) : null}
          {u.accountStatus === 'active' ? (
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

  return (
    <div>
      <PageHeader title={t('users.title')} subtitle={t('users.subtitle')} />
      <ListToolbar>
        <SearchBox
          label={t('users.search')}
          placeholder={t('users.searchPlaceholder')}
          value={list.search}
          onChange={list.setSearch}
        />
        <FilterSelect
          label={t('users.status')}
          value={list.filter}
          onChange={list.setFilter}
          options={[
            { value: '', label: t('common.all') },
            { value: 'active', label: t('accountStatus.active') },
            { value: 'suspended', label: t('accountStatus.suspended') },
          ]}
        />
      </ListToolbar>
      <DataTable
        label={t('users.title')}
        columns={columns}
        rows={users.data?.items}
        rowKey={(u) => u.id}
        isLoading={users.isLoading}
        error={users.error}
        empty={t('users.empty')}
      />
      <Pagination
        page={list.page}
        pageSize={list.pageSize}
        total={users.data?.total}
        onPageChange={list.setPage}
      />
      <AdjustCreditsDialog user={adjusting} onClose={() => setAdjusting(null)} />
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
    </div>
  );
}
