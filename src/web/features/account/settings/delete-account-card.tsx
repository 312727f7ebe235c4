import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PasswordField } from '#web/components/form-fields';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogActions } from '#web/components/ui/dialog';
import { FormError } from '#web/components/ui/form-field';
import { toast } from '#web/components/ui/toast';
import { formErrors } from '#web/lib/error-key';
import { useDeleteAccount } from '../api/delete-account';
import { SettingsCard } from './settings-card';
import { queryKeys } from '#web/lib/query-keys';

/** The danger zone: deleting the account, confirmed with the password in a dialog. */
export function DeleteAccountCard({ credits }: { credits: number }) {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState(false);
  return (
    <SettingsCard section="delete" danger>
      <div>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          <Trash2 className="size-4" aria-hidden="true" />
          {t('settings.delete.open')}
        </Button>
      </div>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t('settings.delete.confirmTitle')}
        description={t('settings.delete.confirmBody')}
        closeLabel={t('common:close')}
      >
        {open ? <DeleteForm credits={credits} onCancel={() => setOpen(false)} /> : null}
      </Dialog>
    </SettingsCard>
  );
}

function DeleteForm({ credits, onCancel }: { credits: number; onCancel(): void }) {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; form?: string }>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!password) {
      setErrors({ password: t('settings.passwordRequired') });
      return;
    }
    setErrors({});
    remove.mutate(
      { password },
      {
        onSuccess: async () => {
          // Home first, then drop the session: the account page's guard would otherwise send us to sign in.
          await navigate('/', { replace: true });
          queryClient.clear();
          queryClient.setQueryData(queryKeys.me, null);
          toast({
            title: t('settings.delete.done'),
            description: t('settings.delete.doneBody'),
            variant: 'success',
          });
        },
        onError: (err) =>
          setErrors(
            formErrors(t, err, ['password'], {
              'VALIDATION_ERROR:password': 'account:settings.wrongPassword',
            }),
          ),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>{t('settings.delete.erased')}</li>
        <li>{t('settings.delete.kept')}</li>
        {credits > 0 ? <li>{t('settings.delete.credits', { count: credits })}</li> : null}
      </ul>
      <PasswordField
        kind="current"
        id="settings-delete-password"
        label={t('settings.delete.password')}
        value={password}
        onValueChange={setPassword}
        error={errors.password}
      />
      <FormError message={errors.form} />
      <DialogActions cancelLabel={t('settings.delete.cancel')} onCancel={onCancel}>
        <Button type="submit" variant="destructive" disabled={remove.isPending}>
          {remove.isPending ? t('settings.delete.deleting') : t('settings.delete.confirm')}
        </Button>
      </DialogActions>
    </form>
  );
}
