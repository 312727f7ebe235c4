import { Copy, Eye, EyeOff, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { InlineConfirmButtons } from '#web/components/ui/inline-confirm';
import { toast } from '#web/components/ui/toast';
import { useWorkflowSecret } from '../api/get-workflow-secret';
import { useRotateWorkflowSecret } from '../api/rotate-workflow-secret';
import { Loaded } from './loaded';
import { cn } from '#web/lib/utils';
import { formatDateTime } from '../lib/format';
import { useConfirmedAction } from '#web/lib/use-confirmed-action';

/** One secret value: masked unless `visible`, with its own copy button. */
function SecretValue({
  label,
  value,
  visible,
  testId,
}: {
  label: string;
  value: string;
  visible: boolean;
  testId: string;
}) {
  const { t } = useTranslation('admin');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: t('secret.copiedNamed', { name: label }), variant: 'success' });
    } catch {
      toast({ title: t('secret.copyFailed'), variant: 'destructive' });
    }
  };
  return (
    <div className="mt-3">
      <p className="text-xs font-medium text-slate-800">{label}</p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <code
          className={cn(
            'min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900',
            visible ? 'break-all' : 'truncate',
          )}
          data-testid={testId}
          aria-label={visible ? label : t('secret.hiddenNamed', { name: label })}
        >
          {visible ? value : '•'.repeat(24)}
        </code>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void copy()}
          aria-label={t('secret.copyNamed', { name: label })}
        >
          <Copy className="size-4" aria-hidden="true" />
          {t('secret.copy')}
        </Button>
      </div>
    </div>
  );
}

/**
 * The workflow's signing secret and the fixed X-Flujo-Token header value derived from it (for n8n's Header
 * Auth): masked until asked (one toggle for both), copyable, and rotatable after a confirmation.
 */
export function SecretPanel({ workflowId }: { workflowId: string }) {
  const { t } = useTranslation('admin');
  const secret = useWorkflowSecret(workflowId);
  const rotate = useRotateWorkflowSecret(workflowId);
  const [visible, setVisible] = useState(false);
  const rotation = useConfirmedAction(rotate, t, {
    done: t('secret.rotated'),
    failed: t('secret.rotateError'),
  });

  return (
    <section aria-labelledby="secret-title" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 id="secret-title" className="text-sm font-semibold text-slate-900">
        {t('secret.title')}
      </h3>
      <p className="mt-1 text-sm text-slate-700">{t('secret.help')}</p>
      <Loaded query={secret} spinnerClassName="p-2" errorClassName="mt-2 text-sm">
        {(values) => (
          <>
            <SecretValue
              label={t('secret.value')}
              value={values?.secretToken ?? ''}
              visible={visible}
              testId="workflow-secret"
            />
            <SecretValue
              label={t('secret.headerToken')}
              value={values?.headerToken ?? ''}
              visible={visible}
              testId="workflow-header-token"
            />
            <p className="mt-1 text-xs text-slate-700">{t('secret.headerTokenHelp')}</p>
            <div className="mt-3">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setVisible((v) => !v)}
                aria-pressed={visible}
              >
                {visible ? (
                  <EyeOff className="size-4" aria-hidden="true" />
                ) : (
                  <Eye className="size-4" aria-hidden="true" />
                )}
                {visible ? t('secret.hide') : t('secret.show')}
              </Button>
            </div>
            {values?.previousSecretExpiresAt ? (
              <p className="mt-2 text-xs text-slate-700">
                {t('secret.previousValid', { date: formatDateTime(values.previousSecretExpiresAt) })}
              </p>
            ) : null}
            <div className="mt-3">
              {rotation.confirming ? (
                <div
                  className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
                  role="group"
                  aria-label={t('secret.rotate')}
                >
                  <p>{t('secret.rotateConfirm')}</p>
                  <div className="mt-2 flex gap-2">
                    <InlineConfirmButtons
                      action={rotation}
                      cancelLabel={t('common.cancel')}
                      confirmLabel={t('secret.rotate')}
                    />
                  </div>
                </div>
              ) : (
                <Button variant="ghost" size="sm" onClick={() => rotation.setConfirming(true)}>
                  <RefreshCw className="size-4" aria-hidden="true" />
                  {t('secret.rotate')}
                </Button>
              )}
            </div>
          </>
        )}
      </Loaded>
    </section>
  );
}
